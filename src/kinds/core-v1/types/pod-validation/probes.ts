import { type FieldError, fieldError } from '../../../../api/errors.js';
import { isValidPortName, isValidPortNum } from '../../../../validation/network.js';
import type { Obj } from './common.js';
import { asObject, isInt, text } from '../../../../api/json-fields.js';

/** Probes and lifecycle hooks of a container (validateProbe, validateHandler, validateLifecycle). */

const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const HEADER_NAME_RE = /^[-A-Za-z0-9]+$/;

/** ValidatePortNumOrName for an int-or-string port. */
export function portNumOrName(port: unknown, path: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((msg) => fieldError.invalid(path, port, msg));
  if (typeof port === 'string') return isValidPortName(port).map((msg) => fieldError.invalid(path, port, msg));
  return isValidPortNum(0).map((msg) => fieldError.invalid(path, 0, msg));
}

function httpGet(action: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (text(action.path) === '') errs.push(fieldError.required(`${path}.path`));
  errs.push(...portNumOrName(action.port, `${path}.port`));
  const scheme = text(action.scheme);
  if (!HTTP_SCHEMES.includes(scheme)) errs.push(fieldError.notSupported(`${path}.scheme`, scheme, HTTP_SCHEMES));
  if (Array.isArray(action.httpHeaders)) {
    for (const header of action.httpHeaders) {
      const name = header !== null && typeof header === 'object' && typeof header.name === 'string' ? header.name : '';
      if (!HEADER_NAME_RE.test(name)) {
        errs.push(
          fieldError.invalid(
            `${path}.httpHeaders`,
            name,
            "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')",
          ),
        );
      }
    }
  }
  return errs;
}

function sleep(action: Obj, gracePeriod: number | undefined, path: string): FieldError[] {
  const seconds = typeof action.seconds === 'number' ? action.seconds : 0;
  if (gracePeriod === undefined || (seconds > 0 && seconds <= gracePeriod)) return [];
  return [
    fieldError.invalid(
      path,
      seconds,
      `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`,
    ),
  ];
}

/** validateHandler: exactly one action; probes offer grpc, hooks offer sleep. */
function validateHandler(handler: Obj, kinds: readonly string[], gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of kinds) {
    const action = asObject(handler[kind]);
    if (action === undefined) continue;
    const at = `${path}.${kind}`;
    if (count > 0) {
      errs.push(fieldError.forbidden(at, 'may not specify more than 1 handler type'));
      continue;
    }
    count++;
    if (kind === 'exec') {
      if (!Array.isArray(action.command) || action.command.length === 0) errs.push(fieldError.required(`${at}.command`));
    } else if (kind === 'httpGet') errs.push(...httpGet(action, at));
    else if (kind === 'tcpSocket') errs.push(...portNumOrName(action.port, `${at}.port`));
    else if (kind === 'grpc') errs.push(...portNumOrName(isInt(action.port) ? action.port : 0, `${at}.port`));
    else errs.push(...sleep(action, gracePeriod, at));
  }
  if (count === 0) errs.push(fieldError.required(path, 'must specify a handler type'));
  return errs;
}

const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const HOOK_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];
const NON_NEGATIVE = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'];

/** validateProbe, then the kind-specific rule (liveness and startup need successThreshold 1; readiness has no grace period). */
export function validateProbe(
  probe: unknown,
  kind: 'liveness' | 'readiness' | 'startup',
  gracePeriod: number | undefined,
  path: string,
): FieldError[] {
  if (probe === null || typeof probe !== 'object' || Array.isArray(probe)) return [];
  const p = probe as Obj;
  const errs = validateHandler(p, PROBE_HANDLERS, gracePeriod, path);
  for (const field of NON_NEGATIVE) {
    const v = p[field];
    if (isInt(v) && v < 0) errs.push(fieldError.invalid(`${path}.${field}`, v, 'must be greater than or equal to 0'));
  }
  const grace = p.terminationGracePeriodSeconds;
  if (isInt(grace) && grace <= 0) errs.push(fieldError.invalid(`${path}.terminationGracePeriodSeconds`, grace, 'must be greater than 0'));
  if (kind !== 'readiness' && p.successThreshold !== 1) {
    errs.push(fieldError.invalid(`${path}.successThreshold`, p.successThreshold ?? 0, 'must be 1'));
  }
  if (kind === 'readiness' && grace !== undefined && grace !== null) {
    errs.push(fieldError.invalid(`${path}.terminationGracePeriodSeconds`, grace, 'must not be set for readinessProbes'));
  }
  return errs;
}

/** validateLifecycle: postStart then preStop. */
export function validateLifecycle(lifecycle: Obj, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const hook of ['postStart', 'preStop']) {
    const handler = asObject(lifecycle[hook]);
    if (handler !== undefined) errs.push(...validateHandler(handler, HOOK_HANDLERS, gracePeriod, `${path}.${hook}`));
  }
  return errs;
}

/** All three probes of a container, in Kubernetes' order. */
export function validateProbes(container: Obj, gracePeriod: number | undefined, path: string): FieldError[] {
  return [
    ...validateProbe(container.livenessProbe, 'liveness', gracePeriod, `${path}.livenessProbe`),
    ...validateProbe(container.readinessProbe, 'readiness', gracePeriod, `${path}.readinessProbe`),
    ...validateProbe(container.startupProbe, 'startup', gracePeriod, `${path}.startupProbe`),
  ];
}
