import { isDeepStrictEqual } from 'node:util';
import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject, objects } from '../../api/types.js';
import { goQuote } from '../../util/go-quote.js';
import { quantityValue } from '../../validation/quantity-value.js';
import { INTEGER_RESOURCES } from './resource-names.js';
import { specOf } from '../../api/json-fields.js';

/**
 * ResourceQuota validation of pkg/apis/core/validation (ValidateResourceQuota, …Update, …StatusUpdate): resource
 * names and quantities of hard and used, and the scopes and scope selector against the resources they limit.
 */

type Obj = Record<string, unknown>;

const isIntegerResource = (name: string): boolean => INTEGER_RESOURCES.has(name) || name.startsWith('count/');

/** The resources a quota may name without a domain (standardQuotaResources). */
const STANDARD_QUOTA_RESOURCES = new Set([
  ...INTEGER_RESOURCES,
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
]);
const isHugePages = (name: string): boolean => name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
/** IsStandardQuotaResourceName: the names scopes are checked against. */
const isStandardQuotaResourceName = (name: string): boolean => STANDARD_QUOTA_RESOURCES.has(name) || isHugePages(name);
/** ValidateResourceQuotaResourceName: standard names, or any domain-prefixed one. */
const isValidQuotaResourceName = (name: string): boolean => name.includes('/') || isStandardQuotaResourceName(name);

/** IsStandardResourceQuotaScope with 1.32's gates (the VolumeAttributesClass scope is off). */
const STANDARD_SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];
const POD_COUNT = new Set(['pods']);
const POD_COMPUTE = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);
const EXISTS_ONLY_SCOPES = ['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'];
const CONFLICTING_SCOPES: readonly (readonly [string, string])[] = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

/** IsResourceQuotaScopeValidForResource: which resources a scope can limit. */
function scopeFitsResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return POD_COUNT.has(resource) || POD_COMPUTE.has(resource);
    case 'BestEffort':
      return POD_COUNT.has(resource);
    default:
      return true;
  }
}

const shown = (value: unknown): string => (typeof value === 'string' ? value : String(value));
const mapAt = (holder: Obj, key: string): Obj => (isObject(holder[key]) ? holder[key] : {});
const statusOf = (quota: KubeObject): Obj => (isObject(quota.status) ? quota.status : {});
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** ValidateResourceQuotaResourceName and ValidateResourceQuantityValue for each entry of a hard or used list. */
function validateQuantities(path: string, list: Obj): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, value] of Object.entries(list)) {
    const at = `${path}[${name}]`;
    if (!isValidQuotaResourceName(name)) errs.push(fieldError.invalid(at, name, 'must be a standard resource for quota'));
    const amount = quantityValue(value);
    if (amount < 0) errs.push(fieldError.invalid(at, shown(value), 'must be greater than or equal to 0'));
    if (isIntegerResource(name) && Math.round(amount * 1000) % 1000 !== 0)
      errs.push(fieldError.invalid(at, shown(value), 'must be an integer'));
  }
  return errs;
}

/** []core.ResourceQuotaScope as Go's %#v prints it. */
const scopesLiteral = (scopes: string[]): GoLiteral =>
  new GoLiteral(scopes.length === 0 ? '[]core.ResourceQuotaScope(nil)' : `[]core.ResourceQuotaScope{${scopes.map(goQuote).join(', ')}}`);

/** *core.ScopeSelector as Go's %#v prints it once dereferenced. */
function scopeSelectorLiteral(expressions: Obj[]): GoLiteral {
  const values = (v: unknown): string => {
    const list = strings(v);
    return Array.isArray(v) ? `[]string{${list.map(goQuote).join(', ')}}` : '[]string(nil)';
  };
  const items = expressions.map(
    (e) =>
      `core.ScopedResourceSelectorRequirement{ScopeName:${goQuote(shown(e.scopeName ?? ''))}, Operator:${goQuote(shown(e.operator ?? ''))}, Values:${values(e.values)}}`,
  );
  return new GoLiteral(`core.ScopeSelector{MatchExpressions:[]core.ScopedResourceSelectorRequirement{${items.join(', ')}}}`);
}

const sortedHardNames = (spec: Obj): string[] => Object.keys(mapAt(spec, 'hard')).sort();

/** validateResourceQuotaScopes. */
function validateScopes(spec: Obj): FieldError[] {
  const scopes = strings(spec.scopes);
  if (scopes.length === 0) return [];
  const errs: FieldError[] = [];
  const value = scopesLiteral(scopes);
  const hard = sortedHardNames(spec);
  for (const scope of scopes) {
    if (!STANDARD_SCOPES.includes(scope)) errs.push(fieldError.invalid('spec.scopes', value, 'unsupported scope'));
    for (const name of hard) {
      if (isStandardQuotaResourceName(name) && !scopeFitsResource(scope, name)) {
        errs.push(fieldError.invalid('spec.scopes', value, 'unsupported scope applied to resource'));
      }
    }
  }
  for (const [a, b] of CONFLICTING_SCOPES) {
    if (scopes.includes(a) && scopes.includes(b)) errs.push(fieldError.invalid('spec.scopes', value, 'conflicting scopes'));
  }
  return errs;
}

/** validateScopedResourceSelectorRequirement. */
function validateScopeSelector(spec: Obj): FieldError[] {
  if (!isObject(spec.scopeSelector)) return [];
  const path = 'spec.scopeSelector.matchExpressions';
  const expressions = objects(spec.scopeSelector.matchExpressions);
  const errs: FieldError[] = [];
  const hard = sortedHardNames(spec);
  const seen = new Set<string>();
  for (const req of expressions) {
    const scope = shown(req.scopeName ?? '');
    const operator = shown(req.operator ?? '');
    const values = Array.isArray(req.values) ? req.values : [];
    if (!STANDARD_SCOPES.includes(scope)) errs.push(fieldError.invalid(`${path}.scopeName`, scope, 'unsupported scope'));
    for (const name of hard) {
      if (isStandardQuotaResourceName(name) && !scopeFitsResource(scope, name)) {
        errs.push(fieldError.invalid(path, scopeSelectorLiteral(expressions), 'unsupported scope applied to resource'));
      }
    }
    if (EXISTS_ONLY_SCOPES.includes(scope) && operator !== 'Exists') {
      errs.push(
        fieldError.invalid(
          `${path}.operator`,
          operator,
          "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    switch (operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errs.push(
            fieldError.required(`${path}.values`, "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"),
          );
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errs.push(
            fieldError.invalid(
              `${path}.values`,
              strings(values),
              "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            ),
          );
        }
        break;
      default:
        errs.push(fieldError.invalid(`${path}.operator`, operator, 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  for (const [a, b] of CONFLICTING_SCOPES) {
    // Kubernetes reports the spec's scopes here, not the selector's.
    if (seen.has(a) && seen.has(b)) errs.push(fieldError.invalid(path, scopesLiteral(strings(spec.scopes)), 'conflicting scopes'));
  }
  return errs;
}

/** ValidateResourceQuotaSpec. */
function validateSpec(spec: Obj): FieldError[] {
  return [...validateQuantities('spec.hard', mapAt(spec, 'hard')), ...validateScopes(spec), ...validateScopeSelector(spec)];
}

function validateStatus(quota: KubeObject): FieldError[] {
  const status = statusOf(quota);
  return [...validateQuantities('status.hard', mapAt(status, 'hard')), ...validateQuantities('status.used', mapAt(status, 'used'))];
}

export function validateResourceQuota(quota: KubeObject): FieldError[] {
  return [...validateSpec(specOf(quota)), ...validateStatus(quota)];
}

/** ValidateResourceQuotaUpdate: the spec again, and scopes compared as sets. */
export function validateResourceQuotaUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateSpec(specOf(next));
  const nextScopes = strings(specOf(next).scopes);
  const oldScopes = strings(specOf(old).scopes);
  if (!isDeepStrictEqual([...new Set(nextScopes)].sort(), [...new Set(oldScopes)].sort())) {
    errs.push(fieldError.invalid('spec.scopes', scopesLiteral(nextScopes), 'field is immutable'));
  }
  return errs;
}

export function validateResourceQuotaStatusUpdate(next: KubeObject): FieldError[] {
  return validateStatus(next);
}
