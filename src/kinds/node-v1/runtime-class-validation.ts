import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject, objects } from '../../api/types.js';
import { goQuote } from '../../util/go-quote.js';
import { isDns1123Label, isQualifiedName, isValidLabelValue } from '../../validation/names.js';
import { quantityValue } from '../../validation/quantity-value.js';
import { isExtendedResource, isHugePagesResource, validateContainerResourceName } from '../core-v1/resource-names.js';
import { text } from '../../api/json-fields.js';

/**
 * RuntimeClass validation of pkg/apis/node/validation: the handler, the pod overhead (checked as container limits,
 * ValidateContainerResourceRequirements) and the scheduling constraints (node selector labels, tolerations,
 * unique by key, operator, value and effect).
 */

type Obj = Record<string, unknown>;

export const handlerOf = (rc: KubeObject): string => text(rc.handler);

/** The overhead is validated as a container's limits, so its errors say "overhead.limits[…]". */
function validateOverhead(rc: KubeObject): FieldError[] {
  const podFixed = isObject(rc.overhead) && isObject(rc.overhead.podFixed) ? rc.overhead.podFixed : undefined;
  if (podFixed === undefined) return [];
  const errs: FieldError[] = [];
  let computeSet = false;
  let hugePagesSet = false;
  for (const [name, quantity] of Object.entries(podFixed)) {
    const path = `overhead.limits[${name}]`;
    errs.push(...validateContainerResourceName(name, path));
    const value = quantityValue(quantity);
    const shown = String(quantity);
    if (value < 0) errs.push(fieldError.invalid(path, shown, 'must be greater than or equal to 0'));
    // Extended resources are counted in whole units (IsIntegerResourceName).
    if (isExtendedResource(name) && !Number.isInteger(Math.round(value * 1000) / 1000))
      errs.push(fieldError.invalid(path, shown, 'must be an integer'));
    if (name === 'cpu' || name === 'memory') computeSet = true;
    if (isHugePagesResource(name)) hugePagesSet = true;
  }
  if (hugePagesSet && !computeSet) errs.push(fieldError.forbidden('overhead', 'HugePages require cpu or memory'));
  return errs;
}

const TOLERATION_OPERATORS = ['Equal', 'Exists'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** A core.Toleration as Go's %#v prints it. */
function tolerationLiteral(t: Obj): GoLiteral {
  const seconds = typeof t.tolerationSeconds === 'number' ? '(*int64)(0xc000a1e140)' : '(*int64)(nil)';
  return new GoLiteral(
    `core.Toleration{Key:${goQuote(text(t.key))}, Operator:${goQuote(text(t.operator))}, Value:${goQuote(text(t.value))}, Effect:${goQuote(text(t.effect))}, TolerationSeconds:${seconds}}`,
  );
}

/** corevalidation.ValidateTolerations. */
function validateToleration(t: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const key = text(t.key);
  const operator = text(t.operator);
  const effect = text(t.effect);
  if (key !== '') errs.push(...isQualifiedName(key).map((msg) => fieldError.invalid(`${path}.key`, key, msg)));
  if (key === '' && operator !== 'Exists') {
    errs.push(
      fieldError.invalid(
        `${path}.operator`,
        operator,
        'operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ),
    );
  }
  if (typeof t.tolerationSeconds === 'number' && effect !== 'NoExecute') {
    errs.push(fieldError.invalid(`${path}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
  }
  switch (operator) {
    case '':
    case 'Equal': {
      const problems = isValidLabelValue(text(t.value));
      // Kubernetes reports the value under "operator", its messages joined.
      if (problems.length > 0) errs.push(fieldError.invalid(`${path}.operator`, text(t.value), problems.join(';')));
      break;
    }
    case 'Exists':
      if (text(t.value) !== '')
        errs.push(fieldError.invalid(`${path}.operator`, tolerationLiteral(t), "value must be empty when `operator` is 'Exists'"));
      break;
    default:
      errs.push(fieldError.notSupported(`${path}.operator`, operator, TOLERATION_OPERATORS));
  }
  if (effect !== '' && !TAINT_EFFECTS.includes(effect)) errs.push(fieldError.notSupported(`${path}.effect`, effect, TAINT_EFFECTS));
  return errs;
}

function validateScheduling(rc: KubeObject): FieldError[] {
  if (!isObject(rc.scheduling)) return [];
  const errs: FieldError[] = [];
  const selector = isObject(rc.scheduling.nodeSelector) ? rc.scheduling.nodeSelector : {};
  // ValidateLabels: the errors name the map, not the key.
  for (const [key, value] of Object.entries(selector)) {
    errs.push(...isQualifiedName(key).map((msg) => fieldError.invalid('scheduling.nodeSelector', key, msg)));
    errs.push(...isValidLabelValue(text(value)).map((msg) => fieldError.invalid('scheduling.nodeSelector', text(value), msg)));
  }
  const tolerations = objects(rc.scheduling.tolerations);
  tolerations.forEach((t, i) => {
    errs.push(...validateToleration(t, `scheduling.tolerations[${i}]`));
  });
  const seen = new Set<string>();
  tolerations.forEach((t, i) => {
    const listKey = JSON.stringify([text(t.key), text(t.operator), text(t.value), text(t.effect)]);
    if (seen.has(listKey)) errs.push(fieldError.duplicate(`scheduling.tolerations[${i}]`, tolerationLiteral(t)));
    seen.add(listKey);
  });
  return errs;
}

/** ValidateRuntimeClass: the handler names a CRI configuration, so it must be a DNS label (an absent one is ""). */
export function validateRuntimeClass(rc: KubeObject): FieldError[] {
  const handler = handlerOf(rc);
  const errs = isDns1123Label(handler).map((msg) => fieldError.invalid('handler', handler, msg));
  return [...errs, ...validateOverhead(rc), ...validateScheduling(rc)];
}

/** ValidateRuntimeClassUpdate: only the handler is checked, and only for change. */
export function validateRuntimeClassUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  return handlerOf(next) === handlerOf(old) ? [] : [fieldError.invalid('handler', handlerOf(next), 'field is immutable')];
}
