import type { KubeObject } from '../../api/types.js';
import { AUTO_UPDATE_ANNOTATION } from './schema-parts.js';

/**
 * The API Priority and Fairness objects kube-apiserver 1.32 creates at start (apiserver's flowcontrol/bootstrap
 * package): two mandatory FlowSchemas and PriorityLevelConfigurations that are always put back, and the suggested
 * ones a cluster starts with. Specs are written fully defaulted, as the stored objects read.
 */

const meta = (name: string): KubeObject['metadata'] => ({ name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } });

const limited = (shares: number, lendable: number, queues: number, handSize: number): Record<string, unknown> => ({
  type: 'Limited',
  limited: {
    nominalConcurrencyShares: shares,
    lendablePercent: lendable,
    limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } },
  },
});

const level = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
  kind: 'PriorityLevelConfiguration',
  metadata: meta(name),
  spec,
});

type Subject = Record<string, unknown>;
const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemAccounts = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name } }));

const resourceRule = (verbs: string[], apiGroups: string[], resources: string[], clusterScope: boolean): Record<string, unknown> => ({
  verbs,
  apiGroups,
  resources,
  ...(clusterScope ? { clusterScope: true } : {}),
  namespaces: ['*'],
});
const EVERYTHING = {
  resourceRules: [resourceRule(['*'], ['*'], ['*'], true)],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
};

const schema = (
  name: string,
  priorityLevel: string,
  matchingPrecedence: number,
  distinguisher: 'ByUser' | 'ByNamespace' | undefined,
  rule: Record<string, unknown>,
): KubeObject => ({
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
  kind: 'FlowSchema',
  metadata: meta(name),
  spec: {
    priorityLevelConfiguration: { name: priorityLevel },
    matchingPrecedence,
    ...(distinguisher === undefined ? {} : { distinguisherMethod: { type: distinguisher } }),
    rules: [rule],
  },
});

const ALL_USERS = groups('system:unauthenticated', 'system:authenticated');

export const MANDATORY_PRIORITY_LEVELS: readonly KubeObject[] = [
  level('catch-all', { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } }),
  level('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
];

export const SUGGESTED_PRIORITY_LEVELS: readonly KubeObject[] = [
  level('system', limited(30, 33, 64, 6)),
  level('node-high', limited(40, 25, 64, 6)),
  level('leader-election', limited(10, 0, 16, 4)),
  level('workload-high', limited(40, 50, 128, 6)),
  level('workload-low', limited(100, 90, 128, 6)),
  level('global-default', limited(20, 50, 128, 6)),
];

export const MANDATORY_FLOW_SCHEMAS: readonly KubeObject[] = [
  schema('exempt', 'exempt', 1, undefined, { subjects: groups('system:masters'), ...EVERYTHING }),
  schema('catch-all', 'catch-all', 10000, 'ByUser', { subjects: ALL_USERS, ...EVERYTHING }),
];

const LEASES = resourceRule(['get', 'create', 'update'], ['coordination.k8s.io'], ['leases'], false);

export const SUGGESTED_FLOW_SCHEMAS: readonly KubeObject[] = [
  schema('system-nodes', 'system', 500, 'ByUser', { subjects: groups('system:nodes'), ...EVERYTHING }),
  schema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: groups('system:nodes'),
    resourceRules: [
      resourceRule(['*'], [''], ['nodes', 'nodes/status'], true),
      resourceRule(['*'], ['coordination.k8s.io'], ['leases'], false),
    ],
  }),
  schema('probes', 'exempt', 2, undefined, {
    subjects: ALL_USERS,
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
  schema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [...users('system:kube-controller-manager', 'system:kube-scheduler'), ...kubeSystemAccounts('*')],
    resourceRules: [LEASES],
  }),
  schema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: kubeSystemAccounts('*'),
    resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], false), LEASES],
  }),
  schema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [
      ...users('system:kube-controller-manager'),
      ...kubeSystemAccounts('endpoint-controller', 'endpointslicemirroring-controller'),
    ],
    resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints'], false)],
  }),
  schema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', {
    subjects: users('system:kube-controller-manager'),
    ...EVERYTHING,
  }),
  schema('kube-scheduler', 'workload-high', 800, 'ByNamespace', { subjects: users('system:kube-scheduler'), ...EVERYTHING }),
  schema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', { subjects: kubeSystemAccounts('*'), ...EVERYTHING }),
  schema('service-accounts', 'workload-low', 9000, 'ByUser', { subjects: groups('system:serviceaccounts'), ...EVERYTHING }),
  schema('global-default', 'global-default', 9900, 'ByUser', { subjects: ALL_USERS, ...EVERYTHING }),
];

/** The spec a mandatory object must keep, by name. */
export const mandatoryFlowSchemaSpec = (name: string): unknown => MANDATORY_FLOW_SCHEMAS.find((fs) => fs.metadata.name === name)?.spec;
export const mandatoryPriorityLevelSpec = (name: string): unknown =>
  MANDATORY_PRIORITY_LEVELS.find((pl) => pl.metadata.name === name)?.spec;
