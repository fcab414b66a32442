import type { Environment } from '@marcbachmann/cel-js';
import { additionalPropertiesSchema, isJsonObject, itemsSchema, type JSONSchemaProps } from '../../api/json-schema-props.js';

/**
 * Kubernetes' OpenAPI → CEL type mapping (R11.108–R11.111, apiserver `SchemaDeclType`): objects with properties are
 * object types with escaped field names, `additionalProperties` maps, arrays lists, integer → int, number → double,
 * string formats byte/date/date-time/duration → bytes/timestamp/duration, int-or-string → dyn. Schemas without a
 * type (preserve-unknown-fields data) are not exposed, nor are lists and maps of them; unknown fields of a
 * preserve-unknown object stay invisible. The roots of the resource and of embedded resources always expose
 * apiVersion, kind, metadata.name and metadata.generateName, and no other metadata.
 */

const RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const ESCAPES: Record<string, string> = { __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' };

/** A property's CEL field name, or undefined when Kubernetes makes it inaccessible. */
export function escapePropertyName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  return name.replace(/__|[.\-/]/g, (m) => ESCAPES[m] ?? m);
}

/** How a schema node's value becomes a CEL value; built once per schema and reused for every object. */
export type Converter = (value: unknown) => unknown;

interface NodeType {
  readonly type: string;
  readonly convert: Converter;
}

const STRING_TYPE: JSONSchemaProps = { type: 'string' };
const META_TYPE: JSONSchemaProps = { type: 'object', properties: { name: STRING_TYPE, generateName: STRING_TYPE } };

function withTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  const meta = s.properties?.metadata;
  const keepMeta = meta?.properties?.name?.type === 'string' && meta.properties.generateName?.type === 'string';
  return { ...s, properties: { ...s.properties, kind: STRING_TYPE, apiVersion: STRING_TYPE, metadata: keepMeta ? meta : META_TYPE } };
}

function toBigInt(v: unknown): unknown {
  return typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v;
}

/** Registers the object types of one schema in an environment and maps each schema node to its CEL type. */
export class SchemaTypes {
  private readonly byNode = new Map<JSONSchemaProps, NodeType | null>();
  private count = 0;

  private readonly env: Environment;
  private readonly duration: (s: string) => unknown;

  constructor(env: Environment, duration: (s: string) => unknown) {
    this.env = env;
    this.duration = duration;
  }

  /** The CEL type and converter of a node (`null` when not exposed to CEL); `root` for resource roots. */
  nodeType(schema: JSONSchemaProps, root: boolean): NodeType | null {
    const cached = this.byNode.get(schema);
    if (cached !== undefined) return cached;
    const t = this.build(root || schema['x-kubernetes-embedded-resource'] === true ? withTypeAndObjectMeta(schema) : schema);
    this.byNode.set(schema, t);
    return t;
  }

  private child(schema: JSONSchemaProps): NodeType | null {
    return this.nodeType(schema, false);
  }

  private build(s: JSONSchemaProps): NodeType | null {
    if (s['x-kubernetes-int-or-string'] === true) return { type: 'dyn', convert: toBigInt };
    switch (s.type) {
      case 'array': {
        const items = itemsSchema(s);
        const item = items === undefined ? null : this.child(items);
        if (item === null) return null;
        const convert = item.convert;
        return { type: `list<${item.type}>`, convert: (v) => (Array.isArray(v) ? v.map(convert) : v) };
      }
      case 'object':
        return this.object(s);
      case 'string':
        return this.string(s);
      case 'boolean':
        return { type: 'bool', convert: (v) => v };
      case 'number':
        return { type: 'double', convert: (v) => v };
      case 'integer':
        return { type: 'int', convert: toBigInt };
      default:
        return null;
    }
  }

  private string(s: JSONSchemaProps): NodeType {
    switch (s.format) {
      case 'byte':
        return { type: 'bytes', convert: (v) => (typeof v === 'string' ? new Uint8Array(Buffer.from(v, 'base64')) : v) };
      case 'date':
        return { type: 'google.protobuf.Timestamp', convert: (v) => (typeof v === 'string' ? new Date(`${v}T00:00:00Z`) : v) };
      case 'date-time':
        return { type: 'google.protobuf.Timestamp', convert: (v) => (typeof v === 'string' ? new Date(v) : v) };
      case 'duration':
        return { type: 'google.protobuf.Duration', convert: (v) => (typeof v === 'string' ? this.duration(v) : v) };
      default:
        return { type: 'string', convert: (v) => v };
    }
  }

  private object(s: JSONSchemaProps): NodeType | null {
    const additional = additionalPropertiesSchema(s);
    if (additional !== undefined) {
      const value = this.child(additional);
      if (value === null) return null;
      const convert = value.convert;
      return {
        type: `map<string, ${value.type}>`,
        convert: (v) => (isJsonObject(v) ? new Map(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, convert(x)])) : v),
      };
    }
    const fields: Record<string, string> = {};
    const plan: { key: string; name: string; convert: Converter }[] = [];
    for (const [key, prop] of Object.entries(s.properties ?? {})) {
      const t = this.child(prop);
      const name = escapePropertyName(key);
      if (t === null || name === undefined) continue;
      fields[name] = t.type;
      plan.push({ key, name, convert: t.convert });
    }
    const typeName = `Object${++this.count}`;
    // A class per object type: cel-js finds an object's declared fields by its constructor.
    const Ctor = { [typeName]: class {} }[typeName] as new () => Record<string, unknown>;
    this.env.registerType(typeName, { ctor: Ctor, fields });
    return {
      type: typeName,
      convert: (v) => {
        if (!isJsonObject(v)) return v;
        const out = new Ctor();
        for (const p of plan) {
          const x = v[p.key];
          if (x !== undefined && x !== null) out[p.name] = p.convert(x);
        }
        return out;
      },
    };
  }
}
