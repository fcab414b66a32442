import type { Definitions, Schema } from '../openapi/schema.js';
import { type MessageLayout, mapValueSchema, messageLayout, refName } from './field-index.js';
import { wellKnownCodec } from './well-known.js';
import { ProtoWriter, WIRE_VARINT } from './wire.js';

/** Encodes a JSON object as the protobuf message of its definition, fields in tag order and map keys sorted, as Go does. */
export function encodeMessage(definitions: Definitions, value: Record<string, unknown>, definition: string): Uint8Array {
  const writer = new ProtoWriter();
  encodeFields(definitions, value, messageLayout(definitions, definition), definition, writer);
  return writer.finish();
}

function encodeFields(
  definitions: Definitions,
  value: Record<string, unknown>,
  layout: MessageLayout,
  owner: string,
  writer: ProtoWriter,
): void {
  for (const [tag, slot] of layout.slots) {
    if (slot.kind === 'inline') {
      // Embedded structs are never pointers, so Go always writes them.
      const inner = new ProtoWriter();
      encodeFields(definitions, value, messageLayout(definitions, slot.message, owner), owner, inner);
      writer.writeBytes(tag, inner.finish());
      continue;
    }
    const field = value[slot.json];
    if (field !== undefined) writeProperty(definitions, writer, tag, field, slot.schema, slot.json);
  }
}

function writeProperty(definitions: Definitions, writer: ProtoWriter, tag: number, value: unknown, schema: Schema, json: string): void {
  if (schema.type === 'array' && schema.items !== undefined && Array.isArray(value)) {
    for (const item of value) writeValue(definitions, writer, tag, item, schema.items, json);
    return;
  }
  const valueSchema = mapValueSchema(schema);
  if (valueSchema !== undefined && typeof value === 'object' && value !== null) {
    const map = value as Record<string, unknown>;
    for (const key of Object.keys(map).sort()) {
      const entry = new ProtoWriter();
      entry.writeString(1, key);
      const item = map[key];
      if (valueSchema.type === 'array' && valueSchema.items !== undefined && Array.isArray(item)) {
        // The list wrapper message Kubernetes uses for repeated map values (field 1 holds the items).
        const wrapper = new ProtoWriter();
        for (const element of item) writeValue(definitions, wrapper, 1, element, valueSchema.items, json);
        entry.writeBytes(2, wrapper.finish());
      } else {
        writeValue(definitions, entry, 2, item, valueSchema, json);
      }
      writer.writeBytes(tag, entry.finish());
    }
    return;
  }
  writeValue(definitions, writer, tag, value, schema, json);
}

function writeValue(definitions: Definitions, writer: ProtoWriter, tag: number, value: unknown, schema: Schema, json: string): void {
  const ref = refName(schema);
  if (ref !== undefined) {
    const codec = wellKnownCodec(ref);
    if (value === null && codec?.zeroIsNull !== true) return;
    const nested = (inner: Record<string, unknown>, definition: string) => encodeMessage(definitions, inner, definition);
    writer.writeBytes(tag, codec !== undefined ? codec.encode(value, nested) : nested(asObject(value, json), ref));
    return;
  }
  if (value === null) return;
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') break;
      if (schema.format === 'byte') writer.writeBytes(tag, Buffer.from(value, 'base64'));
      else writer.writeString(tag, value);
      return;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) break;
      writer.writeKey(tag, WIRE_VARINT);
      writer.writeVarint(BigInt(value));
      return;
    case 'boolean':
      if (typeof value !== 'boolean') break;
      writer.writeKey(tag, WIRE_VARINT);
      writer.writeVarint(value ? 1 : 0);
      return;
    case 'number':
      if (typeof value !== 'number') break;
      writer.writeDouble(tag, value);
      return;
  }
  throw new Error(`cannot encode ${JSON.stringify(value)} as field ${json} of type ${schema.type ?? 'unknown'}`);
}

function asObject(value: unknown, json: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`field ${json} must be an object`);
  return value as Record<string, unknown>;
}
