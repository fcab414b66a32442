import { bool, kindDefinition, ref, str, stringArray } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { reviewResource } from '../define/resource.js';
import { ATOMIC, GROUP, P, USER_INFO } from './schema-parts.js';

const DEFINITIONS: Definitions = {
  [`${P}TokenReview`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'TokenReview',
    description: 'TokenReview asks which user, if any, a bearer token authenticates as.',
    properties: {
      spec: ref(`${P}TokenReviewSpec`, 'The token to check.'),
      status: ref(`${P}TokenReviewStatus`, 'Filled in by the server: whether the token authenticates, and as whom.'),
    },
    required: ['spec'],
  }),
  [`${P}TokenReviewSpec`]: {
    type: 'object',
    description: 'The token a TokenReview checks.',
    properties: {
      audiences: stringArray("Audiences the token must be valid for; empty means the API server's own audiences.", ATOMIC),
      token: str('The opaque bearer token.'),
    },
  },
  [`${P}TokenReviewStatus`]: {
    type: 'object',
    description: 'The result of a TokenReview.',
    properties: {
      audiences: stringArray('The requested audiences the token is valid for.', ATOMIC),
      authenticated: bool('Whether the token authenticates a user.'),
      error: str('Why the token could not be checked.'),
      user: USER_INFO('The user the token authenticates as.'),
    },
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}TokenReview`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}TokenReviewSpec`]: { tags: { token: 1, audiences: 2 } },
  [`${P}TokenReviewStatus`]: { tags: { authenticated: 1, user: 2, error: 3, audiences: 4 } },
};

/** authentication.k8s.io/v1 TokenReview: whether a bearer token authenticates, and as whom. */
export const TOKEN_REVIEW: KindDefinition = {
  resource: reviewResource('authentication.k8s.io', 'TokenReview'),
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
