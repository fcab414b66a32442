import { type Definitions, resolveSchema, type Schema } from '../openapi/schema.js';
import { cloneJson, isJsonMap, type JsonMap, setKey } from '../patch/json-value.js';
import { DecodeError } from './errors.js';
import { definitionName, goTypeName, structName } from './go-type-names.js';
import { base64Error, quantityError, timestampError } from './scalar-formats.js';

/** The `fieldValidation` request parameter. */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** The type the body is decoded into, named in error messages (`Deployment in version "v1" ...`). */
export interface DecodeTarget {
  readonly kind: string;
  readonly version: string;
}

export interface DecodedObject {
  /** The body as the typed decoding keeps it: unknown fields and nulls dropped. */
  readonly object: JsonMap;
  /** `unknown field "spec.foo"` per unknown field, with fieldValidation=Warn. */
  readonly warnings: string[];
}

/**
 * Decodes a request body into a built-in type the way kube-apiserver's typed JSON decoding does. Values are
 * checked against the schema: a type mismatch (or a malformed quantity, timestamp or base64 value) is a
 * 400 BadRequest; fields the schema does not know are dropped, and additionally reported per `mode` — Warn
 * returns warnings, Strict rejects with `strict decoding error: unknown field "..."`. `null` leaves a field unset.
 * Subtrees marked x-kubernetes-preserve-unknown-fields and free-form objects are kept as they are.
 */
export function decodeTypedObject(
  obj: unknown,
  schema: Schema,
  definitions: Definitions,
  mode: FieldValidation,
  target: DecodeTarget,
): DecodedObject {
  const walker = new SchemaWalker(definitions);
  const decoded = walker.decodeRoot(obj, schema, target.kind);
  const prefix = `${bodyKind(obj, target)} in version "${bodyVersion(obj, target)}" cannot be handled as a ${target.kind}: `;
  if (walker.failure !== undefined) throw new DecodeError(prefix + walker.failure, walker.failure, false);
  const unknown = walker.unknownFields.map((path) => `unknown field "${path}"`);
  if (unknown.length > 0 && mode === 'Strict') {
    const detail = `strict decoding error: ${unknown.join(', ')}`;
    throw new DecodeError(prefix + detail, detail, true);
  }
  return { object: decoded ?? {}, warnings: mode === 'Warn' ? unknown : [] };
}

/** Paths (`spec.template.spec.containers[0].foo`) of the fields in `obj` that the schema does not know. */
export function unknownFieldPaths(obj: unknown, schema: Schema, definitions: Definitions): string[] {
  const walker = new SchemaWalker(definitions);
  walker.decodeRoot(obj, schema, '');
  return walker.unknownFields;
}

function bodyKind(obj: unknown, target: DecodeTarget): string {
  return isJsonMap(obj) && typeof obj.kind === 'string' && obj.kind !== '' ? obj.kind : target.kind;
}

function bodyVersion(obj: unknown, target: DecodeTarget): string {
  if (!isJsonMap(obj) || typeof obj.apiVersion !== 'string' || obj.apiVersion === '') return target.version;
  return obj.apiVersion.slice(obj.apiVersion.lastIndexOf('/') + 1);
}

/** Where a value sits: `path` for unknown-field reports, `fields`/`struct` for Go's type-error context. */
interface Location {
  readonly path: string;
  readonly fields: readonly string[];
  readonly struct: string;
  readonly isRoot: boolean;
}

const DROPPED = Symbol('dropped');
type Decoded = unknown | typeof DROPPED;

class SchemaWalker {
  readonly definitions: Definitions;
  readonly unknownFields: string[] = [];
  /** The first decoding error; like Go, decoding carries on so later values are still visited. */
  failure: string | undefined;

  constructor(definitions: Definitions) {
    this.definitions = definitions;
  }

  decodeRoot(obj: unknown, schema: Schema, fallbackStruct: string): JsonMap | undefined {
    const definition = definitionName(schema);
    const root: Location = {
      path: '',
      fields: [],
      struct: definition === undefined ? fallbackStruct : structName(definition),
      isRoot: true,
    };
    const decoded = this.walk(obj, schema, root);
    return isJsonMap(decoded) ? decoded : undefined;
  }

  private walk(value: unknown, declared: Schema, at: Location): Decoded {
    if (value === null) return DROPPED;
    const schema = resolveSchema(this.definitions, declared);
    if (schema.format === 'date-time') {
      if (typeof value !== 'string') return this.typeMismatch(value, declared, schema, at, false);
      this.fail(timestampError(value));
      return value;
    }
    if (schema['x-kubernetes-int-or-string'] === true || schema.format === 'int-or-string') {
      if (typeof value === 'string' || isIntegerIn(value, INT32_RANGE)) return value;
      return this.typeMismatch(value, declared, schema, at, true);
    }
    if (definitionName(declared)?.endsWith('.api.resource.Quantity') === true) {
      this.fail(quantityError(value));
      return value;
    }
    if (schema['x-kubernetes-preserve-unknown-fields'] === true && schema.properties === undefined) return cloneJson(value);
    switch (schemaType(schema)) {
      case 'object':
        return this.walkObject(value, declared, schema, at);
      case 'array':
        return this.walkArray(value, declared, schema, at);
      case 'string':
        if (typeof value !== 'string') return this.typeMismatch(value, declared, schema, at, false);
        if (schema.format === 'byte') this.fail(base64Error(value));
        return value;
      case 'integer': {
        const range = schema.format === 'int32' ? INT32_RANGE : undefined;
        return isIntegerIn(value, range) ? value : this.typeMismatch(value, declared, schema, at, true);
      }
      case 'number':
        return typeof value === 'number' ? value : this.typeMismatch(value, declared, schema, at, true);
      case 'boolean':
        return typeof value === 'boolean' ? value : this.typeMismatch(value, declared, schema, at, false);
      default:
        return cloneJson(value);
    }
  }

  private walkObject(value: unknown, declared: Schema, schema: Schema, at: Location): Decoded {
    if (!isJsonMap(value)) return this.typeMismatch(value, declared, schema, at, false);
    const definition = definitionName(declared);
    const struct = definition === undefined ? at.struct : structName(definition);
    const out: JsonMap = {};
    if (schema.properties !== undefined) {
      for (const [key, child] of Object.entries(value)) {
        const path = at.path === '' ? key : `${at.path}.${key}`;
        const property = schema.properties[key];
        if (property === undefined) {
          const typeMeta = at.isRoot && (key === 'apiVersion' || key === 'kind');
          if (schema['x-kubernetes-preserve-unknown-fields'] === true || typeMeta) {
            if (child !== null) setKey(out, key, cloneJson(child));
          } else {
            this.unknownFields.push(path);
          }
          continue;
        }
        const decoded = this.walk(child, property, { path, fields: [...at.fields, key], struct, isRoot: false });
        if (decoded !== DROPPED) setKey(out, key, decoded);
      }
      return out;
    }
    const valueSchema = schema.additionalProperties;
    if (typeof valueSchema !== 'object') return cloneJson(value);
    for (const [key, child] of Object.entries(value)) {
      const location: Location = { path: `${at.path}.${key}`, fields: at.fields, struct: at.struct, isRoot: false };
      // Go stores a null map value as the element type's zero value.
      const decoded = child === null ? zeroValue(resolveSchema(this.definitions, valueSchema)) : this.walk(child, valueSchema, location);
      if (decoded !== DROPPED) setKey(out, key, decoded);
    }
    return out;
  }

  private walkArray(value: unknown, declared: Schema, schema: Schema, at: Location): Decoded {
    if (!Array.isArray(value)) return this.typeMismatch(value, declared, schema, at, false);
    const items = schema.items;
    if (items === undefined) return cloneJson(value);
    return value.map((item, index) => {
      const decoded = this.walk(item, items, { path: `${at.path}[${index}]`, fields: at.fields, struct: at.struct, isRoot: false });
      return decoded === DROPPED ? null : decoded;
    });
  }

  /** Records Go's UnmarshalTypeError text; `numericTarget` makes a number show its literal ("number 1.5"). */
  private typeMismatch(value: unknown, declared: Schema, schema: Schema, at: Location, numericTarget: boolean): Decoded {
    const found = typeof value === 'number' && numericTarget ? `number ${String(value)}` : jsonKind(value);
    const typeName = goTypeName(declared, schema, (s) => this.typeNameOf(s));
    this.fail(
      at.fields.length === 0
        ? `json: cannot unmarshal ${found} into Go value of type ${typeName}`
        : `json: cannot unmarshal ${found} into Go struct field ${at.struct}.${at.fields.join('.')} of type ${typeName}`,
    );
    return DROPPED;
  }

  private typeNameOf(declared: Schema): string {
    return goTypeName(declared, resolveSchema(this.definitions, declared), (s) => this.typeNameOf(s));
  }

  private fail(message: string | undefined): void {
    if (message !== undefined && this.failure === undefined) this.failure = message;
  }
}

const INT32_RANGE: readonly [number, number] = [-2147483648, 2147483647];

function isIntegerIn(value: unknown, range: readonly [number, number] | undefined): boolean {
  if (typeof value !== 'number' || !Number.isInteger(value)) return false;
  return range === undefined || (value >= range[0] && value <= range[1]);
}

function schemaType(schema: Schema): Schema['type'] {
  if (schema.type !== undefined) return schema.type;
  return schema.properties !== undefined || typeof schema.additionalProperties === 'object' ? 'object' : undefined;
}

function zeroValue(schema: Schema): Decoded {
  switch (schemaType(schema)) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'object':
      return {};
    default:
      return null;
  }
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (isJsonMap(value)) return 'object';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}
