import type { ControllerManagerOptions } from './manager.js';

type Switch = keyof Pick<
  ControllerManagerOptions,
  | 'garbageCollector'
  | 'namespaceController'
  | 'serviceAccounts'
  | 'clusterRoleAggregation'
  | 'volumeProtection'
  | 'protectionRules'
  | 'replicaSetController'
  | 'replicationController'
  | 'deploymentController'
  | 'statefulSetController'
  | 'daemonSetController'
  | 'jobController'
  | 'cronJobController'
  | 'ttlAfterFinishedController'
  | 'horizontalPodAutoscalerController'
  | 'resourceQuotaController'
  | 'disruptionController'
  | 'endpointsController'
  | 'endpointSliceController'
>;

/**
 * kube-controller-manager's controller names (1.32's canonical `…-controller` names and the older aliases it still
 * accepts), each mapped to the manager option that runs it. The PVC and PV protection controllers share one switch
 * here, so either name turns both off. ProtectionRules are Cascade's own.
 */
const NAMES: Readonly<Record<string, Switch>> = {
  'garbage-collector-controller': 'garbageCollector',
  garbagecollector: 'garbageCollector',
  'garbage-collector': 'garbageCollector',
  'namespace-controller': 'namespaceController',
  namespace: 'namespaceController',
  'serviceaccount-controller': 'serviceAccounts',
  serviceaccount: 'serviceAccounts',
  'clusterrole-aggregation-controller': 'clusterRoleAggregation',
  'clusterrole-aggregation': 'clusterRoleAggregation',
  'persistentvolumeclaim-protection-controller': 'volumeProtection',
  'pvc-protection': 'volumeProtection',
  'persistentvolume-protection-controller': 'volumeProtection',
  'pv-protection': 'volumeProtection',
  'protection-rule-controller': 'protectionRules',
  'replicaset-controller': 'replicaSetController',
  replicaset: 'replicaSetController',
  'replicationcontroller-controller': 'replicationController',
  replicationcontroller: 'replicationController',
  'deployment-controller': 'deploymentController',
  deployment: 'deploymentController',
  'statefulset-controller': 'statefulSetController',
  statefulset: 'statefulSetController',
  'daemonset-controller': 'daemonSetController',
  daemonset: 'daemonSetController',
  'job-controller': 'jobController',
  job: 'jobController',
  'cronjob-controller': 'cronJobController',
  cronjob: 'cronJobController',
  'ttl-after-finished-controller': 'ttlAfterFinishedController',
  'ttl-after-finished': 'ttlAfterFinishedController',
  'horizontal-pod-autoscaler-controller': 'horizontalPodAutoscalerController',
  horizontalpodautoscaling: 'horizontalPodAutoscalerController',
  'resourcequota-controller': 'resourceQuotaController',
  resourcequota: 'resourceQuotaController',
  'disruption-controller': 'disruptionController',
  disruption: 'disruptionController',
  'endpoints-controller': 'endpointsController',
  endpoint: 'endpointsController',
  'endpointslice-controller': 'endpointSliceController',
  endpointslice: 'endpointSliceController',
};

export const KNOWN_CONTROLLER_NAMES: readonly string[] = Object.keys(NAMES);

/**
 * Reads `--controllers` as kube-controller-manager does: a comma-separated list where `*` turns on every controller
 * that is on by default (all of Cascade's are), `name` turns one on and `-name` turns one off; a controller neither
 * named nor covered by `*` is off. Throws on an unknown name.
 */
export function parseControllersFlag(value: string): Partial<Record<Switch, boolean>> {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const all = items.includes('*');
  const result: Partial<Record<Switch, boolean>> = {};
  for (const key of new Set(Object.values(NAMES))) result[key] = all;
  for (const item of items) {
    if (item === '*') continue;
    const off = item.startsWith('-');
    const name = off ? item.slice(1) : item;
    const key = NAMES[name];
    if (key === undefined) throw new Error(`"${name}" is not in the list of known controllers`);
    result[key] = !off;
  }
  return result;
}
