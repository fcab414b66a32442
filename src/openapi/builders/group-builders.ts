import { definitionRef, type Schema } from '../schema.js';

/** Names of the meta/core definitions the group definitions point at (defined elsewhere). */
const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
export const LABEL_SELECTOR = 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector';
export const TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
export const MICRO_TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';
export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
export const POD_TEMPLATE_SPEC = 'io.k8s.api.core.v1.PodTemplateSpec';
export const PERSISTENT_VOLUME_CLAIM = 'io.k8s.api.core.v1.PersistentVolumeClaim';
export const OBJECT_REFERENCE = 'io.k8s.api.core.v1.ObjectReference';
export const EVENT_SOURCE = 'io.k8s.api.core.v1.EventSource';

/** Extra keywords (patch/list metadata, format) layered onto a property schema. */
type Extra = Omit<Schema, 'description'>;

export function str(description: string, extra: Extra = {}): Schema {
  return { type: 'string', description, ...extra };
}

export function int32(description: string): Schema {
  return { type: 'integer', format: 'int32', description };
}

export function int64(description: string): Schema {
  return { type: 'integer', format: 'int64', description };
}

export function bool(description: string): Schema {
  return { type: 'boolean', description };
}

export function ref(name: string, description: string, extra: Extra = {}): Schema {
  return { ...definitionRef(name), description, ...extra };
}

export function arrayOf(items: Schema, description: string, extra: Extra = {}): Schema {
  return { type: 'array', items, description, ...extra };
}

export function stringArray(description: string, extra: Extra = {}): Schema {
  return arrayOf({ type: 'string' }, description, extra);
}

export function stringMap(description: string): Schema {
  return { type: 'object', additionalProperties: { type: 'string' }, description };
}

/** A list of objects merged by `key` on strategic merge patch and treated as a map by apply. */
export function mergeMapList(items: Schema, key: string, description: string): Schema {
  return arrayOf(items, description, {
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': [key],
    'x-kubernetes-patch-strategy': 'merge',
    'x-kubernetes-patch-merge-key': key,
  });
}

function gvk(group: string, version: string, kind: string): Schema['x-kubernetes-group-version-kind'] {
  return [{ group, version, kind }];
}

const API_VERSION = str('Versioned schema of this object, as group/version.');
const KIND = str('REST kind of this object, in CamelCase.');

interface KindShape {
  group: string;
  version: string;
  kind: string;
  description: string;
  properties: Record<string, Schema>;
  required?: string[];
}

/** A top-level kind: apiVersion, kind and metadata plus its own fields, tagged with its group-version-kind. */
export function kindDefinition(shape: KindShape): Schema {
  const schema: Schema = {
    type: 'object',
    description: shape.description,
    properties: {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: ref(OBJECT_META, "Standard object's metadata."),
      ...shape.properties,
    },
    'x-kubernetes-group-version-kind': gvk(shape.group, shape.version, shape.kind),
  };
  if (shape.required !== undefined) schema.required = shape.required;
  return schema;
}

/** The `<Kind>List` kind whose items are `itemDefinition`. */
export function listDefinition(group: string, version: string, kind: string, itemDefinition: string): Schema {
  return {
    type: 'object',
    description: `${kind}List is a collection of ${kind} objects.`,
    properties: {
      apiVersion: API_VERSION,
      items: arrayOf(definitionRef(itemDefinition), `The ${kind} objects in the list.`),
      kind: KIND,
      metadata: ref(LIST_META, 'Standard list metadata.'),
    },
    required: ['items'],
    'x-kubernetes-group-version-kind': gvk(group, version, `${kind}List`),
  };
}

/** A condition with type, status, reason, message and lastTransitionTime (plus any extra timestamps). */
export function conditionDefinition(description: string, extraTimes: Record<string, Schema> = {}): Schema {
  return {
    type: 'object',
    description,
    properties: {
      lastTransitionTime: ref(TIME, 'When the condition last changed status.'),
      ...extraTimes,
      message: str('Human-readable details about the last transition.'),
      reason: str('Machine-readable reason for the last transition.'),
      status: str('Status of the condition: True, False or Unknown.'),
      type: str('Type of the condition.'),
    },
    required: ['type', 'status'],
  };
}
