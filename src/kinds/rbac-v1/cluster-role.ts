import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';

/** rbac.authorization.k8s.io/v1 ClusterRole. */
export const CLUSTER_ROLE: KindDefinition = {
  resource: resourceInfo({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRole',
    plural: 'clusterroles',
    namespaced: false,
    nameFormat: 'path-segment',
  }),
};
