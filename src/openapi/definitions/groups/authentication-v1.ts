import type { Definitions, Schema } from '../../schema.js';
import { bool, int64, kindDefinition, ref, str, stringArray, TIME } from './builders.js';

/**
 * authentication.k8s.io/v1: TokenReview, SelfSubjectReview and TokenRequest (serviceaccounts/token). Create-only and
 * never stored, so no List kinds.
 */

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
  [`${P}TokenRequest`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'TokenRequest',
    description: 'TokenRequest requests a token for a given service account.',
    properties: {
      spec: ref(`${P}TokenRequestSpec`, 'Spec holds information about the request being evaluated'),
      status: ref(`${P}TokenRequestStatus`, 'Status is filled in by the server and indicates whether the token can be authenticated.'),
    },
    required: ['spec'],
  }),
  [`${P}TokenRequestSpec`]: {
    type: 'object',
    description: 'TokenRequestSpec contains client provided parameters of a token request.',
    properties: {
      audiences: stringArray('The intended audiences of the token; empty means the API server\'s own.', ATOMIC),
      boundObjectRef: ref(`${P}BoundObjectReference`, 'The object the token is bound to: it is valid only as long as that object exists.'),
      expirationSeconds: int64('The requested duration of validity of the token, in seconds.'),
    },
    required: ['audiences'],
  },
  [`${P}BoundObjectReference`]: {
    type: 'object',
    description: 'BoundObjectReference is a reference to an object that a token is bound to.',
    properties: {
      apiVersion: str('API version of the referent.'),
      kind: str("Kind of the referent. Valid kinds are 'Pod' and 'Secret'."),
      name: str('Name of the referent.'),
      uid: str('UID of the referent.'),
    },
  },
  [`${P}TokenRequestStatus`]: {
    type: 'object',
    description: 'TokenRequestStatus is the result of a token request.',
    properties: {
      expirationTimestamp: ref(TIME, 'The time of expiration of the returned token.'),
      token: str('The opaque bearer token.'),
    },
    required: ['token', 'expirationTimestamp'],
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
