import type { FieldError } from '../../api/errors.js';
import { goQuote } from '../../util/go-quote.js';
import { schemaFieldError } from './field-errors.js';
import { child } from './field-path.js';
import { effectiveFormat, isKnownStringFormat, matchesFormat } from './formats.js';
import { goFloat } from './go-format.js';
import { compileSchemaPattern } from './pattern.js';
import { additionalPropertiesSchema, isJsonObject, itemsSchema, type JSONSchemaProps } from '../../api/json-schema-props.js';

/**
 * OpenAPI v3 value validation as kube-openapi's SchemaValidator performs it for custom resources, converted to
 * field errors the way apiextensions does (kubeOpenAPIResultToFieldErrors): the same checks in the same order, the
 * same early exits, and the same messages ("spec.replicas in body must be of type integer: \"string\"").
 */

type Code = 'invalidType' | 'required' | 'tooLong' | 'enum' | 'maxItems' | 'tooManyProperties' | 'other';

/** A kube-openapi `errors.Validation` (named, with a code) or a composite error (anyOf/oneOf/allOf/not). */
type OpenApiError =
  | {
      readonly composite: false;
      readonly code: Code;
      readonly name: string;
      readonly message: string;
      readonly value?: unknown;
      readonly valid?: number;
      readonly values?: readonly unknown[];
    }
  | { readonly composite: true; readonly message: string };

class Result {
  readonly errors: OpenApiError[] = [];
  matchCount = 0;

  add(e: OpenApiError): void {
    // go-openapi drops an error whose text is already reported.
    if (!this.errors.some((x) => x.message === e.message)) this.errors.push(e);
  }

  merge(other: Result): void {
    for (const e of other.errors) this.add(e);
    this.matchCount += other.matchCount;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }
}

const IN = 'body';

function failure(
  code: Code,
  name: string,
  message: string,
  extra: { value?: unknown; valid?: number; values?: readonly unknown[] } = {},
): Result {
  const r = new Result();
  r.add({ composite: false, code, name, message, ...extra });
  return r;
}

function invalidType(name: string, typeName: string, value: unknown): Result {
  const detail = typeof value === 'string' ? `: ${goQuote(value)}` : '';
  return failure('invalidType', name, `${name} in ${IN} must be of type ${typeName}${detail}`, { value });
}

/** JSON type and the Go format kube-openapi infers for a decoded value (integers decode to int64). */
function inferType(data: unknown): { type: string; format: string } {
  if (typeof data === 'boolean') return { type: 'boolean', format: '' };
  if (typeof data === 'string') return { type: 'string', format: '' };
  if (typeof data === 'number')
    return Number.isInteger(data) ? { type: 'integer', format: 'int64' } : { type: 'number', format: 'float64' };
  if (Array.isArray(data)) return { type: 'array', format: '' };
  return { type: 'object', format: '' };
}

function schemaTypes(s: JSONSchemaProps): string[] {
  if (s['x-kubernetes-int-or-string'] === true) return ['integer', 'string'];
  return s.type !== undefined && s.type !== '' ? [s.type] : [];
}

function validateType(s: JSONSchemaProps, types: string[], format: string, name: string, data: unknown): Result {
  const result = new Result();
  result.matchCount++;
  if (data === null) {
    if (types.length > 0 && !types.includes('null') && s.nullable !== true) return invalidType(name, types.join(','), 'null');
    return result;
  }
  const inferred = inferType(data);
  const isString = typeof data === 'string';
  const isSlice = Array.isArray(data);
  const isIntFloat = inferred.type === 'integer' && types.includes('number');
  if (!isString && !isSlice && format !== '' && !(types.includes(inferred.type) || inferred.format === format || isIntFloat)) {
    return invalidType(name, format, inferred.format);
  }
  if (!(types.includes('number') || types.includes('integer')) && format !== '' && (isString || isSlice)) return result;
  if (!(types.includes(inferred.type) || isIntFloat)) return invalidType(name, types.join(','), inferred.type);
  return result;
}

function validateString(s: JSONSchemaProps, name: string, data: string): Result {
  const length = [...data].length;
  if (s.maxLength !== undefined && length > s.maxLength) {
    return failure('tooLong', name, `${name} in ${IN} should be at most ${s.maxLength} chars long`, { value: data, valid: s.maxLength });
  }
  if (s.minLength !== undefined && length < s.minLength) {
    return failure('other', name, `${name} in ${IN} should be at least ${s.minLength} chars long`, { value: data });
  }
  if (s.pattern !== undefined && s.pattern !== '') {
    const re = compileSchemaPattern(s.pattern);
    if (re instanceof Error) {
      return failure('other', name, `${name} in ${IN} should match '${s.pattern}, but pattern is invalid: ${re.message}'`, { value: data });
    }
    if (!re.test(data)) return failure('other', name, `${name} in ${IN} should match '${s.pattern}'`, { value: data });
  }
  return new Result();
}

function validateFormat(s: JSONSchemaProps, format: string, name: string, data: string): Result {
  if (matchesFormat(format, data)) return new Result();
  return invalidType(name, s.format ?? format, data);
}

/** Float64 JSON integers within float precision (swag.IsFloat64AJSONInteger). */
function isJsonInteger(f: number): boolean {
  if (!Number.isFinite(f)) return false;
  if (Number.isInteger(f)) return true;
  const diff = Math.abs(f - Math.round(f));
  return diff / Math.abs(f) < 1e-9;
}

function validateNumber(s: JSONSchemaProps, name: string, data: number): Result {
  const result = new Result();
  const asInt = Number.isInteger(data);
  // Integers are compared against the bound truncated to int64, as kube-openapi does for native ints.
  const bound = (b: number): string => (asInt ? String(Math.trunc(b)) : goFloat(b));
  const cmpBound = (b: number): number => (asInt ? Math.trunc(b) : b);
  if (s.multipleOf !== undefined) {
    const factor = asInt ? Math.trunc(s.multipleOf) : s.multipleOf;
    if (factor < 0) {
      result.add({
        composite: false,
        code: 'other',
        name,
        message: `factor MultipleOf declared for ${name} must be positive: ${bound(factor)}`,
        value: factor,
      });
    } else if (factor !== 0) {
      const ok = asInt ? data % factor === 0 : isJsonInteger(factor < 1 ? (1 / factor) * data : data / factor);
      if (!ok)
        result.add({
          composite: false,
          code: 'other',
          name,
          message: `${name} in ${IN} should be a multiple of ${bound(factor)}`,
          value: data,
        });
    }
  }
  if (s.minimum !== undefined) {
    const min = cmpBound(s.minimum);
    const exclusive = s.exclusiveMinimum === true;
    if ((!exclusive && data < min) || (exclusive && data <= min)) {
      const rel = exclusive ? 'greater than' : 'greater than or equal to';
      result.add({ composite: false, code: 'other', name, message: `${name} in ${IN} should be ${rel} ${bound(s.minimum)}`, value: data });
    }
  }
  if (s.maximum !== undefined) {
    const max = cmpBound(s.maximum);
    const exclusive = s.exclusiveMaximum === true;
    if ((!exclusive && data > max) || (exclusive && data >= max)) {
      const rel = exclusive ? 'less than' : 'less than or equal to';
      result.add({ composite: false, code: 'other', name, message: `${name} in ${IN} should be ${rel} ${bound(s.maximum)}`, value: data });
    }
  }
  result.matchCount++;
  return result;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

function validateSlice(s: JSONSchemaProps, name: string, data: unknown[]): Result {
  const result = new Result();
  const items = itemsSchema(s);
  if (items !== undefined)
    data.forEach((v, i) => {
      result.merge(validateValue(items, v, `${name}[${i}]`));
    });
  if (s.minItems !== undefined && data.length < s.minItems) {
    result.add({
      composite: false,
      code: 'other',
      name,
      message: `${name} in ${IN} should have at least ${s.minItems} items`,
      value: data.length,
    });
  }
  if (s.maxItems !== undefined && data.length > s.maxItems) {
    result.add({
      composite: false,
      code: 'maxItems',
      name,
      message: `${name} in ${IN} should have at most ${s.maxItems} items`,
      value: data.length,
      valid: s.maxItems,
    });
  }
  if (s.uniqueItems === true && data.some((v, i) => data.slice(0, i).some((u) => deepEqual(u, v)))) {
    result.add({ composite: false, code: 'other', name, message: `${name} in ${IN} shouldn't contain duplicates` });
  }
  result.matchCount++;
  return result;
}

function validateEnum(s: JSONSchemaProps, name: string, data: unknown): Result {
  if (s.enum === undefined || s.enum.length === 0) return new Result();
  if (data !== null && s.enum.some((e) => e !== null && deepEqual(e, data))) return new Result();
  return failure('enum', name, `${name} in ${IN} should be one of ${JSON.stringify(s.enum)}`, { value: data, values: s.enum });
}

function validateObject(s: JSONSchemaProps, name: string, data: Record<string, unknown>): Result {
  const keys = Object.keys(data);
  if (s.minProperties !== undefined && keys.length < s.minProperties) {
    return failure('other', name, `${name} in ${IN} should have at least ${s.minProperties} properties`, { value: keys.length });
  }
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) {
    return failure('tooManyProperties', name, `${name} in ${IN} should have at most ${s.maxProperties} properties`, {
      value: keys.length,
      valid: s.maxProperties,
    });
  }
  const result = new Result();
  const properties = s.properties ?? {};
  if (s.additionalProperties === false) {
    for (const k of keys) {
      if (!(k in properties))
        result.add({ composite: false, code: 'other', name, message: `${name}.${k} in ${IN} is a forbidden property`, value: k });
    }
  } else {
    const additional = additionalPropertiesSchema(s);
    if (additional !== undefined) {
      for (const k of keys) if (!(k in properties)) result.merge(validateValue(additional, data[k], `${name}.${k}`));
    }
  }
  for (const [k, prop] of Object.entries(properties)) {
    if (k in data) result.merge(validateValue(prop, data[k], name === '' ? k : `${name}.${k}`));
  }
  for (const k of s.required ?? []) {
    if (!(k in data))
      result.add({ composite: false, code: 'required', name: `${name}.${k}`, message: `${name}.${k} in ${IN} is required` });
  }
  return result;
}

function composite(message: string): OpenApiError {
  return { composite: true, message };
}

function validateCombinators(s: JSONSchemaProps, name: string, data: unknown): Result {
  const main = new Result();
  if (s.anyOf !== undefined && s.anyOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    for (const sub of s.anyOf) {
      const r = validateValue(sub, data, name);
      if (r.valid) {
        best = undefined;
        firstSuccess = r;
        break;
      }
      if (best === undefined || r.matchCount > best.matchCount) best = r;
    }
    if (firstSuccess === undefined) main.add(composite(`${goQuote(name)} must validate at least one schema (anyOf)`));
    if (best !== undefined) main.merge(best);
    else if (firstSuccess !== undefined) main.merge(firstSuccess);
  }
  if (s.oneOf !== undefined && s.oneOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let validated = 0;
    for (const sub of s.oneOf) {
      const r = validateValue(sub, data, name);
      if (r.valid) {
        validated++;
        best = undefined;
        firstSuccess ??= r;
        continue;
      }
      if (validated === 0 && (best === undefined || r.matchCount > best.matchCount)) best = r;
    }
    if (validated !== 1) {
      const extra = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      main.add(composite(`${goQuote(name)} must validate one and only one schema (oneOf). ${extra}`));
      if (best !== undefined) main.merge(best);
    } else if (firstSuccess !== undefined) main.merge(firstSuccess);
  }
  if (s.allOf !== undefined && s.allOf.length > 0) {
    let validated = 0;
    for (const sub of s.allOf) {
      const r = validateValue(sub, data, name);
      if (r.valid) validated++;
      main.merge(r);
    }
    if (validated !== s.allOf.length) {
      main.add(composite(`${goQuote(name)} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}`));
    }
  }
  if (s.not !== undefined && validateValue(s.not, data, name).valid) {
    main.add(composite(`${goQuote(name)} must not validate the schema (not)`));
  }
  main.matchCount++;
  return main;
}

function validateValue(s: JSONSchemaProps, data: unknown, name: string): Result {
  const result = new Result();
  const types = schemaTypes(s);
  const format = effectiveFormat(types.length === 1 ? types[0] : undefined, s.format);
  const typeApplies = types.length > 0 || format !== '';
  if (data === null || data === undefined) {
    if (typeApplies) result.merge(validateType(s, types, format, name, null));
    result.merge(validateEnum(s, name, null));
    return result;
  }
  const step = (r: Result): void => {
    result.merge(r);
    result.matchCount++;
  };
  if (typeApplies) step(validateType(s, types, format, name, data));
  step(validateCombinators(s, name, data));
  if (typeof data === 'string') {
    step(validateString(s, name, data));
    if (format !== '' && isKnownStringFormat(format)) step(validateFormat(s, format, name, data));
  }
  if (typeof data === 'number') step(validateNumber(s, name, data));
  if (Array.isArray(data)) step(validateSlice(s, name, data));
  step(validateEnum(s, name, data));
  if (isJsonObject(data)) step(validateObject(s, name, data));
  result.matchCount++;
  return result;
}

/** apimachinery prints a nil field.Path as "<nil>", which is where root-level and composite errors land. */
const NIL_PATH = '<nil>';

function toFieldErrors(fieldPrefix: string, result: Result): FieldError[] {
  const base = fieldPrefix === '' ? NIL_PATH : fieldPrefix;
  return result.errors.map((e): FieldError => {
    if (e.composite) return schemaFieldError.invalid(base, '', e.message);
    const trimmed = e.name.startsWith('.') ? e.name.slice(1) : e.name;
    const path = trimmed === '' ? base : child(fieldPrefix, trimmed);
    const value = e.value ?? '';
    switch (e.code) {
      case 'required':
        return schemaFieldError.required(path);
      case 'enum':
        return schemaFieldError.notSupported(
          path,
          e.value,
          (e.values ?? []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
        );
      case 'tooLong':
        return schemaFieldError.tooLong(path, e.valid ?? -1);
      case 'maxItems':
      case 'tooManyProperties':
        return schemaFieldError.tooMany(path, typeof e.value === 'number' ? e.value : -1, e.valid ?? -1);
      case 'invalidType':
        return schemaFieldError.typeInvalid(path, value, e.message);
      default:
        return schemaFieldError.invalid(path, value, e.message);
    }
  });
}

/**
 * Validates `value` against `schema` and returns field errors under `fieldPrefix` ('' for a whole custom resource;
 * `…default` when checking a schema default).
 */
export function validateAgainstOpenApi(value: unknown, schema: JSONSchemaProps, fieldPrefix = ''): FieldError[] {
  return toFieldErrors(fieldPrefix, validateValue(schema, value, ''));
}
