import { arrayOf } from '../../openapi/builders/group-builders.js';
import { definitionRef, type Schema } from '../../openapi/schema.js';

/** Schema pieces several rbac-v1 kinds share. */

export const P = 'io.k8s.api.rbac.v1.';
export const GROUP = 'rbac.authorization.k8s.io';

export const ATOMIC = { 'x-kubernetes-list-type': 'atomic' } as const;

export const RULES = (owner: string): Schema => arrayOf(definitionRef(`${P}PolicyRule`), `The permissions of this ${owner}.`, ATOMIC);
export const SUBJECTS: Schema = arrayOf(definitionRef(`${P}Subject`), 'The users, groups and service accounts the role is granted to.', ATOMIC);
