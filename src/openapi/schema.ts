/**
 * The single source of truth for built-in kinds: OpenAPI v2-style definitions (JSON Schema subset plus the
 * Kubernetes extensions). The /openapi/v2 and /openapi/v3 documents, strategic-merge-patch metadata and the
 * decoding checks (unknown fields, types) are all derived from these definitions.
 *
 * References use the v2 form `{ $ref: '#/definitions/<name>' }`; the v3 generator rewrites them.
 */
export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: (string | number | boolean)[];
  default?: unknown;
  $ref?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
  'x-kubernetes-unions'?: unknown[];
}

/** Definition name → schema, e.g. "io.k8s.api.core.v1.Pod". */
export type Definitions = Readonly<Record<string, Schema>>;

const V2_REF_PREFIX = '#/definitions/';

/** Follows `$ref` chains; returns the schema itself when it has none. Throws on a dangling reference. */
export function resolveSchema(definitions: Definitions, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; current.$ref !== undefined; hops++) {
    if (hops > 32) throw new Error(`reference cycle at ${current.$ref}`);
    const name = current.$ref.startsWith(V2_REF_PREFIX) ? current.$ref.slice(V2_REF_PREFIX.length) : current.$ref;
    const target = definitions[name];
    if (target === undefined) throw new Error(`unknown schema reference ${current.$ref}`);
    current = target;
  }
  return current;
}

export function definitionRef(name: string): Schema {
  return { $ref: `${V2_REF_PREFIX}${name}` };
}
