import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';

/** rbac.authorization.k8s.io/v1 Role. */
export const ROLE: KindDefinition = {
  resource: resourceInfo({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'Role',
    plural: 'roles',
    namespaced: true,
    nameFormat: 'path-segment',
  }),
};
