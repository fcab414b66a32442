import { arrayOf, kindDefinition, LABEL_SELECTOR, listDefinition, ref } from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateClusterRole, validateClusterRoleUpdate } from './role-validation.js';
import { ATOMIC, GROUP, P, RULES } from './schema-parts.js';

const DEFINITIONS: Definitions = {
  [`${P}ClusterRole`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'ClusterRole',
    description: 'ClusterRole is a cluster-wide set of permissions that a RoleBinding or ClusterRoleBinding can grant.',
    properties: {
      aggregationRule: ref(
        `${P}AggregationRule`,
        'When set, the controller computes the rules from the ClusterRoles it selects and overwrites direct edits.',
      ),
      rules: RULES('ClusterRole'),
    },
  }),
  [`${P}ClusterRoleList`]: listDefinition(GROUP, 'v1', 'ClusterRole', `${P}ClusterRole`),
  [`${P}AggregationRule`]: {
    type: 'object',
    description: 'Selects the ClusterRoles whose rules are aggregated into a ClusterRole.',
    properties: {
      clusterRoleSelectors: arrayOf(definitionRef(LABEL_SELECTOR), 'ClusterRoles matching any selector contribute their rules.', ATOMIC),
    },
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.rbac.v1.AggregationRule': { tags: { clusterRoleSelectors: 1 } },
  'io.k8s.api.rbac.v1.ClusterRole': { tags: { metadata: 1, rules: 2, aggregationRule: 3 } },
  'io.k8s.api.rbac.v1.ClusterRoleList': { tags: { metadata: 1, items: 2 } },
};

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
  strategy: { validate: validateClusterRole, validateUpdate: validateClusterRoleUpdate },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
