import { arrayOf, bool, ref, str } from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { TypeSet } from '../define/kind-definition.js';
import { ATOMIC, atomicStrings, META, P } from './schema-parts.js';

const DEFINITIONS: Definitions = {
  [`${P}SubjectAccessReviewSpec`]: {
    type: 'object',
    description: 'The access request to evaluate. Exactly one of resourceAttributes and nonResourceAttributes must be set.',
    properties: {
      extra: {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'string' } },
        description: 'Extra attributes of the user, as an authenticator would report them.',
      },
      groups: atomicStrings('The groups to evaluate the request for.'),
      nonResourceAttributes: ref(`${P}NonResourceAttributes`, 'A request on a non-resource path.'),
      resourceAttributes: ref(`${P}ResourceAttributes`, 'A request on an API resource.'),
      uid: str('UID of the user to evaluate the request for.'),
      user: str('The user to evaluate the request for; without groups it is taken to belong to no group.'),
    },
  },
  [`${P}ResourceAttributes`]: {
    type: 'object',
    description: 'Authorization attributes of a request on an API resource.',
    properties: {
      fieldSelector: ref(`${P}FieldSelectorAttributes`, 'Limits the access asked about to objects matching a field selector.'),
      group: str('API group of the resource; "*" means all.'),
      labelSelector: ref(`${P}LabelSelectorAttributes`, 'Limits the access asked about to objects matching a label selector.'),
      name: str('Name of the object; empty means all.'),
      namespace: str('Namespace of the request; empty means all namespaces (or a cluster-scoped resource).'),
      resource: str('The resource (plural); "*" means all.'),
      subresource: str('The subresource; empty means none.'),
      verb: str('API verb such as get, list, watch, create, update, delete; "*" means all.'),
      version: str('API version of the resource; "*" means all.'),
    },
  },
  [`${P}NonResourceAttributes`]: {
    type: 'object',
    description: 'Authorization attributes of a request on a non-resource path.',
    properties: {
      path: str('URL path of the request.'),
      verb: str('Lower-case HTTP verb of the request.'),
    },
  },
  [`${P}FieldSelectorAttributes`]: {
    type: 'object',
    description: 'A field selector limiting an access review: either rawSelector or requirements, not both.',
    properties: {
      rawSelector: str('The selector as it would appear in a fieldSelector query parameter.'),
      requirements: arrayOf(definitionRef(`${META}FieldSelectorRequirement`), 'The parsed requirements; all must match.', ATOMIC),
    },
  },
  [`${P}LabelSelectorAttributes`]: {
    type: 'object',
    description: 'A label selector limiting an access review: either rawSelector or requirements, not both.',
    properties: {
      rawSelector: str('The selector as it would appear in a labelSelector query parameter.'),
      requirements: arrayOf(definitionRef(`${META}LabelSelectorRequirement`), 'The parsed requirements; all must match.', ATOMIC),
    },
  },
  // A meta/v1 type that only the access reviews use, so it is defined beside them.
  [`${META}FieldSelectorRequirement`]: {
    type: 'object',
    description: 'A field selector requirement: a key, an operator and the values it applies to.',
    properties: {
      key: str('The field selector key.'),
      operator: str('How the key relates to the values: In, NotIn, Exists or DoesNotExist.'),
      values: atomicStrings('The values; non-empty for In and NotIn, empty for Exists and DoesNotExist.'),
    },
    required: ['key', 'operator'],
  },
  [`${P}SubjectAccessReviewStatus`]: {
    type: 'object',
    description: 'The answer to an access review.',
    properties: {
      allowed: bool('Whether the action would be allowed.'),
      denied: bool('Whether an authorizer explicitly denied the action; never true together with allowed.'),
      evaluationError: str('An error met while evaluating; the answer may still be meaningful.'),
      reason: str('Why the action is allowed or denied.'),
    },
    required: ['allowed'],
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}SubjectAccessReviewSpec`]: {
    tags: { resourceAttributes: 1, nonResourceAttributes: 2, user: 3, groups: 4, extra: 5, uid: 6 },
  },
  [`${P}ResourceAttributes`]: {
    tags: { namespace: 1, verb: 2, group: 3, version: 4, resource: 5, subresource: 6, name: 7, fieldSelector: 8, labelSelector: 9 },
  },
  [`${P}NonResourceAttributes`]: { tags: { path: 1, verb: 2 } },
  [`${P}FieldSelectorAttributes`]: { tags: { rawSelector: 1, requirements: 2 } },
  [`${P}LabelSelectorAttributes`]: { tags: { rawSelector: 1, requirements: 2 } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement': { tags: { key: 1, operator: 2, values: 3 } },
  [`${P}SubjectAccessReviewStatus`]: { tags: { allowed: 1, reason: 2, evaluationError: 3, denied: 4 } },
};

/** Types the access reviews share: the request attributes a review asks about and its answer. */
export const AUTHORIZATION_V1_TYPES: TypeSet = { definitions: DEFINITIONS, fieldNumbers: FIELD_NUMBERS };
