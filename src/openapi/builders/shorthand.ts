import { type Definitions, definitionRef, type Schema } from '../schema.js';

/** Compact constructors for the hand-written meta and core/v1 definitions. */

export const CORE = 'io.k8s.api.core.v1.';
export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

/** Keywords layered onto a property schema besides its description. */
type Extra = Omit<Schema, 'description'>;

export const str = (description: string, extra: Extra = {}): Schema => ({ type: 'string', description, ...extra });
export const bytes = (description: string): Schema => ({ type: 'string', format: 'byte', description });
export const int32 = (description: string): Schema => ({ type: 'integer', format: 'int32', description });
export const int64 = (description: string): Schema => ({ type: 'integer', format: 'int64', description });
export const bool = (description: string): Schema => ({ type: 'boolean', description });

/** A reference to a core/v1 definition by its short name ("PodSpec"). */
export const core = (name: string, description: string, extra: Extra = {}): Schema => ({
  ...definitionRef(CORE + name),
  description,
  ...extra,
});

/** A reference to a meta/v1 definition by its short name ("ObjectMeta"). */
export const meta = (name: string, description: string, extra: Extra = {}): Schema => ({
  ...definitionRef(META + name),
  description,
  ...extra,
});

export const time = (description: string): Schema => meta('Time', description);
export const quantity = (description: string): Schema => ({ ...definitionRef(QUANTITY), description });
export const intOrString = (description: string): Schema => ({ ...definitionRef(INT_OR_STRING), description });

export const arrayOf = (items: Schema, description: string, extra: Extra = {}): Schema => ({
  type: 'array',
  description,
  items,
  ...extra,
});
export const coreArray = (name: string, description: string, extra: Extra = {}): Schema =>
  arrayOf(definitionRef(CORE + name), description, extra);
export const stringArray = (description: string, extra: Extra = ATOMIC): Schema => arrayOf({ type: 'string' }, description, extra);

export const stringMap = (description: string, extra: Extra = {}): Schema => ({
  type: 'object',
  description,
  additionalProperties: { type: 'string' },
  ...extra,
});
export const quantityMap = (description: string): Schema => ({
  type: 'object',
  description,
  additionalProperties: definitionRef(QUANTITY),
});

/** List whose items replace each other wholesale on merge. */
export const ATOMIC: Extra = { 'x-kubernetes-list-type': 'atomic' };
/** Struct or map that is replaced as a unit. */
export const ATOMIC_STRUCT: Extra = { 'x-kubernetes-map-type': 'atomic' };

/** List merged by strategic merge patch on `key`, served as a list-map keyed by `keys` (default: the merge key). */
export function mergeByKey(key: string, keys: string[] = [key], strategy = 'merge'): Extra {
  return {
    'x-kubernetes-list-map-keys': keys,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-patch-merge-key': key,
    'x-kubernetes-patch-strategy': strategy,
  };
}

export function object(description: string, properties: Record<string, Schema>, extra: Extra = {}): Schema {
  return { description, type: 'object', properties, ...extra };
}

export const API_VERSION = str(
  'Versioned schema of this representation of an object; servers convert recognized versions to their latest internal form.',
);
export const KIND = str(
  'REST resource this object represents, in CamelCase. Servers may infer it from the endpoint; it cannot be updated.',
);

interface KindSpec {
  group: string;
  version: string;
  kind: string;
  /** Full definition-name prefix, e.g. "io.k8s.api.core.v1.". */
  prefix: string;
  description: string;
  /** Properties besides apiVersion, kind and metadata. */
  properties: Record<string, Schema>;
  required?: string[];
  listDescription: string;
  itemsDescription: string;
}

/** A top-level kind with standard object metadata, plus its List kind. */
export function kindWithList(spec: KindSpec): Definitions {
  const gvk = (kind: string) => ({
    'x-kubernetes-group-version-kind': [{ group: spec.group, kind, version: spec.version }],
  });
  const kindSchema: Schema = {
    description: spec.description,
    type: 'object',
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: meta('ObjectMeta', "Standard object's metadata."),
      ...spec.properties,
    },
    ...(spec.required === undefined ? {} : { required: spec.required }),
    ...gvk(spec.kind),
  };
  const listSchema: Schema = {
    description: spec.listDescription,
    type: 'object',
    properties: {
      apiVersion: API_VERSION,
      items: arrayOf(definitionRef(spec.prefix + spec.kind), spec.itemsDescription),
      kind: KIND,
      metadata: meta('ListMeta', 'Standard list metadata.'),
    },
    required: ['items'],
    ...gvk(`${spec.kind}List`),
  };
  return { [spec.prefix + spec.kind]: kindSchema, [`${spec.prefix + spec.kind}List`]: listSchema };
}

/** A core/v1 kind with its List kind. */
export function coreKind(spec: Omit<KindSpec, 'group' | 'version' | 'prefix'>): Definitions {
  return kindWithList({ ...spec, group: '', version: 'v1', prefix: CORE });
}
