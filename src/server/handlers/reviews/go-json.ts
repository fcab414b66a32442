import { isObject } from '../../../api/types.js';

/**
 * Reviews answer with the Go object the server decoded the body into, re-encoded: fields in struct order,
 * `omitempty` strings, lists and maps left out, structs always present. These helpers rebuild that shape.
 */

export type Json = Record<string, unknown>;

/** Go's `omitempty` on a string, slice, map or bool: the zero value and empty collections are dropped. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === false || value === 0) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && Object.keys(value).length === 0;
}

/** An object of the given fields in order, leaving out the empty ones (all fields `omitempty`). */
export function omitEmpty(fields: readonly (readonly [string, unknown])[]): Json {
  const out: Json = {};
  for (const [key, value] of fields) if (!isEmpty(value)) out[key] = value;
  return out;
}

export const objectAt = (obj: Readonly<Json>, key: string): Json | undefined => {
  const value = obj[key];
  return isObject(value) ? value : undefined;
};

const META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
] as const;

/** ObjectMeta as Go encodes it: creationTimestamp is a struct, so an unset one is written as null. */
export function goObjectMeta(metadata: Readonly<Json>): Json {
  const out: Json = {};
  for (const key of META_ORDER) {
    const value = metadata[key];
    if (key === 'creationTimestamp') out[key] = value ?? null;
    else if (key === 'deletionGracePeriodSeconds' || key === 'deletionTimestamp') {
      if (value !== undefined && value !== null) out[key] = value;
    } else if (!isEmpty(value)) out[key] = value;
  }
  return out;
}

/** metav1.LabelSelectorRequirement / FieldSelectorRequirement: key and operator are always written. */
function requirementJson(requirement: unknown): Json {
  const r = isObject(requirement) ? requirement : {};
  return { key: r.key ?? '', operator: r.operator ?? '', ...omitEmpty([['values', r.values]]) };
}

function selectorJson(selector: Json | undefined): Json | undefined {
  if (selector === undefined) return undefined;
  const requirements = Array.isArray(selector.requirements) ? selector.requirements.map(requirementJson) : undefined;
  return omitEmpty([
    ['rawSelector', selector.rawSelector],
    ['requirements', requirements],
  ]);
}

/** A pointer to a struct is written (even empty) whenever it is set. */
function withStruct(out: Json, key: string, value: Json | undefined): Json {
  if (value !== undefined) out[key] = value;
  return out;
}

export function resourceAttributesJson(attributes: Readonly<Json>): Json {
  const out = omitEmpty(
    ['namespace', 'verb', 'group', 'version', 'resource', 'subresource', 'name'].map((k) => [k, attributes[k]] as const),
  );
  withStruct(out, 'fieldSelector', selectorJson(objectAt(attributes, 'fieldSelector')));
  return withStruct(out, 'labelSelector', selectorJson(objectAt(attributes, 'labelSelector')));
}

export function nonResourceAttributesJson(attributes: Readonly<Json>): Json {
  return omitEmpty([
    ['path', attributes.path],
    ['verb', attributes.verb],
  ]);
}

/** SubjectAccessReviewSpec (subject fields included) or SelfSubjectAccessReviewSpec (`withSubject` false). */
export function accessReviewSpecJson(spec: Readonly<Json>, withSubject: boolean): Json {
  const out: Json = {};
  const resource = objectAt(spec, 'resourceAttributes');
  const nonResource = objectAt(spec, 'nonResourceAttributes');
  withStruct(out, 'resourceAttributes', resource === undefined ? undefined : resourceAttributesJson(resource));
  withStruct(out, 'nonResourceAttributes', nonResource === undefined ? undefined : nonResourceAttributesJson(nonResource));
  if (!withSubject) return out;
  return {
    ...out,
    ...omitEmpty([
      ['user', spec.user],
      ['groups', spec.groups],
      ['extra', spec.extra],
      ['uid', spec.uid],
    ]),
  };
}
