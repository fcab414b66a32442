import { kindDefinition } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { reviewResource } from '../define/resource.js';
import { ACCESS_STATUS, GROUP, P, SUBJECT_SPEC } from './schema-parts.js';

const DEFINITIONS: Definitions = {
  [`${P}LocalSubjectAccessReview`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'LocalSubjectAccessReview',
    description: 'LocalSubjectAccessReview asks whether a user or group may perform an action in one namespace.',
    properties: { spec: SUBJECT_SPEC, status: ACCESS_STATUS },
    required: ['spec'],
  }),
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}LocalSubjectAccessReview`]: { tags: { metadata: 1, spec: 2, status: 3 } },
};

/** authorization.k8s.io/v1 LocalSubjectAccessReview: whether a user may act within the request's namespace. */
export const LOCAL_SUBJECT_ACCESS_REVIEW: KindDefinition = {
  resource: reviewResource('authorization.k8s.io', 'LocalSubjectAccessReview', true),
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
