import { kindDefinition, ref } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { reviewResource } from '../define/resource.js';
import { GROUP, P, USER_INFO } from './schema-parts.js';

const DEFINITIONS: Definitions = {
  [`${P}SelfSubjectReview`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'SelfSubjectReview',
    description: 'SelfSubjectReview returns the user the request was authenticated as, after impersonation.',
    properties: {
      status: ref(`${P}SelfSubjectReviewStatus`, 'Filled in by the server with the requesting user.'),
    },
  }),
  [`${P}SelfSubjectReviewStatus`]: {
    type: 'object',
    description: 'The requesting user, as the server sees it.',
    properties: { userInfo: USER_INFO('The user attributes of the request.') },
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}SelfSubjectReview`]: { tags: { metadata: 1, status: 2 } },
  [`${P}SelfSubjectReviewStatus`]: { tags: { userInfo: 1 } },
};

/** authentication.k8s.io/v1 SelfSubjectReview: who the caller is, as the server authenticated it. */
export const SELF_SUBJECT_REVIEW: KindDefinition = {
  resource: reviewResource('authentication.k8s.io', 'SelfSubjectReview'),
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
