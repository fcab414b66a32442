import { ProtoWriter, WIRE_VARINT } from './wire.js';

/**
 * A Swagger 2.0 JSON document as gnostic's `openapi.v2.Document` protobuf message: what kube-apiserver serves at
 * /openapi/v2 for `Accept: application/com.github.proto-openapi.spec.v2[@.]v1.0+protobuf`, and what kubectl reads to
 * validate kinds it finds in no /openapi/v3 group (a `List` from `kubectl get -o yaml`).
 *
 * Field numbers are those of gnostic's openapiv2/OpenAPIv2.proto. Map-valued objects become repeated
 * (name, value) pairs in the JSON's key order; keys starting with `x-` become `vendor_extension` pairs. Free-form
 * values (defaults, enums, examples, extensions) are `Any` messages holding the value as YAML text: JSON is the
 * flow form of YAML, so the JSON text is written, which every YAML parser (kubectl's included) reads back.
 * Keys Swagger 2.0 has no field for are left out, as they cannot be represented.
 */
export function encodeOpenApiV2Document(document: Record<string, unknown>): Uint8Array {
  return encodeWith(DOCUMENT, document);
}

type Json = Record<string, unknown>;
/** Writes `value` as field `tag`; returns without writing when the value has the wrong JSON type. */
type Codec = (writer: ProtoWriter, tag: number, value: unknown) => void;
interface MessageSpec {
  readonly fields: Readonly<Record<string, readonly [number, Codec]>>;
  /** The field number of `repeated NamedAny vendor_extension`, when the message has one. */
  readonly vendor?: number;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function encodeWith(spec: MessageSpec, value: Json): Uint8Array {
  const writer = new ProtoWriter();
  // Go's protobuf marshals in field-number order, so the fields are written in that order too.
  const present: [number, Codec, unknown][] = [];
  for (const [key, item] of Object.entries(value)) {
    const field = spec.fields[key];
    if (field !== undefined) present.push([field[0], field[1], item]);
  }
  if (spec.vendor !== undefined) {
    const extensions = Object.entries(value).filter(([key]) => key.startsWith('x-'));
    if (extensions.length > 0) present.push([spec.vendor, namedPairs(anyValue), extensions]);
  }
  present.sort((a, b) => a[0] - b[0]);
  for (const [tag, codec, item] of present) codec(writer, tag, item);
  return writer.finish();
}

const str: Codec = (w, tag, v) => {
  if (typeof v === 'string' && v !== '') w.writeString(tag, v);
};
const bool: Codec = (w, tag, v) => {
  if (v === true) {
    w.writeKey(tag, WIRE_VARINT);
    w.writeVarint(1);
  }
};
const int64: Codec = (w, tag, v) => {
  if (typeof v === 'number' && Number.isInteger(v) && v !== 0) {
    w.writeKey(tag, WIRE_VARINT);
    w.writeVarint(BigInt(v));
  }
};
const double: Codec = (w, tag, v) => {
  if (typeof v === 'number' && v !== 0) w.writeDouble(tag, v);
};
const strings: Codec = (w, tag, v) => {
  if (!Array.isArray(v)) return;
  for (const item of v) if (typeof item === 'string') w.writeString(tag, item);
};
/** `Any { string yaml = 2 }`. */
const anyValue: Codec = (w, tag, v) => {
  if (v === undefined) return;
  const inner = new ProtoWriter();
  inner.writeString(2, JSON.stringify(v));
  w.writeBytes(tag, inner.finish());
};
const anyValues: Codec = (w, tag, v) => {
  if (Array.isArray(v)) for (const item of v) anyValue(w, tag, item);
};
const message =
  (spec: () => MessageSpec): Codec =>
  (w, tag, v) => {
    if (isObject(v)) w.writeBytes(tag, encodeWith(spec(), v));
  };
const repeated =
  (codec: Codec): Codec =>
  (w, tag, v) => {
    if (Array.isArray(v)) for (const item of v) codec(w, tag, item);
  };
/** A message built by a function rather than a field table: the oneof wrappers. */
const custom =
  (encode: (writer: ProtoWriter, value: Json) => void): Codec =>
  (w, tag, v) => {
    if (!isObject(v)) return;
    const inner = new ProtoWriter();
    encode(inner, v);
    w.writeBytes(tag, inner.finish());
  };

/** gnostic's Named* messages (`string name = 1; value = 2`), one per entry; accepts an object or its entries. */
function namedPairs(valueCodec: Codec, skipExtensions = false): Codec {
  return (w, tag, v) => {
    const entries = Array.isArray(v) ? (v as [string, unknown][]) : isObject(v) ? Object.entries(v) : [];
    for (const [name, item] of entries) {
      if (skipExtensions && name.startsWith('x-')) continue;
      const pair = new ProtoWriter();
      pair.writeString(1, name);
      valueCodec(pair, 2, item);
      w.writeBytes(tag, pair.finish());
    }
  };
}
/** Messages that are only `repeated Named* additional_properties = 1`. */
const namedMap = (valueCodec: Codec): Codec => custom((inner, v) => namedPairs(valueCodec)(inner, 1, v));

const EXTERNAL_DOCS: MessageSpec = { fields: { description: [1, str], url: [2, str] }, vendor: 3 };
const externalDocs = message(() => EXTERNAL_DOCS);

const XML: MessageSpec = {
  fields: { name: [1, str], namespace: [2, str], prefix: [3, str], attribute: [4, bool], wrapped: [5, bool] },
  vendor: 6,
};

const schema: Codec = message(() => SCHEMA);
/** `type` and `items` may each be one value or an array in JSON Schema; their messages always hold a list. */
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);
const wrapList =
  (codec: Codec): Codec =>
  (w, tag, v) => {
    const inner = new ProtoWriter();
    repeated(codec)(inner, 1, asList(v));
    w.writeBytes(tag, inner.finish());
  };
const SCHEMA: MessageSpec = {
  fields: {
    $ref: [1, str],
    format: [2, str],
    title: [3, str],
    description: [4, str],
    default: [5, anyValue],
    multipleOf: [6, double],
    maximum: [7, double],
    exclusiveMaximum: [8, bool],
    minimum: [9, double],
    exclusiveMinimum: [10, bool],
    maxLength: [11, int64],
    minLength: [12, int64],
    pattern: [13, str],
    maxItems: [14, int64],
    minItems: [15, int64],
    uniqueItems: [16, bool],
    maxProperties: [17, int64],
    minProperties: [18, int64],
    required: [19, strings],
    enum: [20, anyValues],
    // AdditionalPropertiesItem { oneof { Schema = 1; bool = 2 } }: a oneof member is written even when false.
    additionalProperties: [
      21,
      (w, tag, v) => {
        const inner = new ProtoWriter();
        if (typeof v === 'boolean') {
          inner.writeKey(2, WIRE_VARINT);
          inner.writeVarint(v ? 1 : 0);
        } else if (isObject(v)) schema(inner, 1, v);
        else return;
        w.writeBytes(tag, inner.finish());
      },
    ],
    type: [22, wrapList(str)],
    items: [23, wrapList(schema)],
    allOf: [24, repeated(schema)],
    properties: [25, namedMap(schema)],
    discriminator: [26, str],
    readOnly: [27, bool],
    xml: [28, message(() => XML)],
    externalDocs: [29, externalDocs],
    example: [30, anyValue],
  },
  vendor: 31,
};

const FILE_SCHEMA: MessageSpec = {
  fields: {
    format: [1, str],
    title: [2, str],
    description: [3, str],
    default: [4, anyValue],
    required: [5, strings],
    type: [6, str],
    readOnly: [7, bool],
    externalDocs: [8, externalDocs],
    example: [9, anyValue],
  },
  vendor: 10,
};

/** PrimitivesItems and the non-body parameters share this run of fields, starting at different numbers. */
function primitiveFields(first: number): Record<string, readonly [number, Codec]> {
  const names: [string, Codec][] = [
    ['type', str],
    ['format', str],
    ['items', message(() => PRIMITIVES_ITEMS)],
    ['collectionFormat', str],
    ['default', anyValue],
    ['maximum', double],
    ['exclusiveMaximum', bool],
    ['minimum', double],
    ['exclusiveMinimum', bool],
    ['maxLength', int64],
    ['minLength', int64],
    ['pattern', str],
    ['maxItems', int64],
    ['minItems', int64],
    ['uniqueItems', bool],
    ['enum', anyValues],
    ['multipleOf', double],
  ];
  return Object.fromEntries(names.map(([name, codec], i) => [name, [first + i, codec] as const]));
}
const PRIMITIVES_ITEMS: MessageSpec = { fields: primitiveFields(1), vendor: 18 };
const HEADER: MessageSpec = { fields: { ...primitiveFields(1), description: [18, str] }, vendor: 19 };

const PARAMETER_HEAD = { required: [1, bool], in: [2, str], description: [3, str], name: [4, str] } as const;
/** Query and formData parameters may allow an empty value (field 5); header and path ones may not. */
const QUERY_OR_FORM: MessageSpec = {
  fields: { ...PARAMETER_HEAD, allowEmptyValue: [5, bool], ...primitiveFields(6) },
  vendor: 23,
};
const HEADER_OR_PATH: MessageSpec = { fields: { ...PARAMETER_HEAD, ...primitiveFields(5) }, vendor: 22 };
const BODY_PARAMETER: MessageSpec = {
  fields: { description: [1, str], name: [2, str], in: [3, str], required: [4, bool], schema: [5, schema] },
  vendor: 6,
};
const NON_BODY_TAGS: Readonly<Record<string, readonly [number, MessageSpec]>> = {
  header: [1, HEADER_OR_PATH],
  formData: [2, QUERY_OR_FORM],
  query: [3, QUERY_OR_FORM],
  path: [4, HEADER_OR_PATH],
};
const JSON_REFERENCE: MessageSpec = { fields: { $ref: [1, str], description: [2, str] } };

/** `Parameter { oneof { BodyParameter = 1; NonBodyParameter = 2 } }`. */
const parameter = custom((inner, v) => {
  if (v.in === 'body') {
    message(() => BODY_PARAMETER)(inner, 1, v);
    return;
  }
  const sub = typeof v.in === 'string' ? NON_BODY_TAGS[v.in] : undefined;
  if (sub === undefined) return;
  custom((nonBody) => message(() => sub[1])(nonBody, sub[0], v))(inner, 2, v);
});
/** `ParametersItem { oneof { Parameter = 1; JsonReference = 2 } }`. */
const parametersItem = custom((inner, v) => {
  if (typeof v.$ref === 'string') message(() => JSON_REFERENCE)(inner, 2, v);
  else parameter(inner, 1, v);
});

const RESPONSE: MessageSpec = {
  fields: {
    description: [1, str],
    // SchemaItem { oneof { Schema = 1; FileSchema = 2 } }
    schema: [2, custom((inner, v) => (v.type === 'file' ? message(() => FILE_SCHEMA)(inner, 2, v) : schema(inner, 1, v)))],
    headers: [3, namedMap(message(() => HEADER))],
    examples: [4, namedMap(anyValue)],
  },
  vendor: 5,
};
/** `ResponseValue { oneof { Response = 1; JsonReference = 2 } }`. */
const responseValue = custom((inner, v) => {
  if (typeof v.$ref === 'string') message(() => JSON_REFERENCE)(inner, 2, v);
  else message(() => RESPONSE)(inner, 1, v);
});
/** `Responses { repeated NamedResponseValue response_code = 1; repeated NamedAny vendor_extension = 2 }`. */
const responses = custom((inner, v) => {
  namedPairs(responseValue, true)(inner, 1, v);
  const extensions = Object.entries(v).filter(([key]) => key.startsWith('x-'));
  if (extensions.length > 0) namedPairs(anyValue)(inner, 2, extensions);
});

/** `SecurityRequirement { repeated NamedStringArray additional_properties = 1 }`, StringArray holding field 1. */
const securityRequirement = namedMap(custom((inner, v) => strings(inner, 1, v.value)));
const securityRequirements: Codec = (w, tag, v) => {
  if (!Array.isArray(v)) return;
  for (const requirement of v) {
    if (!isObject(requirement)) continue;
    const wrapped = Object.fromEntries(Object.entries(requirement).map(([name, scopes]) => [name, { value: scopes }]));
    securityRequirement(w, tag, wrapped);
  }
};

const OPERATION: MessageSpec = {
  fields: {
    tags: [1, strings],
    summary: [2, str],
    description: [3, str],
    externalDocs: [4, externalDocs],
    operationId: [5, str],
    produces: [6, strings],
    consumes: [7, strings],
    parameters: [8, repeated(parametersItem)],
    responses: [9, responses],
    schemes: [10, strings],
    deprecated: [11, bool],
    security: [12, securityRequirements],
  },
  vendor: 13,
};
const operation = message(() => OPERATION);
const PATH_ITEM: MessageSpec = {
  fields: {
    $ref: [1, str],
    get: [2, operation],
    put: [3, operation],
    post: [4, operation],
    delete: [5, operation],
    options: [6, operation],
    head: [7, operation],
    patch: [8, operation],
    parameters: [9, repeated(parametersItem)],
  },
  vendor: 10,
};
/** `Paths { repeated NamedAny vendor_extension = 1; repeated NamedPathItem path = 2 }`. */
const paths = custom((inner, v) => {
  const extensions = Object.entries(v).filter(([key]) => key.startsWith('x-'));
  if (extensions.length > 0) namedPairs(anyValue)(inner, 1, extensions);
  namedPairs(message(() => PATH_ITEM), true)(inner, 2, v);
});

const SCOPES = namedMap(str);
/** The security scheme messages of `SecurityDefinitionsItem`'s oneof, chosen by `type` (and `flow` for OAuth2). */
const SECURITY_SCHEMES: Readonly<Record<string, readonly [number, MessageSpec]>> = {
  basic: [1, { fields: { type: [1, str], description: [2, str] }, vendor: 3 }],
  apiKey: [2, { fields: { type: [1, str], name: [2, str], in: [3, str], description: [4, str] }, vendor: 5 }],
  implicit: [
    3,
    { fields: { type: [1, str], flow: [2, str], scopes: [3, SCOPES], authorizationUrl: [4, str], description: [5, str] }, vendor: 6 },
  ],
  password: [4, { fields: { type: [1, str], flow: [2, str], scopes: [3, SCOPES], tokenUrl: [4, str], description: [5, str] }, vendor: 6 }],
  application: [
    5,
    { fields: { type: [1, str], flow: [2, str], scopes: [3, SCOPES], tokenUrl: [4, str], description: [5, str] }, vendor: 6 },
  ],
  accessCode: [
    6,
    {
      fields: {
        type: [1, str],
        flow: [2, str],
        scopes: [3, SCOPES],
        authorizationUrl: [4, str],
        tokenUrl: [5, str],
        description: [6, str],
      },
      vendor: 7,
    },
  ],
};
const securityScheme = custom((inner, v) => {
  const key = v.type === 'oauth2' ? v.flow : v.type;
  const scheme = typeof key === 'string' ? SECURITY_SCHEMES[key] : undefined;
  if (scheme !== undefined) message(() => scheme[1])(inner, scheme[0], v);
});

const CONTACT: MessageSpec = { fields: { name: [1, str], url: [2, str], email: [3, str] }, vendor: 4 };
const LICENSE: MessageSpec = { fields: { name: [1, str], url: [2, str] }, vendor: 3 };
const INFO: MessageSpec = {
  fields: {
    title: [1, str],
    version: [2, str],
    description: [3, str],
    termsOfService: [4, str],
    contact: [5, message(() => CONTACT)],
    license: [6, message(() => LICENSE)],
  },
  vendor: 7,
};
const TAG: MessageSpec = { fields: { name: [1, str], description: [2, str], externalDocs: [3, externalDocs] }, vendor: 4 };

const DOCUMENT: MessageSpec = {
  fields: {
    swagger: [1, str],
    info: [2, message(() => INFO)],
    host: [3, str],
    basePath: [4, str],
    schemes: [5, strings],
    consumes: [6, strings],
    produces: [7, strings],
    paths: [8, paths],
    definitions: [9, namedMap(schema)],
    parameters: [10, namedMap(parameter)],
    responses: [11, namedMap(message(() => RESPONSE))],
    security: [12, securityRequirements],
    securityDefinitions: [13, namedMap(securityScheme)],
    tags: [14, repeated(message(() => TAG))],
    externalDocs: [15, externalDocs],
  },
  vendor: 16,
};
