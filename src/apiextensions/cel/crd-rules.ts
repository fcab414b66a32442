import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import type { JSONSchemaProps, ValidationRule } from '../../api/json-schema-props.js';
import { goQuote } from '../../util/go-quote.js';
import { child, index, key } from '../schema/field-path.js';
import { itemsSchema, additionalPropertiesSchema } from '../../api/json-schema-props.js';
import { compileSchemaRules } from './rules.js';

/**
 * CRD-time checks of `x-kubernetes-validations` (apiextensions validation.go, R11.101–R11.103): the fields of each
 * rule first; only when a version's rules pass those are they compiled, and compile errors are reported at the
 * rule with the rule struct rendered as Go's %#v renders it.
 */

const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);

function fieldChecks(rule: ValidationRule, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const trimmedRule = (rule.rule ?? '').trim();
  const message = rule.message ?? '';
  const trimmedMsg = message.trim();
  if (trimmedRule === '') errs.push(fieldError.required(child(at, 'rule'), 'rule is not specified'));
  else if (message !== '' && trimmedMsg === '') errs.push(fieldError.invalid(child(at, 'message'), message, 'message must be non-empty if specified'));
  else if (message.length > 2048) errs.push(fieldError.invalid(child(at, 'message'), `${message.slice(0, 10)}...`, 'message must have a maximum length of 2048 characters'));
  else if (hasNewlines(trimmedMsg)) errs.push(fieldError.invalid(child(at, 'message'), message, 'message must not contain line breaks'));
  else if (hasNewlines(trimmedRule) && trimmedMsg === '') errs.push(fieldError.required(child(at, 'message'), 'message must be specified if rule contains line breaks'));
  if (rule.messageExpression !== undefined && rule.messageExpression !== '' && rule.messageExpression.trim() === '') {
    errs.push(fieldError.required(child(at, 'messageExpression'), 'messageExpression must be non-empty if specified'));
  }
  if (rule.reason !== undefined && !REASONS.includes(rule.reason)) errs.push(fieldError.notSupported(child(at, 'reason'), rule.reason, REASONS));
  const fieldPath = rule.fieldPath ?? '';
  if (fieldPath !== '' && fieldPath.trim() === '') errs.push(fieldError.invalid(child(at, 'fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'));
  if (hasNewlines(fieldPath)) errs.push(fieldError.invalid(child(at, 'fieldPath'), fieldPath, 'fieldPath must not contain line breaks'));
  return errs;
}

function walkRules(schema: JSONSchemaProps, path: string, out: FieldError[]): void {
  for (const [i, rule] of (schema['x-kubernetes-validations'] ?? []).entries()) out.push(...fieldChecks(rule, index(child(path, 'x-kubernetes-validations'), i)));
  for (const [k, prop] of Object.entries(schema.properties ?? {})) walkRules(prop, key(child(path, 'properties'), k), out);
  const items = itemsSchema(schema);
  if (items !== undefined) walkRules(items, child(path, 'items'), out);
  const additional = additionalPropertiesSchema(schema);
  if (additional !== undefined) walkRules(additional, child(path, 'additionalProperties'), out);
}

/** `apiextensions.ValidationRule{...}` as Go's %#v prints the internal type; a set pointer prints as an address. */
function goRule(rule: ValidationRule): GoLiteral {
  const ptr = (type: string, set: boolean): string => `(*${type})(${set ? '0xc000000000' : 'nil'})`;
  return new GoLiteral(
    `apiextensions.ValidationRule{Rule:${goQuote(rule.rule ?? '')}, Message:${goQuote(rule.message ?? '')}, MessageExpression:${goQuote(rule.messageExpression ?? '')}, Reason:${ptr('apiextensions.FieldValueErrorReason', rule.reason !== undefined)}, FieldPath:${goQuote(rule.fieldPath ?? '')}, OptionalOldSelf:${ptr('bool', rule.optionalOldSelf !== undefined)}}`,
  );
}

/** All rule errors of one version's schema, rooted at `path` (`spec.versions[0].schema.openAPIV3Schema`). */
export function validateSchemaRules(schema: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  walkRules(schema, path, errs);
  if (errs.length > 0) return errs;
  const compiled = compileSchemaRules(schema, path);
  for (const node of compiled?.nodes.values() ?? []) {
    for (const r of node.rules) {
      const at = index(node.schemaPath, r.index);
      if (r.error !== undefined) errs.push(fieldError.invalid(child(at, 'rule'), goRule(r.rule), r.error));
      if (r.messageError !== undefined) errs.push(fieldError.invalid(child(at, 'messageExpression'), goRule(r.rule), r.messageError));
      if (r.program !== undefined && r.rule.optionalOldSelf !== undefined && !r.program.usesOldSelf) {
        errs.push(fieldError.invalid(child(at, 'optionalOldSelf'), r.rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
      }
    }
  }
  return errs;
}
