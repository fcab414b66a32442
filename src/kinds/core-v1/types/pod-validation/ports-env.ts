import { type FieldError, fieldError } from '../../../../api/errors.js';
import { isDns1123Subdomain } from '../../../../validation/names.js';
import { isValidPortName, isValidPortNum } from '../../../../validation/network.js';
import { indexed, type Obj } from './common.js';
import { ENV_FIELD_PATHS, validateObjectFieldSelector, validateResourceFieldSelector } from './downward-api.js';
import { asObject, text } from '../../../../api/json-fields.js';

/** Container ports, env and envFrom (validateContainerPorts, ValidateEnv, ValidateEnvFrom). */

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const CONFIG_KEY_RE = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_ERROR =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

export function validateContainerPorts(ports: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [port, i] of indexed(ports)) {
    const at = `${path}[${i}]`;
    const name = text(port.name);
    if (name !== '') {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) errs.push(...msgs.map((msg) => fieldError.invalid(`${at}.name`, name, msg)));
      else if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
      else names.add(name);
    }
    const containerPort = typeof port.containerPort === 'number' ? port.containerPort : 0;
    if (containerPort === 0) errs.push(fieldError.required(`${at}.containerPort`));
    else errs.push(...isValidPortNum(containerPort).map((msg) => fieldError.invalid(`${at}.containerPort`, containerPort, msg)));
    const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
    if (hostPort !== 0) errs.push(...isValidPortNum(hostPort).map((msg) => fieldError.invalid(`${at}.hostPort`, hostPort, msg)));
    const protocol = text(port.protocol);
    if (protocol === '') errs.push(fieldError.required(`${at}.protocol`));
    else if (!PROTOCOLS.includes(protocol)) errs.push(fieldError.notSupported(`${at}.protocol`, protocol, PROTOCOLS));
  }
  return errs;
}

/** AccumulateUniqueHostPorts over the given containers ("<protocol>/<hostIP>/<port>" must be unique). */
export function hostPortConflicts(containers: readonly [Obj, number][], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [container, ci] of containers) {
    for (const [port, pi] of indexed(container.ports)) {
      const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
      if (hostPort === 0) continue;
      const key = `${text(port.protocol)}/${text(port.hostIP)}/${hostPort}`;
      if (seen.has(key)) errs.push(fieldError.duplicate(`${path}[${ci}].ports[${pi}].hostPort`, key));
      else seen.add(key);
    }
  }
  return errs;
}

/** IsRelaxedEnvVarName (RelaxedEnvironmentVariableValidation is on by default in 1.32): printable ASCII but '='. */
function envVarName(name: string, path: string): FieldError[] {
  for (const ch of name) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || code > 0x7e || ch === '=') {
      return [
        fieldError.invalid(path, name, "a valid environment variable name must consist only of printable ASCII characters other than '='"),
      ];
    }
  }
  return [];
}

function keySelector(selector: Obj, path: string): FieldError[] {
  const name = text(selector.name);
  const errs = isDns1123Subdomain(name).map((msg) => fieldError.invalid(`${path}.name`, name, msg));
  const key = text(selector.key);
  if (key === '') errs.push(fieldError.required(`${path}.key`));
  else {
    if (key.length > 253) errs.push(fieldError.invalid(`${path}.key`, key, 'must be no more than 253 characters'));
    if (!CONFIG_KEY_RE.test(key)) errs.push(fieldError.invalid(`${path}.key`, key, CONFIG_KEY_ERROR));
    if (key === '.') errs.push(fieldError.invalid(`${path}.key`, key, "must not be '.'"));
    else if (key === '..') errs.push(fieldError.invalid(`${path}.key`, key, "must not be '..'"));
    else if (key.startsWith('..')) errs.push(fieldError.invalid(`${path}.key`, key, "must not start with '..'"));
  }
  return errs;
}

/** validateEnvVarValueFrom: exactly one source, and no value beside it. */
function valueFrom(env: Obj, path: string): FieldError[] {
  const from = asObject(env.valueFrom);
  if (from === undefined) return [];
  const errs: FieldError[] = [];
  let count = 0;
  const fieldRef = asObject(from.fieldRef);
  if (fieldRef !== undefined) {
    count++;
    errs.push(...validateObjectFieldSelector(fieldRef, ENV_FIELD_PATHS, `${path}.fieldRef`));
  }
  const resourceRef = asObject(from.resourceFieldRef);
  if (resourceRef !== undefined) {
    count++;
    errs.push(...validateResourceFieldSelector(resourceRef, `${path}.resourceFieldRef`, false));
  }
  for (const kind of ['configMapKeyRef', 'secretKeyRef']) {
    const ref = asObject(from[kind]);
    if (ref === undefined) continue;
    count++;
    errs.push(...keySelector(ref, `${path}.${kind}`));
  }
  if (count === 0)
    errs.push(fieldError.invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (text(env.value) !== '') errs.push(fieldError.invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (count > 1) errs.push(fieldError.invalid(path, '', 'may not have more than one field specified at a time'));
  return errs;
}

export function validateEnv(env: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [variable, i] of indexed(env)) {
    const at = `${path}[${i}]`;
    const name = text(variable.name);
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    else errs.push(...envVarName(name, `${at}.name`));
    errs.push(...valueFrom(variable, `${at}.valueFrom`));
  }
  return errs;
}

function envSourceName(ref: Obj, path: string): FieldError[] {
  const name = text(ref.name);
  if (name === '') return [fieldError.required(`${path}.name`)];
  // Names are checked as prefixes, which may end in '-'.
  const asPrefix = name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
  return isDns1123Subdomain(asPrefix).map((msg) => fieldError.invalid(`${path}.name`, name, msg));
}

export function validateEnvFrom(envFrom: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [source, i] of indexed(envFrom)) {
    const at = `${path}[${i}]`;
    const prefix = text(source.prefix);
    if (prefix !== '') errs.push(...envVarName(prefix, `${at}.prefix`));
    let count = 0;
    for (const kind of ['configMapRef', 'secretRef']) {
      const ref = asObject(source[kind]);
      if (ref === undefined) continue;
      count++;
      errs.push(...envSourceName(ref, `${at}.${kind}`));
    }
    if (count === 0) errs.push(fieldError.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errs.push(fieldError.invalid(path, '', 'may not have more than one field specified at a time'));
  }
  return errs;
}
