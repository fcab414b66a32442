import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject, objects } from '../../api/types.js';
import { asLabelSelectorObject, validateLabelSelector } from '../../selectors/label-selector-object.js';
import { isDns1035Label, isDns1123Subdomain } from '../../validation/names.js';
import { validateClientConfig } from './webhook-client-config-validation.js';
import { validateMatchConditions } from './webhook-match-conditions.js';
import { validateRuleWithOperations } from './webhook-rules-validation.js';

/**
 * ValidateMutatingWebhookConfiguration and ValidateValidatingWebhookConfiguration (pkg/apis/admissionregistration/
 * validation, R11.7–R11.22) and the v1 defaults (R11.5). Updates ratchet: the unique-name, side-effect and
 * known-review-version rules apply only when the stored object already met them (R11.22).
 */

type Obj = Record<string, unknown>;
export type WebhookFlavour = 'mutating' | 'validating';

export const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const ALL_SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];

interface Ratchet {
  readonly uniqueNames: boolean;
  readonly noSideEffects: boolean;
  readonly recognizedVersions: boolean;
}

const STRICT: Ratchet = { uniqueNames: true, noSideEffects: true, recognizedVersions: true };

export const webhooksOf = (config: KubeObject): Obj[] => objects(config.webhooks);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Every webhook entry gets the v1 defaults (SetDefaults_MutatingWebhook / SetDefaults_ValidatingWebhook). */
export function webhookDefaulter(flavour: WebhookFlavour): (config: KubeObject) => void {
  return (config) => {
    for (const hook of webhooksOf(config)) {
      hook.failurePolicy ??= 'Fail';
      hook.matchPolicy ??= 'Equivalent';
      hook.namespaceSelector ??= {};
      hook.objectSelector ??= {};
      hook.timeoutSeconds ??= 10;
      if (flavour === 'mutating') hook.reinvocationPolicy ??= 'Never';
      for (const rule of objects(hook.rules)) rule.scope ??= '*';
      const cc = isObject(hook.clientConfig) ? hook.clientConfig : undefined;
      if (cc !== undefined && isObject(cc.service)) cc.service.port ??= 443;
    }
  };
}

/** utilvalidation.IsFullyQualifiedName. */
function validateFullyQualifiedName(path: string, raw: string): FieldError[] {
  if (raw === '') return [fieldError.required(path)];
  const name = raw.endsWith('.') ? raw.slice(0, -1) : raw;
  const problems = isDns1123Subdomain(name);
  if (problems.length > 0) return [fieldError.invalid(path, name, problems.join(','))];
  if (name.split('.').length < 3)
    return [fieldError.invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** Admission and conversion review versions: DNS-1035 labels, no repeats, one this server speaks (R11.10, R11.86). */
export function validateReviewVersions(path: string, value: unknown, requireRecognized: boolean): FieldError[] {
  const versions = Array.isArray(value) ? value.map(String) : [];
  if (versions.length === 0) return [fieldError.required(path, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldError.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const problem of isDns1035Label(v)) errs.push(fieldError.invalid(`${path}[${i}]`, v, problem));
  });
  if (requireRecognized && !versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v)))
    errs.push(fieldError.invalid(path, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

function validateSelector(path: string, value: unknown): FieldError[] {
  return value === undefined || value === null ? [] : validateLabelSelector(asLabelSelectorObject(value) ?? {}, path);
}

function validateWebhook(flavour: WebhookFlavour, hook: Obj, path: string, ratchet: Ratchet): FieldError[] {
  const errs = validateFullyQualifiedName(`${path}.name`, text(hook.name));
  objects(hook.rules).forEach((rule, i) => {
    errs.push(...validateRuleWithOperations(`${path}.rules[${i}]`, rule));
  });
  if (typeof hook.failurePolicy === 'string' && !FAILURE_POLICIES.includes(hook.failurePolicy))
    errs.push(fieldError.notSupported(`${path}.failurePolicy`, hook.failurePolicy, FAILURE_POLICIES));
  if (typeof hook.matchPolicy === 'string' && !MATCH_POLICIES.includes(hook.matchPolicy))
    errs.push(fieldError.notSupported(`${path}.matchPolicy`, hook.matchPolicy, MATCH_POLICIES));
  const allowedSideEffects = ratchet.noSideEffects ? NO_SIDE_EFFECTS : ALL_SIDE_EFFECTS;
  if (typeof hook.sideEffects !== 'string')
    errs.push(fieldError.required(`${path}.sideEffects`, `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(hook.sideEffects))
    errs.push(fieldError.notSupported(`${path}.sideEffects`, hook.sideEffects, allowedSideEffects));
  if (typeof hook.timeoutSeconds === 'number' && (hook.timeoutSeconds > 30 || hook.timeoutSeconds < 1))
    errs.push(fieldError.invalid(`${path}.timeoutSeconds`, hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  errs.push(...validateSelector(`${path}.namespaceSelector`, hook.namespaceSelector));
  errs.push(...validateSelector(`${path}.objectSelector`, hook.objectSelector));
  if (flavour === 'mutating' && typeof hook.reinvocationPolicy === 'string' && !REINVOCATION_POLICIES.includes(hook.reinvocationPolicy))
    errs.push(fieldError.notSupported(`${path}.reinvocationPolicy`, hook.reinvocationPolicy, REINVOCATION_POLICIES));
  errs.push(...validateClientConfig(`${path}.clientConfig`, hook.clientConfig));
  errs.push(...validateMatchConditions(`${path}.matchConditions`, hook.matchConditions));
  return errs;
}

function validateConfiguration(flavour: WebhookFlavour, config: KubeObject, ratchet: Ratchet): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  webhooksOf(config).forEach((hook, i) => {
    const path = `webhooks[${i}]`;
    errs.push(...validateWebhook(flavour, hook, path, ratchet));
    errs.push(...validateReviewVersions(`${path}.admissionReviewVersions`, hook.admissionReviewVersions, ratchet.recognizedVersions));
    const name = text(hook.name);
    if (ratchet.uniqueNames && name !== '') {
      if (names.has(name)) errs.push(fieldError.duplicate(`${path}.name`, name));
      names.add(name);
    }
  });
  return errs;
}

/** What the stored object already satisfied, so an update is held to no stricter rule than it met (R11.22). */
function ratchetFrom(old: KubeObject): Ratchet {
  const hooks = webhooksOf(old);
  const names = hooks.map((h) => text(h.name));
  return {
    uniqueNames: new Set(names).size === names.length,
    noSideEffects: hooks.every((h) => NO_SIDE_EFFECTS.includes(text(h.sideEffects))),
    recognizedVersions: hooks.every(
      (h) =>
        Array.isArray(h.admissionReviewVersions) && h.admissionReviewVersions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(String(v))),
    ),
  };
}

export function webhookConfigurationValidators(flavour: WebhookFlavour): {
  validate: (config: KubeObject) => FieldError[];
  validateUpdate: (next: KubeObject, old: KubeObject) => FieldError[];
} {
  return {
    validate: (config) => validateConfiguration(flavour, config, STRICT),
    validateUpdate: (next, old) => validateConfiguration(flavour, next, ratchetFrom(old)),
  };
}
