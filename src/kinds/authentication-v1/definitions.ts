import type { Definitions, Schema } from '../../openapi/schema.js';
import { bool, kindDefinition, ref, str, stringArray } from '../../openapi/builders/group-builders.js';

/** authentication.k8s.io/v1: TokenReview and SelfSubjectReview. Create-only and never stored, so no List kinds. */

const P = 'io.k8s.api.authentication.v1.';
const GROUP = 'authentication.k8s.io';

const ATOMIC = { 'x-kubernetes-list-type': 'atomic' } as const;

const USER_INFO = (description: string): Schema => ref(`${P}UserInfo`, description);

export const AUTHENTICATION_V1_DEFINITIONS: Definitions = {
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
  [`${P}SelfSubjectReview`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'SelfSubjectReview',
    description: 'SelfSubjectReview returns the user the request was authenticated as, after impersonation.',
    properties: {
      status: ref(`${P}SelfSubjectReviewStatus`, 'Filled in by the server with the requesting user.'),
    },
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
  [`${P}SelfSubjectReviewStatus`]: {
    type: 'object',
    description: 'The requesting user, as the server sees it.',
    properties: { userInfo: USER_INFO('The user attributes of the request.') },
  },
  [`${P}UserInfo`]: {
    type: 'object',
    description: 'The attributes of an authenticated user.',
    properties: {
      extra: {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'string' } },
        description: 'Additional attributes the authenticator reported.',
      },
      groups: stringArray('The groups the user belongs to.', ATOMIC),
      uid: str('A value identifying the user across time, unlike the name which may be reused.'),
      username: str('The name identifying the user among all active users.'),
    },
  },
};
