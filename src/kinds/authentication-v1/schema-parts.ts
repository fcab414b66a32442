import { ref } from '../../openapi/builders/group-builders.js';
import type { Schema } from '../../openapi/schema.js';

/** Schema pieces several authentication-v1 kinds share. */

export const P = 'io.k8s.api.authentication.v1.';
export const GROUP = 'authentication.k8s.io';

export const ATOMIC = { 'x-kubernetes-list-type': 'atomic' } as const;

export const USER_INFO = (description: string): Schema => ref(`${P}UserInfo`, description);
