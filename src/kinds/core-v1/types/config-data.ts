import { type FieldError, fieldError } from '../../../api/errors.js';
import { isObject, type KubeObject } from '../../../api/types.js';

/** The key and size rules ConfigMaps and Secrets share (validation.IsConfigMapKey, MaxSecretSize). */
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const MAX_TOTAL_BYTES = 1024 * 1024;

/** validation.IsConfigMapKey. */
export function configKeyErrors(key: string): string[] {
  // The common case: a short key of valid characters that does not start with a dot.
  if (key.length <= 253 && key.charCodeAt(0) !== 46 && CONFIG_KEY.test(key)) return [];
  const errs: string[] = [];
  if (key.length > 253) errs.push('must be no more than 253 characters');
  if (!CONFIG_KEY.test(key)) {
    errs.push(
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
  }
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** Validates the keys of the given maps and their combined size; `byteLength` measures one value. */
function validateKeyedData(obj: KubeObject, fields: readonly string[], byteLength: (v: string) => number): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const field of fields) {
    const map = obj[field];
    if (!isObject(map)) continue;
    for (const [key, value] of Object.entries(map)) {
      for (const msg of configKeyErrors(key)) errs.push(fieldError.invalid(`${field}[${key}]`, key, msg));
      if (seen.has(key)) errs.push(fieldError.duplicate(`${field}[${key}]`, key));
      seen.add(key);
      total += typeof value === 'string' ? byteLength(value) : 0;
    }
  }
  if (total > MAX_TOTAL_BYTES) {
    errs.push({
      type: 'FieldValueTooLong',
      field: fields[0] ?? 'data',
      detail: `must have at most ${MAX_TOTAL_BYTES} bytes`,
      hasValue: false,
    });
  }
  return errs;
}

const base64Length = (v: string): number => Buffer.from(v, 'base64').length;

export function validateConfigMap(obj: KubeObject): FieldError[] {
  return validateKeyedData(obj, ['data', 'binaryData'], (v) => Buffer.byteLength(v));
}

/** The data keys each well-known Secret type needs (ValidateSecret's switch on type). */
function validateSecretType(obj: KubeObject): FieldError[] {
  const data = isObject(obj.data) ? obj.data : {};
  const has = (key: string): boolean => key in data;
  switch (obj.type) {
    case 'kubernetes.io/service-account-token': {
      // Only the account's name is required; the token controller fills in the rest later.
      const annotations = obj.metadata.annotations ?? {};
      const name = annotations['kubernetes.io/service-account.name'];
      return typeof name === 'string' && name !== ''
        ? []
        : [fieldError.required('metadata.annotations[kubernetes.io/service-account.name]')];
    }
    case 'kubernetes.io/dockercfg':
      return has('.dockercfg') ? [] : [fieldError.required('data[.dockercfg]')];
    case 'kubernetes.io/dockerconfigjson':
      return has('.dockerconfigjson') ? [] : [fieldError.required('data[.dockerconfigjson]')];
    case 'kubernetes.io/basic-auth':
      // Either may be empty, but one of them must be there.
      return has('username') || has('password') ? [] : [fieldError.required('data[username]'), fieldError.required('data[password]')];
    case 'kubernetes.io/ssh-auth':
      return typeof data['ssh-privatekey'] === 'string' && data['ssh-privatekey'] !== ''
        ? []
        : [fieldError.required('data[ssh-privatekey]')];
    case 'kubernetes.io/tls':
      return [
        ...(has('tls.crt') ? [] : [fieldError.required('data[tls.crt]')]),
        ...(has('tls.key') ? [] : [fieldError.required('data[tls.key]')]),
      ];
    default:
      return [];
  }
}

export function validateSecret(obj: KubeObject): FieldError[] {
  return [...validateKeyedData(obj, ['data'], base64Length), ...validateSecretType(obj)];
}

const sameData = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});
const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set';

/** Once `immutable: true` is stored, it stays, and so do the given data fields. */
function immutableErrors(next: KubeObject, old: KubeObject, fields: readonly string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (next.immutable !== true) errs.push(fieldError.forbidden('immutable', IMMUTABLE_WHEN_SET));
  for (const field of fields) if (!sameData(next[field], old[field])) errs.push(fieldError.forbidden(field, IMMUTABLE_WHEN_SET));
  return errs;
}

/** ValidateConfigMapUpdate. */
export function validateConfigMapUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  return [...immutableErrors(next, old, ['data', 'binaryData']), ...validateConfigMap(next)];
}

/** ValidateSecretUpdate: the type never changes. */
export function validateSecretUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (next.type !== old.type) errs.push(fieldError.invalid('type', next.type ?? '', 'field is immutable'));
  return [...errs, ...immutableErrors(next, old, ['data']), ...validateSecret(next)];
}

/** Secrets' write-only stringData is merged into data (base64), overriding keys it shares (pkg/apis/core/v1 conversion). */
export function mergeSecretStringData(obj: KubeObject): void {
  if (!isObject(obj.stringData)) {
    delete obj.stringData;
    return;
  }
  const data: Record<string, unknown> = isObject(obj.data) ? obj.data : {};
  for (const [key, value] of Object.entries(obj.stringData)) {
    if (typeof value === 'string') data[key] = Buffer.from(value, 'utf8').toString('base64');
  }
  obj.data = data;
  delete obj.stringData;
}
