import { type FieldError, fieldError } from '../api/errors.js';
import { isObject, type KubeObject } from '../api/types.js';
import type { ResourceRef } from '../client/interface.js';
import { isQualifiedName } from '../validation/names.js';
import { type Condition, parseCondition } from './condition.js';
import { type FieldPath, parseFieldPath, stringsAt } from './field-path.js';
import type { ProtectionRule } from './rule-types.js';

/** The field-selector label a rule defines on its dependents; `<label>=<provider>` selects the provider's users. */
export function referenceFieldLabel(ruleName: string): string {
  return `protectionrule.cascade.dev/${ruleName}`;
}

/** A ProtectionRule ready to use: parsed paths and condition, and what a dependent refers to. */
export interface CompiledRule {
  readonly name: string;
  readonly provider: ResourceRef;
  readonly dependent: ResourceRef;
  readonly references: readonly FieldPath[];
  readonly condition: Condition;
  readonly finalizer: string;
  readonly fieldLabel: string;
  /** Provider names the dependent refers to through any reference path, whether or not it uses them now. */
  referencedProviders(dependent: KubeObject): string[];
  /** Provider names the dependent may be using: its references, when the condition holds, else none. */
  providersInUse(dependent: KubeObject): string[];
}

/** Field errors in a rule's spec, with paths as the API reports them (`spec.references[1]`). */
export function validateRuleSpec(spec: unknown): FieldError[] {
  if (!isObject(spec)) return [fieldError.required('spec')];
  const errs: FieldError[] = [];
  for (const side of ['provider', 'dependent'] as const) {
    const ref = spec[side];
    if (!isObject(ref)) {
      errs.push(fieldError.required(`spec.${side}`));
      continue;
    }
    if (typeof ref.group !== 'string') errs.push(fieldError.required(`spec.${side}.group`, 'use "" for the core group'));
    for (const field of ['version', 'resource'] as const) {
      if (typeof ref[field] !== 'string' || ref[field] === '') errs.push(fieldError.required(`spec.${side}.${field}`));
    }
  }
  const references = spec.references;
  if (!Array.isArray(references) || references.length === 0) errs.push(fieldError.required('spec.references', 'at least one field path'));
  else {
    references.forEach((text: unknown, i) => {
      try {
        if (typeof text !== 'string') throw new Error('must be a string');
        parseFieldPath(text);
      } catch (err) {
        errs.push(fieldError.invalid(`spec.references[${i}]`, text, (err as Error).message));
      }
    });
  }
  if (spec.condition !== undefined) {
    try {
      if (typeof spec.condition !== 'string') throw new Error('must be a string');
      parseCondition(spec.condition);
    } catch (err) {
      errs.push(fieldError.invalid('spec.condition', spec.condition, (err as Error).message));
    }
  }
  if (typeof spec.finalizer !== 'string' || spec.finalizer === '') errs.push(fieldError.required('spec.finalizer'));
  else {
    for (const msg of isQualifiedName(spec.finalizer)) errs.push(fieldError.invalid('spec.finalizer', spec.finalizer, msg));
    if (!spec.finalizer.includes('/'))
      errs.push(fieldError.invalid('spec.finalizer', spec.finalizer, 'must be domain-qualified, e.g. example.com/in-use'));
  }
  return errs;
}

/** Compiles a rule whose spec passed validateRuleSpec (admission guarantees that for stored rules). */
export function compileRule(rule: ProtectionRule): CompiledRule {
  const spec = rule.spec;
  const references = spec.references.map(parseFieldPath);
  const condition = parseCondition(spec.condition ?? '');
  const referencedProviders = (dependent: KubeObject): string[] => [...new Set(references.flatMap((path) => stringsAt(dependent, path)))];
  return {
    name: rule.metadata.name ?? '',
    provider: { group: spec.provider.group, version: spec.provider.version, resource: spec.provider.resource },
    dependent: { group: spec.dependent.group, version: spec.dependent.version, resource: spec.dependent.resource },
    references,
    condition,
    finalizer: spec.finalizer,
    fieldLabel: referenceFieldLabel(rule.metadata.name ?? ''),
    referencedProviders,
    providersInUse: (dependent) => (condition.holds(dependent) ? referencedProviders(dependent) : []),
  };
}
