import { int64, kindDefinition, ref, str, stringArray, TIME } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { TypeSet } from '../define/kind-definition.js';
import { ATOMIC, GROUP, P } from './schema-parts.js';

const DEFINITIONS: Definitions = {
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
      audiences: stringArray("The intended audiences of the token; empty means the API server's own.", ATOMIC),
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
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}TokenRequest`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}TokenRequestSpec`]: { tags: { audiences: 1, boundObjectRef: 3, expirationSeconds: 4 } },
  [`${P}BoundObjectReference`]: { tags: { kind: 1, apiVersion: 2, name: 3, uid: 4 } },
  [`${P}TokenRequestStatus`]: { tags: { token: 1, expirationTimestamp: 2 } },
};

/** TokenRequest: the kind of core/v1 serviceaccounts/token, never stored. */
export const TOKEN_REQUEST_TYPES: TypeSet = { definitions: DEFINITIONS, fieldNumbers: FIELD_NUMBERS };
