import { definitionRef, type Schema } from '../openapi/schema.js';
import type { CrdNames } from '../api/crd-types.js';
import { customDefinitionName } from './custom-resource-info.js';
import type { JSONSchemaProps } from '../api/json-schema-props.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';

/** JSONSchemaProps and our Schema share their shape; only the keywords OpenAPI documents carry are kept. */
function toSchema(props: JSONSchemaProps): Schema {
  const out: Schema = {};
  const p = props as Record<string, unknown>;
  for (const key of [
    'type',
    'format',
    'description',
    'required',
    'enum',
    'default',
    'x-kubernetes-preserve-unknown-fields',
    'x-kubernetes-int-or-string',
    'x-kubernetes-embedded-resource',
    'x-kubernetes-list-type',
    'x-kubernetes-list-map-keys',
    'x-kubernetes-map-type',
  ]) {
    if (p[key] !== undefined) (out as Record<string, unknown>)[key] = p[key];
  }
  if (props.properties !== undefined) {
    out.properties = Object.fromEntries(Object.entries(props.properties).map(([k, v]) => [k, toSchema(v)]));
  }
  const items = props.items;
  if (items !== undefined && !Array.isArray(items)) out.items = toSchema(items as JSONSchemaProps);
  const additional = props.additionalProperties;
  if (typeof additional === 'boolean') out.additionalProperties = additional;
  else if (additional !== undefined) out.additionalProperties = toSchema(additional as JSONSchemaProps);
  return out;
}

/**
 * The OpenAPI definitions of one served version of a custom resource (as kube-apiserver publishes them for
 * `kubectl explain` and client-side apply): the kind, with apiVersion/kind/metadata filled in, and its List.
 */
export function customResourceDefinitions(group: string, version: string, names: CrdNames, schema: JSONSchemaProps | undefined): Record<string, Schema> {
  const kindName = customDefinitionName(group, version, names.kind);
  const listKind = names.listKind ?? `${names.kind}List`;
  const base = schema === undefined ? { type: 'object' as const, 'x-kubernetes-preserve-unknown-fields': true } : toSchema(schema);
  const kind: Schema = {
    ...base,
    type: 'object',
    properties: {
      ...(base.properties ?? {}),
      apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
      kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
      metadata: { ...definitionRef(OBJECT_META), description: "Standard object's metadata." },
    },
    'x-kubernetes-group-version-kind': [{ group, version, kind: names.kind }],
  };
  const list: Schema = {
    type: 'object',
    description: `${listKind} is a list of ${names.kind}`,
    required: ['items'],
    properties: {
      apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
      items: { type: 'array', description: `List of ${names.plural}.`, items: definitionRef(kindName) },
      kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
      metadata: { ...definitionRef(LIST_META), description: "Standard list metadata." },
    },
    'x-kubernetes-group-version-kind': [{ group, version, kind: listKind }],
  };
  return { [kindName]: kind, [customDefinitionName(group, version, listKind)]: list };
}
