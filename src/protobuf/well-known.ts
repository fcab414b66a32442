import { scanJson } from '../decoding/json-scan.js';
import { MAX_OBJECT_DEPTH } from '../decoding/nesting.js';
import { formatTimestamp, parseTimestamp } from './time-format.js';
import { ProtoReader, ProtoWriter, WIRE_LEN, WIRE_VARINT, WireFormatError } from './wire.js';

/** Decodes or encodes a definition a well-known type refers back to (JSONSchemaProps inside its wrappers). */
export type NestedDecoder = (bytes: Uint8Array, definition: string) => Record<string, unknown>;
export type NestedEncoder = (value: Record<string, unknown>, definition: string) => Uint8Array;

/** A Go type whose JSON form is not the plain object of its protobuf fields (timestamps, quantities, raw JSON...). */
export interface WellKnownCodec {
  decode(bytes: Uint8Array, nested: NestedDecoder): unknown;
  encode(value: unknown, nested: NestedEncoder): Uint8Array;
  /** Go renders this type's zero value as JSON null, so a null in JSON stands for an empty message. */
  readonly zeroIsNull: boolean;
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const APIEXTENSIONS = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';
const JSON_SCHEMA_PROPS = `${APIEXTENSIONS}JSONSchemaProps`;

type FieldVisitor = (field: number, wireType: number, reader: ProtoReader) => boolean;

/** Visits each field; a visitor returning false leaves the field to be skipped. */
function readFields(bytes: Uint8Array, messageName: string, visit: FieldVisitor): void {
  const reader = new ProtoReader(bytes);
  while (!reader.done()) {
    const { field, wireType } = reader.readKey(messageName);
    if (!visit(field, wireType, reader)) reader.skip(wireType);
  }
}

function expectWireType(actual: number, expected: number, fieldName: string): void {
  if (actual !== expected) throw new WireFormatError(`proto: wrong wireType = ${actual} for field ${fieldName}`);
}

function timestampCodec(fractionDigits: 0 | 6): WellKnownCodec {
  return {
    zeroIsNull: true,
    // An empty message is Go's zero time, which its JSON encoder writes as null. metav1.Time's JSON has whole
    // seconds only, so its nanos are read and dropped.
    decode(bytes) {
      if (bytes.length === 0) return null;
      let seconds = 0n;
      let nanos = 0;
      readFields(bytes, 'Timestamp', (field, wireType, reader) => {
        if (field === 1) {
          expectWireType(wireType, WIRE_VARINT, 'Seconds');
          seconds = BigInt.asIntN(64, reader.readVarint());
        } else if (field === 2) {
          expectWireType(wireType, WIRE_VARINT, 'Nanos');
          nanos = Number(BigInt.asIntN(32, reader.readVarint()));
        } else return false;
        return true;
      });
      return formatTimestamp(seconds, nanos, fractionDigits);
    },
    encode(value) {
      if (value === null) return new Uint8Array(0);
      if (typeof value !== 'string') throw new Error(`a time must be a string, not ${JSON.stringify(value)}`);
      const { seconds, nanos } = parseTimestamp(value);
      const writer = new ProtoWriter();
      writer.writeKey(1, WIRE_VARINT);
      writer.writeVarint(seconds);
      writer.writeKey(2, WIRE_VARINT);
      writer.writeVarint(nanos);
      return writer.finish();
    },
  };
}

const QUANTITY: WellKnownCodec = {
  zeroIsNull: false,
  decode(bytes) {
    let text = '0';
    readFields(bytes, 'Quantity', (field, wireType, reader) => {
      if (field !== 1) return false;
      expectWireType(wireType, WIRE_LEN, 'String_');
      text = reader.readString();
      return true;
    });
    return text;
  },
  encode(value) {
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new Error(`a quantity must be a string or number, not ${JSON.stringify(value)}`);
    const writer = new ProtoWriter();
    writer.writeString(1, String(value));
    return writer.finish();
  },
};

const INT_OR_STRING_INT = 0;
const INT_OR_STRING_STRING = 1;

const INT_OR_STRING: WellKnownCodec = {
  zeroIsNull: false,
  decode(bytes) {
    let type = 0n;
    let intVal = 0;
    let strVal = '';
    readFields(bytes, 'IntOrString', (field, wireType, reader) => {
      if (field === 1) {
        expectWireType(wireType, WIRE_VARINT, 'Type');
        type = BigInt.asIntN(64, reader.readVarint());
      } else if (field === 2) {
        expectWireType(wireType, WIRE_VARINT, 'IntVal');
        intVal = Number(BigInt.asIntN(32, reader.readVarint()));
      } else if (field === 3) {
        expectWireType(wireType, WIRE_LEN, 'StrVal');
        strVal = reader.readString();
      } else return false;
      return true;
    });
    if (type === BigInt(INT_OR_STRING_INT)) return intVal;
    if (type === BigInt(INT_OR_STRING_STRING)) return strVal;
    throw new WireFormatError('impossible IntOrString.Type');
  },
  encode(value) {
    const writer = new ProtoWriter();
    const isInt = typeof value === 'number';
    if (!isInt && typeof value !== 'string') throw new Error(`an int-or-string must be a number or string, not ${JSON.stringify(value)}`);
    writer.writeKey(1, WIRE_VARINT);
    writer.writeVarint(isInt ? INT_OR_STRING_INT : INT_OR_STRING_STRING);
    writer.writeKey(2, WIRE_VARINT);
    writer.writeVarint(isInt ? value : 0);
    writer.writeString(3, isInt ? '' : value);
    return writer.finish();
  },
};

/** Types that carry a JSON document in their only field (raw=1); an empty one renders as null. */
function rawJsonCodec(messageName: string): WellKnownCodec {
  return {
    zeroIsNull: true,
    decode(bytes) {
      let raw: Uint8Array = new Uint8Array(0);
      readFields(bytes, messageName, (field, wireType, reader) => {
        if (field !== 1) return false;
        expectWireType(wireType, WIRE_LEN, 'Raw');
        raw = reader.readBytes();
        return true;
      });
      if (raw.length === 0) return null;
      const text = new TextDecoder().decode(raw);
      if (scanJson(text, MAX_OBJECT_DEPTH).tooDeep !== undefined) throw new WireFormatError(`${messageName} does not hold JSON: exceeded max depth`);
      try {
        return JSON.parse(text);
      } catch (err) {
        throw new WireFormatError(`${messageName} does not hold JSON: ${(err as Error).message}`);
      }
    },
    encode(value) {
      const writer = new ProtoWriter();
      if (value !== null) writer.writeString(1, JSON.stringify(value));
      return writer.finish();
    },
  };
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${what} must be an object, not ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

const SCHEMA_OR_ARRAY: WellKnownCodec = {
  zeroIsNull: true,
  decode(bytes, nested) {
    let schema: Record<string, unknown> | null = null;
    const schemas: Record<string, unknown>[] = [];
    readFields(bytes, 'JSONSchemaPropsOrArray', (field, wireType, reader) => {
      if (field !== 1 && field !== 2) return false;
      expectWireType(wireType, WIRE_LEN, field === 1 ? 'Schema' : 'JSONSchemas');
      const decoded = nested(reader.readBytes(), JSON_SCHEMA_PROPS);
      if (field === 1) schema = decoded;
      else schemas.push(decoded);
      return true;
    });
    return schemas.length > 0 ? schemas : schema;
  },
  encode(value, nested) {
    const writer = new ProtoWriter();
    if (Array.isArray(value)) {
      for (const item of value) writer.writeBytes(2, nested(asObject(item, 'items'), JSON_SCHEMA_PROPS));
    } else if (value !== null) writer.writeBytes(1, nested(asObject(value, 'items'), JSON_SCHEMA_PROPS));
    return writer.finish();
  },
};

const SCHEMA_OR_BOOL: WellKnownCodec = {
  zeroIsNull: false,
  decode(bytes, nested) {
    let allows = false;
    let schema: Record<string, unknown> | undefined;
    readFields(bytes, 'JSONSchemaPropsOrBool', (field, wireType, reader) => {
      if (field === 1) {
        expectWireType(wireType, WIRE_VARINT, 'Allows');
        allows = reader.readVarint() !== 0n;
      } else if (field === 2) {
        expectWireType(wireType, WIRE_LEN, 'Schema');
        schema = nested(reader.readBytes(), JSON_SCHEMA_PROPS);
      } else return false;
      return true;
    });
    return schema ?? allows;
  },
  encode(value, nested) {
    const writer = new ProtoWriter();
    writer.writeKey(1, WIRE_VARINT);
    if (typeof value === 'boolean') {
      writer.writeVarint(value ? 1 : 0);
    } else {
      // Go reads a schema here as "allowed, with this schema".
      writer.writeVarint(1);
      writer.writeBytes(2, nested(asObject(value, 'a schema-or-bool'), JSON_SCHEMA_PROPS));
    }
    return writer.finish();
  },
};

const SCHEMA_OR_STRING_ARRAY: WellKnownCodec = {
  zeroIsNull: true,
  decode(bytes, nested) {
    let schema: Record<string, unknown> | null = null;
    const property: string[] = [];
    readFields(bytes, 'JSONSchemaPropsOrStringArray', (field, wireType, reader) => {
      if (field === 1) {
        expectWireType(wireType, WIRE_LEN, 'Schema');
        schema = nested(reader.readBytes(), JSON_SCHEMA_PROPS);
      } else if (field === 2) {
        expectWireType(wireType, WIRE_LEN, 'Property');
        property.push(reader.readString());
      } else return false;
      return true;
    });
    return property.length > 0 ? property : schema;
  },
  encode(value, nested) {
    const writer = new ProtoWriter();
    if (Array.isArray(value)) {
      for (const item of value) writer.writeString(2, String(item));
    } else if (value !== null) writer.writeBytes(1, nested(asObject(value, 'a dependency'), JSON_SCHEMA_PROPS));
    return writer.finish();
  },
};

const WELL_KNOWN: ReadonlyMap<string, WellKnownCodec> = new Map([
  [`${META}Time`, timestampCodec(0)],
  [`${META}MicroTime`, timestampCodec(6)],
  [`${META}FieldsV1`, rawJsonCodec('FieldsV1')],
  ['io.k8s.apimachinery.pkg.runtime.RawExtension', rawJsonCodec('RawExtension')],
  ['io.k8s.apimachinery.pkg.api.resource.Quantity', QUANTITY],
  ['io.k8s.apimachinery.pkg.util.intstr.IntOrString', INT_OR_STRING],
  [`${APIEXTENSIONS}JSON`, rawJsonCodec('JSON')],
  [`${APIEXTENSIONS}JSONSchemaPropsOrArray`, SCHEMA_OR_ARRAY],
  [`${APIEXTENSIONS}JSONSchemaPropsOrBool`, SCHEMA_OR_BOOL],
  [`${APIEXTENSIONS}JSONSchemaPropsOrStringArray`, SCHEMA_OR_STRING_ARRAY],
]);

export function wellKnownCodec(definition: string): WellKnownCodec | undefined {
  return WELL_KNOWN.get(definition);
}
