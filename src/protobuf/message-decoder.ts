import { MAX_OBJECT_DEPTH } from '../decoding/nesting.js';
import type { Definitions, Schema } from '../openapi/schema.js';
import { type MessageLayout, mapValueSchema, messageLayout, refName, shortName } from './field-index.js';
import { wellKnownCodec } from './well-known.js';
import { ProtoReader, WIRE_FIXED32, WIRE_FIXED64, WIRE_LEN, WIRE_VARINT, WireFormatError } from './wire.js';

/**
 * Decodes the protobuf message of a definition into the JSON object Go's encoder would write for the same value.
 * Fields the table does not know are skipped, as protobuf requires.
 */
export function decodeMessage(definitions: Definitions, bytes: Uint8Array, definition: string): Record<string, unknown> {
  // Recursive types (JSONSchemaProps) let two bytes per level nest a message as deep as the body is long.
  if (nesting >= MAX_OBJECT_DEPTH) throw new WireFormatError('exceeded max depth');
  nesting++;
  try {
    const out: Record<string, unknown> = {};
    decodeInto(definitions, bytes, messageLayout(definitions, definition), definition, out);
    return out;
  } finally {
    nesting--;
  }
}

/** How many messages the decoding under way is inside of (decoding is synchronous, so one count serves). */
let nesting = 0;

function decodeInto(definitions: Definitions, bytes: Uint8Array, layout: MessageLayout, owner: string, out: Record<string, unknown>): void {
  const reader = new ProtoReader(bytes);
  const typeName = shortName(layout.name);
  while (!reader.done()) {
    const { field, wireType } = reader.readKey(typeName);
    const slot = layout.byTag.get(field);
    if (slot === undefined) {
      reader.skip(wireType);
    } else if (slot.kind === 'inline') {
      expectWireType(wireType, WIRE_LEN, shortName(slot.message));
      decodeInto(definitions, reader.readBytes(), messageLayout(definitions, slot.message, owner), owner, out);
    } else {
      readProperty(definitions, reader, wireType, slot.json, slot.schema, out);
    }
  }
  dropGoZeroValues(layout, out);
}

/**
 * gogo/protobuf writes non-pointer scalars even when zero, where Go's JSON encoder (`omitempty`) leaves them out;
 * pointers and fields without `omitempty` (the schema's required ones) keep their zero value.
 */
function dropGoZeroValues(layout: MessageLayout, out: Record<string, unknown>): void {
  for (const [, slot] of layout.slots) {
    if (slot.kind !== 'property' || layout.pointers.has(slot.json) || layout.required.has(slot.json)) continue;
    if (refName(slot.schema) !== undefined) continue;
    const value = out[slot.json];
    if (value === '' || value === 0 || value === false) delete out[slot.json];
  }
}

function readProperty(
  definitions: Definitions,
  reader: ProtoReader,
  wireType: number,
  json: string,
  schema: Schema,
  out: Record<string, unknown>,
): void {
  if (schema.type === 'array' && schema.items !== undefined) {
    const existing = out[json];
    const list: unknown[] = Array.isArray(existing) ? existing : [];
    const items = schema.items;
    const packedAs = packedWireType(items);
    if (wireType === WIRE_LEN && packedAs !== undefined) {
      const packed = new ProtoReader(reader.readBytes());
      while (!packed.done()) list.push(readScalar(packed, packedAs, items, json));
    } else {
      const value = readValue(definitions, reader, wireType, items, json);
      if (value !== undefined) list.push(value);
    }
    if (list.length > 0) out[json] = list;
    return;
  }
  const valueSchema = mapValueSchema(schema);
  if (valueSchema !== undefined) {
    expectWireType(wireType, WIRE_LEN, json);
    const existing = out[json];
    const map: Record<string, unknown> = isPlainObject(existing) ? existing : {};
    out[json] = map;
    readMapEntry(definitions, reader.readBytes(), valueSchema, json, map);
    return;
  }
  const value = readValue(definitions, reader, wireType, schema, json);
  if (value !== undefined) out[json] = value;
}

/** A map entry is a message with the key as field 1 and the value as field 2; a missing one is the zero value. */
function readMapEntry(definitions: Definitions, bytes: Uint8Array, valueSchema: Schema, json: string, map: Record<string, unknown>): void {
  const reader = new ProtoReader(bytes);
  let key = '';
  let value: unknown;
  while (!reader.done()) {
    const { field, wireType } = reader.readKey(`${json} entry`);
    if (field === 1) {
      expectWireType(wireType, WIRE_LEN, `${json} key`);
      key = reader.readString();
    } else if (field === 2) {
      value =
        valueSchema.type === 'array' && valueSchema.items !== undefined
          ? readListWrapper(definitions, reader, wireType, valueSchema.items, json)
          : readValue(definitions, reader, wireType, valueSchema, json);
    } else {
      reader.skip(wireType);
    }
  }
  map[key] = value === undefined ? zeroValue(definitions, valueSchema) : value;
}

/**
 * Protobuf maps cannot hold repeated values, so Kubernetes wraps a list map value in a message whose field 1 holds
 * the items (authentication's ExtraValue: `map<string, ExtraValue> extra`).
 */
function readListWrapper(definitions: Definitions, reader: ProtoReader, wireType: number, items: Schema, json: string): unknown[] {
  expectWireType(wireType, WIRE_LEN, json);
  const wrapper = new ProtoReader(reader.readBytes());
  const list: unknown[] = [];
  while (!wrapper.done()) {
    const { field, wireType: itemWire } = wrapper.readKey(`${json} value`);
    if (field !== 1) {
      wrapper.skip(itemWire);
      continue;
    }
    const value = readValue(definitions, wrapper, itemWire, items, json);
    if (value !== undefined) list.push(value);
  }
  return list;
}

function readValue(definitions: Definitions, reader: ProtoReader, wireType: number, schema: Schema, json: string): unknown {
  const ref = refName(schema);
  if (ref === undefined) return readScalar(reader, wireType, schema, json);
  expectWireType(wireType, WIRE_LEN, json);
  return decodeReference(definitions, reader.readBytes(), ref);
}

function decodeReference(definitions: Definitions, bytes: Uint8Array, definition: string): unknown {
  const codec = wellKnownCodec(definition);
  if (codec !== undefined) return codec.decode(bytes, (nested, name) => decodeMessage(definitions, nested, name));
  return decodeMessage(definitions, bytes, definition);
}

function zeroValue(definitions: Definitions, schema: Schema): unknown {
  if (schema.type === 'array') return [];
  const ref = refName(schema);
  if (ref !== undefined) return decodeReference(definitions, new Uint8Array(0), ref);
  if (schema.type === 'integer' || schema.type === 'number') return 0;
  if (schema.type === 'boolean') return false;
  return '';
}

const BASE64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/** Returns undefined (after skipping the field) for a schema without a scalar type, which has no protobuf form. */
function readScalar(reader: ProtoReader, wireType: number, schema: Schema, json: string): unknown {
  switch (schema.type) {
    case 'string':
      expectWireType(wireType, WIRE_LEN, json);
      return schema.format === 'byte' ? BASE64(reader.readBytes()) : reader.readString();
    case 'integer':
      expectWireType(wireType, WIRE_VARINT, json);
      return Number(BigInt.asIntN(64, reader.readVarint()));
    case 'boolean':
      expectWireType(wireType, WIRE_VARINT, json);
      return reader.readVarint() !== 0n;
    case 'number':
      if (wireType === WIRE_FIXED32) return reader.readFloat();
      expectWireType(wireType, WIRE_FIXED64, json);
      return reader.readDouble();
    default:
      reader.skip(wireType);
      return undefined;
  }
}

/** Repeated numbers and booleans may arrive packed into one length-delimited field. */
function packedWireType(items: Schema): number | undefined {
  if (items.$ref !== undefined) return undefined;
  if (items.type === 'integer' || items.type === 'boolean') return WIRE_VARINT;
  if (items.type === 'number') return items.format === 'float' ? WIRE_FIXED32 : WIRE_FIXED64;
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function expectWireType(actual: number, expected: number, field: string): void {
  if (actual !== expected) throw new WireFormatError(`proto: wrong wireType = ${actual} for field ${field}`);
}
