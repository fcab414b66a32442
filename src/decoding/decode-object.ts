import { type Definitions, resolveSchema, type Schema } from '../openapi/schema.js';
import { cloneJson, isJsonMap, type JsonMap, setKey } from '../util/json-value.js';
import { type DecodePlan, type PlanSlot, planFor, schemaType, slotPlan } from './decode-plan.js';
import { DecodeError } from './errors.js';
import { goTypeName } from './go-type-names.js';
import { canonicalQuantity } from '../validation/quantity-text.js';
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
 * `bodyStrictErrors` are what the body's parser found (duplicate fields), reported after the unknown fields.
 * Subtrees marked x-kubernetes-preserve-unknown-fields and free-form objects are kept as they are.
 */
export function decodeTypedObject(
  obj: unknown,
  schema: Schema,
  definitions: Definitions,
  mode: FieldValidation,
  target: DecodeTarget,
  bodyStrictErrors: readonly string[] = [],
): DecodedObject {
  const walker = new SchemaWalker(definitions);
  const decoded = walker.decodeRoot(obj, schema, target.kind);
  const prefix = (): string => `${bodyKind(obj, target)} in version "${bodyVersion(obj, target)}" cannot be handled as a ${target.kind}: `;
  if (walker.failure !== undefined) throw new DecodeError(prefix() + walker.failure, walker.failure, false);
  if (walker.unknownFields.length === 0 && bodyStrictErrors.length === 0) return { object: decoded ?? {}, warnings: [] };
  const strict = [...walker.unknownFields.map((path) => `unknown field "${path}"`), ...bodyStrictErrors];
  if (mode === 'Strict') {
    const detail = `strict decoding error: ${strict.join(', ')}`;
    throw new DecodeError(prefix() + detail, detail, true);
  }
  return { object: decoded ?? {}, warnings: mode === 'Warn' ? strict : [] };
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

const DROPPED = Symbol('dropped');
type Decoded = unknown | typeof DROPPED;

/** How a step down the value tree was taken: into a struct field, a map value or a list item. */
const FIELD = 0;
const MAP_VALUE = 1;
const ITEM = 2;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

class SchemaWalker {
  readonly definitions: Definitions;
  readonly unknownFields: string[] = [];
  /** The first decoding error; like Go, decoding carries on so later values are still visited. */
  failure: string | undefined;
  /**
   * The way from the root to the value being decoded, one step per depth: the key or index, how it was taken and,
   * for struct fields, the struct's own Go name. Only kept as steps, because the path and Go's error context are
   * rendered from it only when a field is unknown or a value has the wrong type.
   */
  readonly #keys: (string | number)[] = [];
  readonly #steps: number[] = [];
  readonly #structs: (string | undefined)[] = [];
  #rootStruct = '';

  constructor(definitions: Definitions) {
    this.definitions = definitions;
  }

  decodeRoot(obj: unknown, schema: Schema, fallbackStruct: string): JsonMap | undefined {
    const plan = planFor(this.definitions, schema);
    this.#rootStruct = plan.struct ?? fallbackStruct;
    const decoded = this.walk(obj, plan, 0);
    return isJsonMap(decoded) ? decoded : undefined;
  }

  private walk(value: unknown, plan: DecodePlan, depth: number): Decoded {
    if (value === null) return DROPPED;
    switch (plan.kind) {
      case 'struct':
        return this.walkStruct(value, plan, depth);
      case 'string':
        return typeof value === 'string' ? value : this.typeMismatch(value, plan, depth, false);
      case 'map':
        return this.walkMap(value, plan, depth);
      case 'list':
        return this.walkList(value, plan, depth);
      case 'int32':
        return typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX
          ? value
          : this.typeMismatch(value, plan, depth, true);
      case 'integer':
        return typeof value === 'number' && Number.isInteger(value) ? value : this.typeMismatch(value, plan, depth, true);
      case 'boolean':
        return typeof value === 'boolean' ? value : this.typeMismatch(value, plan, depth, false);
      case 'timestamp':
        if (typeof value !== 'string') return this.typeMismatch(value, plan, depth, false);
        this.fail(timestampError(value));
        return value;
      case 'int-or-string':
        if (typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX)) {
          return value;
        }
        return this.typeMismatch(value, plan, depth, true);
      case 'quantity': {
        const error = quantityError(value);
        this.fail(error);
        return error === undefined ? storedQuantity(value) : value;
      }
      case 'bytes':
        if (typeof value !== 'string') return this.typeMismatch(value, plan, depth, false);
        this.fail(base64Error(value));
        return value;
      case 'number':
        return typeof value === 'number' ? value : this.typeMismatch(value, plan, depth, true);
      case 'free-object':
        return isJsonMap(value) ? cloneJson(value) : this.typeMismatch(value, plan, depth, false);
      case 'free-array':
        return Array.isArray(value) ? cloneJson(value) : this.typeMismatch(value, plan, depth, false);
      case 'keep':
      case 'any':
        return cloneJson(value);
    }
  }

  private walkStruct(value: unknown, plan: DecodePlan, depth: number): Decoded {
    if (!isJsonMap(value)) return this.typeMismatch(value, plan, depth, false);
    const properties = plan.properties as ReadonlyMap<string, PlanSlot>;
    const out: JsonMap = {};
    for (const key of Object.keys(value)) {
      const child = ownValue(value, key);
      const slot = properties.get(key);
      if (slot === undefined) {
        if (plan.preserveUnknown || (depth === 0 && (key === 'apiVersion' || key === 'kind'))) {
          if (child !== null) setKey(out, key, cloneJson(child));
        } else {
          this.unknownFields.push(this.pathTo(depth, key));
        }
        continue;
      }
      if (child === null) continue;
      this.#keys[depth] = key;
      this.#steps[depth] = FIELD;
      this.#structs[depth] = plan.struct;
      const decoded = this.walk(child, slotPlan(this.definitions, slot), depth + 1);
      if (decoded !== DROPPED) setKey(out, key, decoded);
    }
    return out;
  }

  private walkMap(value: unknown, plan: DecodePlan, depth: number): Decoded {
    if (!isJsonMap(value)) return this.typeMismatch(value, plan, depth, false);
    const element = slotPlanOf(this.definitions, plan);
    const out: JsonMap = {};
    for (const key of Object.keys(value)) {
      const child = ownValue(value, key);
      this.#keys[depth] = key;
      this.#steps[depth] = MAP_VALUE;
      // Go stores a null map value as the element type's zero value.
      const decoded = child === null ? zeroValue(element.resolved) : this.walk(child, element, depth + 1);
      if (decoded !== DROPPED) setKey(out, key, decoded);
    }
    return out;
  }

  private walkList(value: unknown, plan: DecodePlan, depth: number): Decoded {
    if (!Array.isArray(value)) return this.typeMismatch(value, plan, depth, false);
    const item = slotPlanOf(this.definitions, plan);
    const out: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      this.#keys[depth] = index;
      this.#steps[depth] = ITEM;
      const decoded = this.walk(value[index], item, depth + 1);
      out.push(decoded === DROPPED ? null : decoded);
    }
    return out;
  }

  /** The dotted path (`spec.containers[0].image`) of field `key` of the struct at `depth`. */
  private pathTo(depth: number, key: string): string {
    this.#keys[depth] = key;
    this.#steps[depth] = FIELD;
    let path = '';
    for (let i = 0; i <= depth; i++) {
      const step = this.#keys[i] as string | number;
      switch (this.#steps[i]) {
        case FIELD:
          path = path === '' ? String(step) : `${path}.${String(step)}`;
          break;
        case MAP_VALUE:
          path = `${path}.${String(step)}`;
          break;
        default:
          path = `${path}[${String(step)}]`;
      }
    }
    return path;
  }

  /** Records Go's UnmarshalTypeError text; `numericTarget` makes a number show its literal ("number 1.5"). */
  private typeMismatch(value: unknown, plan: DecodePlan, depth: number, numericTarget: boolean): Decoded {
    const found = typeof value === 'number' && numericTarget ? `number ${String(value)}` : jsonKind(value);
    const typeName = goTypeName(plan.declared, plan.resolved, (s) => this.typeNameOf(s));
    // Go names the struct that holds the innermost field, and the field path from the root, skipping map keys and indices.
    const fields: string[] = [];
    let struct: string | undefined;
    for (let i = depth - 1; i >= 0; i--) {
      if (this.#steps[i] !== FIELD) continue;
      fields.unshift(this.#keys[i] as string);
      struct ??= this.#structs[i];
    }
    this.fail(
      fields.length === 0
        ? `json: cannot unmarshal ${found} into Go value of type ${typeName}`
        : `json: cannot unmarshal ${found} into Go struct field ${struct ?? this.#rootStruct}.${fields.join('.')} of type ${typeName}`,
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

function slotPlanOf(definitions: Definitions, plan: DecodePlan): DecodePlan {
  return slotPlan(definitions, plan.element as PlanSlot);
}

/** An own property's value; a "__proto__" key from JSON is an own property that plain indexing would miss. */
function ownValue(map: JsonMap, key: string): unknown {
  return key === '__proto__' ? Object.getOwnPropertyDescriptor(map, key)?.value : map[key];
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

const EXPONENT_FORM = /[eE][-+]?\d+$/;

/**
 * A quantity as kube-apiserver stores and prints it: decoding parses it and encoding writes its canonical form
 * ("1000m" → "1", "1024Mi" → "1Gi", 0.5 → "500m"), so a pod update resending "1000m" equals the stored "1". The
 * rare exponent form ("1e3", which Go keeps as an exponent) is kept as written rather than printed differently.
 */
function storedQuantity(value: unknown): unknown {
  if (typeof value === 'string' && EXPONENT_FORM.test(value)) return value;
  return canonicalQuantity(value);
}
