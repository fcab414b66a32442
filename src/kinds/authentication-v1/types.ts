import { str, stringArray } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { TypeSet } from '../define/kind-definition.js';
import { ATOMIC, P } from './schema-parts.js';

const DEFINITIONS: Definitions = {
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

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}UserInfo`]: { tags: { username: 1, uid: 2, groups: 3, extra: 4 } },
};

/** UserInfo, which both authentication reviews answer with. */
export const AUTHENTICATION_V1_TYPES: TypeSet = { definitions: DEFINITIONS, fieldNumbers: FIELD_NUMBERS };
