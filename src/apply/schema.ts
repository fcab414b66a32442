import { type Definitions, resolveSchema, type Schema } from '../openapi/schema.js';

/**
 * The merge view of an OpenAPI schema (what kube-openapi's schemaconv makes of it for structured-merge-diff):
 * scalars, maps (structs and free-form maps alike, granular or atomic), lists (atomic, set, or map keyed by some
 * fields) and the schemaless "deduced" type used under x-kubernetes-preserve-unknown-fields.
 */
export type MergeType = ScalarType | MapType | ListType | DeducedType;

export type ScalarKind = 'numeric' | 'string' | 'boolean' | 'untyped';

export interface ScalarType {
  readonly kind: 'scalar';
  readonly scalar: ScalarKind;
}

export interface MapType {
  readonly kind: 'map';
  readonly atomic: boolean;
  /** The type of a declared field, else of any extra key; undefined when extra keys are not allowed. */
  field(name: string): MergeType | undefined;
  /** Whether `name` is a declared (struct) field. */
  declares(name: string): boolean;
}

export interface ListType {
  readonly kind: 'list';
  readonly listType: 'atomic' | 'set' | 'map';
  readonly keys: readonly string[];
  readonly elem: () => MergeType;
  /** Schema defaults of key fields, for items that omit them (R10.69). */
  readonly keyDefaults: ReadonlyMap<string, unknown>;
}

/** Untyped content: maps are granular, lists atomic, scalars anything (R10.70). */
export interface DeducedType {
  readonly kind: 'deduced';
}

export const DEDUCED: DeducedType = { kind: 'deduced' };
const UNTYPED: ScalarType = { kind: 'scalar', scalar: 'untyped' };

const SCALARS: Readonly<Record<string, ScalarType>> = {
  integer: { kind: 'scalar', scalar: 'numeric' },
  number: { kind: 'scalar', scalar: 'numeric' },
  boolean: { kind: 'scalar', scalar: 'boolean' },
  string: { kind: 'scalar', scalar: 'string' },
};

/** Turns schemas into merge types once per schema object; references resolve through the definitions. */
export class MergeSchemas {
  private readonly cache = new WeakMap<Schema, MergeType>();
  private readonly definitions: Definitions;

  constructor(definitions: Definitions) {
    this.definitions = definitions;
  }

  typeOf(schema: Schema): MergeType {
    let t = this.cache.get(schema);
    if (t === undefined) {
      t = this.convert(schema);
      this.cache.set(schema, t);
    }
    return t;
  }

  private convert(schema: Schema): MergeType {
    if (schema.$ref !== undefined) {
      const target = this.typeOf(resolveSchema(this.definitions, schema));
      // The extension on a property referencing a shared definition overrides it for that use (R10.66).
      const mapType = schema['x-kubernetes-map-type'];
      if (target.kind === 'map' && mapType !== undefined && (mapType === 'atomic') !== target.atomic) {
        return { ...target, atomic: mapType === 'atomic', field: target.field, declares: target.declares };
      }
      return target;
    }
    if (schema['x-kubernetes-int-or-string'] === true) return UNTYPED;
    const type = schema.type;
    if (type === 'array') return this.list(schema);
    if (type === 'object' || (type === undefined && (schema.properties !== undefined || schema.additionalProperties !== undefined))) {
      return this.map(schema);
    }
    if (type === undefined) return schema['x-kubernetes-preserve-unknown-fields'] === true ? DEDUCED : UNTYPED;
    // Formats other than byte are not checked by the merge (R10.71).
    if (type === 'string' && schema.format !== undefined && schema.format !== 'byte') return UNTYPED;
    return SCALARS[type] ?? UNTYPED;
  }

  private map(schema: Schema): MapType {
    const properties = schema.properties ?? {};
    const additional = schema.additionalProperties;
    const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
    let extra: (() => MergeType) | undefined;
    if (isSchema(additional)) extra = () => this.typeOf(additional);
    else if (additional === true || preserve || (schema.properties === undefined && additional === undefined)) extra = () => DEDUCED;
    return {
      kind: 'map',
      atomic: schema['x-kubernetes-map-type'] === 'atomic',
      field: (name) => {
        const p = Object.hasOwn(properties, name) ? properties[name] : undefined;
        if (p !== undefined) return this.typeOf(p);
        return extra?.();
      },
      declares: (name) => Object.hasOwn(properties, name),
    };
  }

  private list(schema: Schema): MergeType {
    const items = schema.items;
    const elem = (): MergeType => (items === undefined ? DEDUCED : this.typeOf(items));
    let listType = schema['x-kubernetes-list-type'];
    let keys = schema['x-kubernetes-list-map-keys'] ?? [];
    if (listType === undefined) {
      // Built-in fields without listType: SMD derives the type from the strategic-merge-patch markers (R10.67).
      const strategy = (schema['x-kubernetes-patch-strategy'] ?? '').split(',');
      const mergeKey = schema['x-kubernetes-patch-merge-key'];
      if (strategy.includes('merge')) {
        listType = mergeKey === undefined ? 'set' : 'map';
        keys = mergeKey === undefined ? [] : [mergeKey];
      } else {
        listType = 'atomic';
      }
    }
    const keyDefaults = new Map<string, unknown>();
    if (listType === 'map' && items !== undefined) {
      const itemSchema = resolveSchema(this.definitions, items);
      for (const key of keys) {
        const p = itemSchema.properties?.[key];
        const d = p === undefined ? undefined : (p.default ?? resolveSchema(this.definitions, p).default);
        if (d !== undefined) keyDefaults.set(key, d);
      }
    }
    return { kind: 'list', listType, keys, elem, keyDefaults };
  }
}

function isSchema(v: Schema | boolean | undefined): v is Schema {
  return typeof v === 'object' && v !== null;
}
