import { kindDefinition, ref } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { reviewResource } from '../define/resource.js';
import { ACCESS_STATUS, GROUP, P } from './schema-parts.js';

const DEFINITIONS: Definitions = {
  [`${P}SelfSubjectAccessReview`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'SelfSubjectAccessReview',
    description: 'SelfSubjectAccessReview asks whether the requesting user may perform an action; an empty namespace means all namespaces.',
    properties: {
      spec: ref(`${P}SelfSubjectAccessReviewSpec`, 'The request being evaluated; it names no user or groups.'),
      status: ACCESS_STATUS,
    },
    required: ['spec'],
  }),
  [`${P}SelfSubjectAccessReviewSpec`]: {
    type: 'object',
    description: 'The access request to evaluate. Exactly one of resourceAttributes and nonResourceAttributes must be set.',
    properties: {
      nonResourceAttributes: ref(`${P}NonResourceAttributes`, 'A request on a non-resource path.'),
      resourceAttributes: ref(`${P}ResourceAttributes`, 'A request on an API resource.'),
    },
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}SelfSubjectAccessReview`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}SelfSubjectAccessReviewSpec`]: { tags: { resourceAttributes: 1, nonResourceAttributes: 2 } },
};

/** authorization.k8s.io/v1 SelfSubjectAccessReview: whether the caller may act. */
export const SELF_SUBJECT_ACCESS_REVIEW: KindDefinition = {
  resource: reviewResource('authorization.k8s.io', 'SelfSubjectAccessReview'),
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
