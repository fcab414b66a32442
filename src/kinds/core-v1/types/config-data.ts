import { type FieldError, fieldError } from '../../../api/errors.js';
import { isObject, type KubeObject } from '../../../api/types.js';

/** The key and size rules ConfigMaps and Secrets share (validation.IsConfigMapKey, MaxSecretSize). */
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const MAX_TOTAL_BYTES = 1024 * 1024;

function configKeyErrors(key: string): string[] {
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

export function validateSecret(obj: KubeObject): FieldError[] {
  return validateKeyedData(obj, ['data'], base64Length);
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
