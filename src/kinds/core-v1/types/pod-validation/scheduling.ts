import { type FieldError, fieldError } from '../../../../api/errors.js';
import { isObject } from '../../../../api/types.js';
import { isDns1123Label, isDns1123Subdomain, isValidLabelValue } from '../../../../validation/names.js';
import { type LabelSelectorObject, validateLabelSelector } from '../../../../selectors/label-selector-object.js';
import { indexed, type Obj, qualifiedName } from './common.js';
import { asObject, isInt, text } from '../../../../api/json-fields.js';

/** Where a pod may run: affinity, tolerations, topology spread, scheduling and readiness gates. */

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const TOLERATION_OPERATORS = ['Equal', 'Exists'];
const SCHEDULE_ACTIONS = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'];

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const selectorAt = (holder: Obj, key: string): LabelSelectorObject | undefined =>
  isObject(holder[key]) ? (holder[key] as LabelSelectorObject) : undefined;

/** ValidateNodeSelectorRequirement; `checkValues` for pods (a PersistentVolume's node affinity checks only keys). */
export function nodeSelectorRequirement(req: Obj, checkValues: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = strings(req.values);
  switch (req.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldError.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0)
        errs.push(fieldError.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1)
        errs.push(fieldError.required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(fieldError.invalid(`${path}.operator`, req.operator ?? '', 'not a valid selector operator'));
  }
  errs.push(...qualifiedName(text(req.key), `${path}.key`));
  if (checkValues)
    values.forEach((v, i) => {
      errs.push(...isValidLabelValue(v).map((msg) => fieldError.invalid(`${path}.values[${i}]`, v, msg)));
    });
  return errs;
}

/** ValidateNodeFieldSelectorRequirement: only metadata.name, with one node name. */
function nodeFieldRequirement(req: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = strings(req.values);
  if (req.operator === 'In' || req.operator === 'NotIn') {
    if (values.length !== 1)
      errs.push(fieldError.required(`${path}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else errs.push(fieldError.invalid(`${path}.operator`, req.operator ?? '', 'not a valid selector operator'));
  if (req.key !== 'metadata.name') errs.push(fieldError.invalid(`${path}.key`, text(req.key), 'not a valid field selector key'));
  else
    values.forEach((v, i) => {
      errs.push(...isDns1123Subdomain(v).map((msg) => fieldError.invalid(`${path}.values[${i}]`, v, msg)));
    });
  return errs;
}

function nodeSelectorTerm(term: Obj, checkValues: boolean, path: string): FieldError[] {
  return [
    ...indexed(term.matchExpressions).flatMap(([req, j]) => nodeSelectorRequirement(req, checkValues, `${path}.matchExpressions[${j}]`)),
    ...indexed(term.matchFields).flatMap(([req, j]) => nodeFieldRequirement(req, `${path}.matchFields[${j}]`)),
  ];
}

function nodeAffinity(affinity: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const required = asObject(affinity.requiredDuringSchedulingIgnoredDuringExecution);
  if (required !== undefined) {
    const termsPath = `${path}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
    const terms = indexed(required.nodeSelectorTerms);
    if (terms.length === 0) errs.push(fieldError.required(termsPath, 'must have at least one node selector term'));
    for (const [term, i] of terms) errs.push(...nodeSelectorTerm(term, true, `${termsPath}[${i}]`));
  }
  for (const [term, i] of indexed(affinity.preferredDuringSchedulingIgnoredDuringExecution)) {
    const at = `${path}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    if (!isInt(term.weight) || term.weight <= 0 || term.weight > 100)
      errs.push(fieldError.invalid(`${at}.weight`, term.weight ?? 0, 'must be in the range 1-100'));
    errs.push(...nodeSelectorTerm(asObject(term.preference) ?? {}, false, `${at}.preference`));
  }
  return errs;
}

/** validateMatchLabelKeysAndMismatchLabelKeys. */
function labelKeys(term: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const selector = selectorAt(term, 'labelSelector');
  const match = strings(term.matchLabelKeys);
  const mismatch = strings(term.mismatchLabelKeys);
  for (const [field, keys] of [
    ['matchLabelKeys', match],
    ['mismatchLabelKeys', mismatch],
  ] as const) {
    if (keys.length === 0) continue;
    if (selector === undefined) errs.push(fieldError.forbidden(`${path}.${field}`, 'must not be specified when labelSelector is not set'));
    else
      keys.forEach((k, i) => {
        errs.push(...qualifiedName(k, `${path}.${field}[${i}]`));
      });
  }
  const mismatchSet = new Set(mismatch);
  match.forEach((k, i) => {
    if (mismatchSet.has(k))
      errs.push(fieldError.invalid(`${path}.matchLabelKeys[${i}]`, k, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  return errs;
}

function podAffinityTerm(term: Obj, path: string): FieldError[] {
  const errs = [
    ...validateLabelSelector(selectorAt(term, 'labelSelector'), `${path}.labelSelector`),
    ...validateLabelSelector(selectorAt(term, 'namespaceSelector'), `${path}.namespaceSelector`),
  ];
  for (const ns of strings(term.namespaces))
    errs.push(...isDns1123Label(ns).map((msg) => fieldError.invalid(`${path}.namespace`, ns, msg)));
  errs.push(...labelKeys(term, path));
  const topologyKey = text(term.topologyKey);
  if (topologyKey === '') errs.push(fieldError.required(`${path}.topologyKey`, 'can not be empty'));
  return [...errs, ...qualifiedName(topologyKey, `${path}.topologyKey`)];
}

function podAffinity(affinity: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [term, i] of indexed(affinity.requiredDuringSchedulingIgnoredDuringExecution)) {
    errs.push(...podAffinityTerm(term, `${path}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`));
  }
  for (const [weighted, i] of indexed(affinity.preferredDuringSchedulingIgnoredDuringExecution)) {
    const at = `${path}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    if (!isInt(weighted.weight) || weighted.weight <= 0 || weighted.weight > 100)
      errs.push(fieldError.invalid(`${at}.weight`, weighted.weight ?? 0, 'must be in the range 1-100'));
    errs.push(...podAffinityTerm(asObject(weighted.podAffinityTerm) ?? {}, `${at}.podAffinityTerm`));
  }
  return errs;
}

/** validateAffinity. */
export function validateAffinity(affinity: Obj | undefined, path: string): FieldError[] {
  if (affinity === undefined) return [];
  const errs: FieldError[] = [];
  const node = asObject(affinity.nodeAffinity);
  if (node !== undefined) errs.push(...nodeAffinity(node, `${path}.nodeAffinity`));
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const pod = asObject(affinity[kind]);
    if (pod !== undefined) errs.push(...podAffinity(pod, `${path}.${kind}`));
  }
  return errs;
}

/** ValidateTolerations. */
export function validateTolerations(tolerations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [t, i] of indexed(tolerations)) {
    const at = `${path}[${i}]`;
    const key = text(t.key);
    const operator = text(t.operator);
    const value = text(t.value);
    const effect = text(t.effect);
    if (key !== '') errs.push(...qualifiedName(key, `${at}.key`));
    if (key === '' && operator !== 'Exists') {
      errs.push(
        fieldError.invalid(
          `${at}.operator`,
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      errs.push(fieldError.invalid(`${at}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal' || operator === '') {
      const msgs = isValidLabelValue(value);
      if (msgs.length > 0) errs.push(fieldError.invalid(`${at}.operator`, value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value !== '') errs.push(fieldError.invalid(`${at}.operator`, value, "value must be empty when `operator` is 'Exists'"));
    } else errs.push(fieldError.notSupported(`${at}.operator`, operator, TOLERATION_OPERATORS));
    if (effect !== '' && !TAINT_EFFECTS.includes(effect)) errs.push(fieldError.notSupported(`${at}.effect`, effect, TAINT_EFFECTS));
  }
  return errs;
}

/** validateTopologySpreadConstraints. */
export function validateTopologySpreadConstraints(constraints: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const list = indexed(constraints);
  list.forEach(([c, i], position) => {
    const at = `${path}[${i}]`;
    const maxSkew = isInt(c.maxSkew) ? c.maxSkew : 0;
    if (maxSkew <= 0) errs.push(fieldError.invalid(`${at}.maxSkew`, maxSkew, 'must be greater than zero'));
    const key = text(c.topologyKey);
    const action = text(c.whenUnsatisfiable);
    if (key === '') errs.push(fieldError.required(`${at}.topologyKey`, 'can not be empty'));
    if (!SCHEDULE_ACTIONS.includes(action)) errs.push(fieldError.notSupported(`${at}.whenUnsatisfiable`, action, SCHEDULE_ACTIONS));
    if (list.slice(position + 1).some(([other]) => text(other.topologyKey) === key && text(other.whenUnsatisfiable) === action)) {
      errs.push(fieldError.duplicate(`${at}.{topologyKey, whenUnsatisfiable}`, `{${key}, ${action}}`));
    }
    if (c.minDomains !== undefined && c.minDomains !== null) {
      if (!isInt(c.minDomains) || c.minDomains <= 0)
        errs.push(fieldError.invalid(`${at}.minDomains`, c.minDomains, 'must be greater than zero'));
      if (action !== 'DoNotSchedule')
        errs.push(
          fieldError.invalid(`${at}.minDomains`, c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`),
        );
    }
    for (const policy of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      const v = c[policy];
      if (v !== undefined && v !== null && (typeof v !== 'string' || !NODE_INCLUSION_POLICIES.includes(v))) {
        errs.push(fieldError.notSupported(`${at}.${policy}`, v, NODE_INCLUSION_POLICIES));
      }
    }
    const selector = selectorAt(c, 'labelSelector');
    const matchKeys = strings(c.matchLabelKeys);
    if (matchKeys.length > 0) {
      if (selector === undefined)
        errs.push(fieldError.forbidden(`${at}.matchLabelKeys`, 'must not be specified when labelSelector is not set'));
      const selectorKeys = new Set([...Object.keys(selector?.matchLabels ?? {}), ...(selector?.matchExpressions ?? []).map((e) => e.key)]);
      matchKeys.forEach((k, j) => {
        errs.push(...qualifiedName(k, `${at}.matchLabelKeys[${j}]`));
        if (selectorKeys.has(k))
          errs.push(fieldError.invalid(`${at}.matchLabelKeys[${j}]`, k, 'exists in both matchLabelKeys and labelSelector'));
      });
    }
    errs.push(...validateLabelSelector(selector, `${at}.labelSelector`));
  });
  return errs;
}

/** validateSchedulingGates: qualified names, no repeats. */
export function validateSchedulingGates(gates: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [gate, i] of indexed(gates)) {
    const name = text(gate.name);
    errs.push(...qualifiedName(name, `${path}[${i}]`));
    if (seen.has(name)) errs.push(fieldError.duplicate(`${path}[${i}]`, name));
    seen.add(name);
  }
  return errs;
}

export function validateReadinessGates(gates: unknown, path: string): FieldError[] {
  return indexed(gates).flatMap(([gate, i]) => qualifiedName(text(gate.conditionType), `${path}[${i}].conditionType`));
}
