import type { Definitions, Schema } from '../openapi/schema.js';
import { FIELD_NUMBERS } from '../kinds/field-numbers.js';
import type { MessageFields } from '../kinds/define/field-numbers.js';

const V2_REF_PREFIX = '#/definitions/';

/** One protobuf field of a message: either a JSON property or an embedded struct merged into the same object. */
export type FieldSlot =
  | { readonly kind: 'property'; readonly json: string; readonly schema: Schema }
  | { readonly kind: 'inline'; readonly message: string };

/** A message's fields by tag, typed by the schema of the JSON object they fill. */
export interface MessageLayout {
  readonly name: string;
  readonly byTag: ReadonlyMap<number, FieldSlot>;
  /** In ascending tag order, the order Go writes them. */
  readonly slots: readonly (readonly [number, FieldSlot])[];
  readonly pointers: ReadonlySet<string>;
  readonly required: ReadonlySet<string>;
}

const LAYOUTS = new WeakMap<Definitions, Map<string, MessageLayout>>();

export function refName(schema: Schema): string | undefined {
  if (schema.$ref === undefined) return undefined;
  return schema.$ref.startsWith(V2_REF_PREFIX) ? schema.$ref.slice(V2_REF_PREFIX.length) : schema.$ref;
}

/**
 * The layout of `message` filling an object described by `owner` (a definition name). Both are the same except for
 * embedded structs, whose fields belong to the enclosing definition's schema.
 */
export function messageLayout(definitions: Definitions, message: string, owner: string = message): MessageLayout {
  let cache = LAYOUTS.get(definitions);
  if (cache === undefined) {
    cache = new Map();
    LAYOUTS.set(definitions, cache);
  }
  const cacheKey = `${message}\u0000${owner}`;
  const cached = cache.get(cacheKey);
  if (cached !== undefined) return cached;
  const fields: MessageFields | undefined = FIELD_NUMBERS[message];
  const schema = definitions[owner];
  if (fields === undefined || schema === undefined) throw new Error(`no protobuf field numbers for ${message}`);
  const byTag = new Map<number, FieldSlot>();
  for (const [json, tag] of Object.entries(fields.tags)) {
    const property = schema.properties?.[json];
    if (property !== undefined) byTag.set(tag, { kind: 'property', json, schema: property });
  }
  for (const [tag, inner] of Object.entries(fields.inline ?? {})) byTag.set(Number(tag), { kind: 'inline', message: inner });
  const layout: MessageLayout = {
    name: message,
    byTag,
    slots: [...byTag.entries()].sort((a, b) => a[0] - b[0]),
    pointers: new Set(fields.pointers ?? []),
    required: new Set(schema.required ?? []),
  };
  cache.set(cacheKey, layout);
  return layout;
}

/** The Go type name gogo/protobuf uses in its errors: the definition's last segment. */
export function shortName(definition: string): string {
  return definition.slice(definition.lastIndexOf('.') + 1);
}

/** The value schema of a map (an object schema with only additionalProperties); proto writes maps as entry messages. */
export function mapValueSchema(schema: Schema): Schema | undefined {
  if (schema.type !== 'object' || schema.properties !== undefined) return undefined;
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}
