import { isObject, type KubeObject, objects } from '../../api/types.js';
import {
  arrayOf,
  bool,
  int32,
  kindDefinition,
  listDefinition,
  mergeMapList,
  ref,
  str,
  stringArray,
} from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { validateFlowSchema, validateFlowSchemaStatusUpdate } from './flow-schema-validation.js';
import { flowcontrolCondition, GROUP, P } from './schema-parts.js';
import { specOf } from '../../api/json-fields.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const plRefNameDoc = '`name` is the name of the priority level configuration being referenced Required.';
const matchingPrecedenceDoc =
  '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.';
const distinguisherMethodDoc =
  '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.';

const DEFAULT_MATCHING_PRECEDENCE = 1000;

/** SetDefaults_FlowSchemaSpec: an unset (zero) precedence becomes 1000. */
function defaultFlowSchema(fs: KubeObject): void {
  if (!isObject(fs.spec)) return;
  if (typeof fs.spec.matchingPrecedence !== 'number' || fs.spec.matchingPrecedence === 0)
    fs.spec.matchingPrecedence = DEFAULT_MATCHING_PRECEDENCE;
}

const precedenceOf = (fs: KubeObject): number => {
  const p = specOf(fs).matchingPrecedence;
  return typeof p === 'number' ? Math.trunc(p) : 0;
};

/** The MissingPL cell: the Dangling condition's status, "?" until the apiserver has looked. */
function missingPriorityLevel(fs: KubeObject): string {
  const conditions = objects(isObject(fs.status) ? fs.status.conditions : undefined);
  const dangling = conditions.find((c) => c.type === 'Dangling');
  return dangling === undefined ? '?' : typeof dangling.status === 'string' ? dangling.status : '';
}

const listAtomic = { 'x-kubernetes-list-type': 'atomic' } as const;
const listSet = { 'x-kubernetes-list-type': 'set' } as const;

const DEFINITIONS: Definitions = {
  [`${P}FlowSchema`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'FlowSchema',
    description: 'FlowSchema sorts requests into flows and assigns them to a priority level (API Priority and Fairness).',
    properties: {
      spec: ref(`${P}FlowSchemaSpec`, 'Which requests the schema matches and where it sends them.'),
      status: ref(`${P}FlowSchemaStatus`, 'What the apiserver last observed about the schema.'),
    },
  }),
  [`${P}FlowSchemaList`]: listDefinition(GROUP, 'v1', 'FlowSchema', `${P}FlowSchema`),
  [`${P}FlowSchemaSpec`]: {
    type: 'object',
    description: 'The matching rules of a FlowSchema and the priority level they lead to.',
    properties: {
      distinguisherMethod: ref(`${P}FlowDistinguisherMethod`, 'How requests are split into flows; absent means one flow.'),
      matchingPrecedence: int32('Lower values are considered first, 1 to 10000; defaults to 1000.'),
      priorityLevelConfiguration: ref(`${P}PriorityLevelConfigurationReference`, 'The priority level matching requests go to.'),
      rules: arrayOf(definitionRef(`${P}PolicyRulesWithSubjects`), 'A request matches the schema when it matches any rule.', listAtomic),
    },
    required: ['priorityLevelConfiguration'],
  },
  [`${P}FlowSchemaStatus`]: {
    type: 'object',
    description: 'Observed state of a FlowSchema.',
    properties: {
      conditions: mergeMapList(definitionRef(`${P}FlowSchemaCondition`), 'type', 'Current conditions, such as Dangling.'),
    },
  },
  [`${P}FlowSchemaCondition`]: flowcontrolCondition('A condition of a FlowSchema.'),
  [`${P}FlowDistinguisherMethod`]: {
    type: 'object',
    description: 'How a flow distinguisher is computed.',
    properties: { type: str('ByUser or ByNamespace.') },
    required: ['type'],
  },
  [`${P}PriorityLevelConfigurationReference`]: {
    type: 'object',
    description: 'Names the priority level a FlowSchema uses.',
    properties: { name: str('Name of the PriorityLevelConfiguration.') },
    required: ['name'],
  },
  [`${P}PolicyRulesWithSubjects`]: {
    type: 'object',
    description: 'Requests match when their subject matches a subject and their target matches a rule.',
    properties: {
      nonResourceRules: arrayOf(definitionRef(`${P}NonResourcePolicyRule`), 'Rules on verb and non-resource URL.', listAtomic),
      resourceRules: arrayOf(definitionRef(`${P}ResourcePolicyRule`), 'Rules on verb and resource.', listAtomic),
      subjects: arrayOf(definitionRef(`${P}Subject`), 'The users, groups or service accounts the rules apply to.', listAtomic),
    },
    required: ['subjects'],
  },
  [`${P}Subject`]: {
    type: 'object',
    description: 'One user, group or service account; kind says which member is set.',
    properties: {
      group: ref(`${P}GroupSubject`, 'Set when kind is Group.'),
      kind: str('User, Group or ServiceAccount.'),
      serviceAccount: ref(`${P}ServiceAccountSubject`, 'Set when kind is ServiceAccount.'),
      user: ref(`${P}UserSubject`, 'Set when kind is User.'),
    },
    required: ['kind'],
    'x-kubernetes-unions': [
      { discriminator: 'kind', 'fields-to-discriminateBy': { group: 'Group', serviceAccount: 'ServiceAccount', user: 'User' } },
    ],
  },
  [`${P}UserSubject`]: {
    type: 'object',
    description: 'A user, by name ("*" for all).',
    properties: { name: str('User name.') },
    required: ['name'],
  },
  [`${P}GroupSubject`]: { type: 'object', description: 'A group, by name.', properties: { name: str('Group name.') }, required: ['name'] },
  [`${P}ServiceAccountSubject`]: {
    type: 'object',
    description: 'A service account, by namespace and name ("*" for every one in the namespace).',
    properties: { name: str('Service account name.'), namespace: str('Service account namespace.') },
    required: ['namespace', 'name'],
  },
  [`${P}ResourcePolicyRule`]: {
    type: 'object',
    description: 'Matches resource requests by verb, API group, resource and namespace.',
    properties: {
      apiGroups: stringArray('API groups, or "*".', listSet),
      clusterScope: bool('Whether requests on cluster-scoped resources match.'),
      namespaces: stringArray('Namespaces of namespaced requests, or "*".', listSet),
      resources: stringArray('Resources (with "/subresource"), or "*".', listSet),
      verbs: stringArray('Verbs, or "*".', listSet),
    },
    required: ['verbs', 'apiGroups', 'resources'],
  },
  [`${P}NonResourcePolicyRule`]: {
    type: 'object',
    description: 'Matches non-resource requests by verb and URL path.',
    properties: {
      nonResourceURLs: stringArray('URL paths; a trailing "/*" matches a prefix, "*" every path.', listSet),
      verbs: stringArray('Verbs, or "*".', listSet),
    },
    required: ['verbs', 'nonResourceURLs'],
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}FlowSchema`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}FlowSchemaList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}FlowSchemaSpec`]: { tags: { priorityLevelConfiguration: 1, matchingPrecedence: 2, distinguisherMethod: 3, rules: 4 } },
  [`${P}FlowSchemaStatus`]: { tags: { conditions: 1 } },
  [`${P}FlowSchemaCondition`]: { tags: { type: 1, status: 2, lastTransitionTime: 3, reason: 4, message: 5 } },
  [`${P}FlowDistinguisherMethod`]: { tags: { type: 1 } },
  [`${P}PriorityLevelConfigurationReference`]: { tags: { name: 1 } },
  [`${P}PolicyRulesWithSubjects`]: { tags: { subjects: 1, resourceRules: 2, nonResourceRules: 3 } },
  [`${P}Subject`]: { tags: { kind: 1, user: 2, group: 3, serviceAccount: 4 } },
  [`${P}UserSubject`]: { tags: { name: 1 } },
  [`${P}GroupSubject`]: { tags: { name: 1 } },
  [`${P}ServiceAccountSubject`]: { tags: { namespace: 1, name: 2 } },
  [`${P}ResourcePolicyRule`]: { tags: { verbs: 1, apiGroups: 2, resources: 3, clusterScope: 4, namespaces: 5 } },
  [`${P}NonResourcePolicyRule`]: { tags: { verbs: 1, nonResourceURLs: 6 } },
};

/** flowcontrol.apiserver.k8s.io/v1 FlowSchema. */
export const FLOW_SCHEMA: KindDefinition = {
  resource: resourceInfo({
    group: GROUP,
    version: 'v1',
    kind: 'FlowSchema',
    plural: 'flowschemas',
    namespaced: false,
    subresources: [STATUS],
  }),
  strategy: {
    specGeneration: true,
    initialStatus: () => ({}),
    defaults: defaultFlowSchema,
    validate: validateFlowSchema,
    validateUpdate: (next) => validateFlowSchema(next),
    validateStatusUpdate: (next) => validateFlowSchemaStatusUpdate(next),
  },
  printer: {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('PriorityLevel', 'string', plRefNameDoc),
      column('MatchingPrecedence', 'string', matchingPrecedenceDoc),
      column('DistinguisherMethod', 'string', distinguisherMethodDoc),
      AGE_COLUMN,
      column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
    ],
    row: (fs, now) => {
      const spec = specOf(fs);
      const pl = isObject(spec.priorityLevelConfiguration) ? spec.priorityLevelConfiguration.name : '';
      const method = isObject(spec.distinguisherMethod) ? spec.distinguisherMethod.type : '<none>';
      return [
        fs.metadata.name ?? '',
        typeof pl === 'string' ? pl : '',
        precedenceOf(fs),
        typeof method === 'string' ? method : '',
        age(fs.metadata.creationTimestamp, now),
        missingPriorityLevel(fs),
      ];
    },
    // printFlowSchemaList prints in matching order: precedence, then name.
    listOrder: (a, b) => precedenceOf(a) - precedenceOf(b) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1),
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
