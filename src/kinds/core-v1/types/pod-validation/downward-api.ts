import { type FieldError, fieldError } from '../../../../api/errors.js';
import { isQualifiedName } from '../../../../validation/names.js';
import type { Obj } from './common.js';
import { canonicalQuantity, quantityNanos } from '../../../../validation/quantity-text.js';
import { text } from '../../../../api/json-fields.js';

/** Field and resource references of env vars and downwardAPI volumes (validateObjectFieldSelector and friends). */

/** Every label pods.ConvertDownwardAPIFieldLabel accepts for v1, subscripts aside. */
const CONVERTIBLE_LABELS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
]);

export const ENV_FIELD_PATHS: readonly string[] = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];
export const VOLUME_FIELD_PATHS: readonly string[] = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
];

const RESOURCE_FIELD_PATHS: readonly string[] = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];
const HUGEPAGES_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];

/** fieldpath.SplitMaybeSubscriptedPath: "metadata.labels['app']" → ["metadata.labels", "app"]. */
function splitSubscript(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const open = fieldPath.indexOf("['");
  if (open <= 0) return undefined;
  return [fieldPath.slice(0, open), fieldPath.slice(open + 2, -2)];
}

/** Error text of pods.ConvertDownwardAPIFieldLabel, or undefined when the label converts. */
function conversionError(apiVersion: string, fieldPath: string): string | undefined {
  if (apiVersion !== 'v1') return `unsupported pod version: ${apiVersion}`;
  const sub = splitSubscript(fieldPath);
  if (sub !== undefined) {
    return sub[0] === 'metadata.annotations' || sub[0] === 'metadata.labels'
      ? undefined
      : `field label does not support subscript: ${fieldPath}`;
  }
  return CONVERTIBLE_LABELS.has(fieldPath) || fieldPath === 'spec.host' ? undefined : `field label not supported: ${fieldPath}`;
}

/** validateObjectFieldSelector. */
export function validateObjectFieldSelector(selector: Obj, allowed: readonly string[], path: string): FieldError[] {
  const apiVersion = text(selector.apiVersion);
  const fieldPath = text(selector.fieldPath);
  if (apiVersion === '') return [fieldError.required(`${path}.apiVersion`)];
  if (fieldPath === '') return [fieldError.required(`${path}.fieldPath`)];
  const conversion = conversionError(apiVersion, fieldPath);
  if (conversion !== undefined) return [fieldError.invalid(`${path}.fieldPath`, fieldPath, `error converting fieldPath: ${conversion}`)];
  const internal = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  const sub = splitSubscript(internal);
  if (sub !== undefined) {
    const key = sub[0] === 'metadata.annotations' ? sub[1].toLowerCase() : sub[1];
    return isQualifiedName(key).map((msg) => fieldError.invalid(path, key, msg));
  }
  return allowed.includes(internal) ? [] : [fieldError.notSupported(`${path}.fieldPath`, internal, allowed)];
}

const CPU_DIVISORS = new Set(['1m', '1']);
const BYTE_DIVISORS = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);
const BYTE_DIVISOR_LIST = '1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei';

/** validateContainerResourceDivisor. */
function divisorErrors(resource: string, divisor: unknown, path: string): FieldError[] {
  if (divisor === undefined || quantityNanos(divisor) === 0n) return [];
  const d = canonicalQuantity(divisor);
  const at = `${path}.divisor`;
  const errs: FieldError[] = [];
  if ((resource === 'limits.cpu' || resource === 'requests.cpu') && !CPU_DIVISORS.has(d)) {
    errs.push(fieldError.invalid(at, resource, "only divisor's values 1m and 1 are supported with the cpu resource"));
  } else if ((resource === 'limits.memory' || resource === 'requests.memory') && !BYTE_DIVISORS.has(d)) {
    errs.push(fieldError.invalid(at, resource, `only divisor's values ${BYTE_DIVISOR_LIST} are supported with the memory resource`));
  } else if ((resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') && !BYTE_DIVISORS.has(d)) {
    errs.push(
      fieldError.invalid(
        at,
        resource,
        `only divisor's values ${BYTE_DIVISOR_LIST} are supported with the local ephemeral storage resource`,
      ),
    );
  }
  if (HUGEPAGES_PREFIXES.some((p) => resource.startsWith(p)) && !BYTE_DIVISORS.has(d)) {
    errs.push(fieldError.invalid(at, resource, `only divisor's values ${BYTE_DIVISOR_LIST} are supported with the hugepages resource`));
  }
  return errs;
}

/** validateContainerResourceFieldSelector; volumes must also name the container. */
export function validateResourceFieldSelector(selector: Obj, path: string, volume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = text(selector.resource);
  if (volume && text(selector.containerName) === '') errs.push(fieldError.required(`${path}.containerName`));
  else if (resource === '') errs.push(fieldError.required(`${path}.resource`));
  else if (!RESOURCE_FIELD_PATHS.includes(resource) && !HUGEPAGES_PREFIXES.some((p) => resource.startsWith(p))) {
    errs.push(fieldError.notSupported(`${path}.resource`, resource, RESOURCE_FIELD_PATHS));
  }
  errs.push(...divisorErrors(resource, selector.divisor, path));
  return errs;
}
