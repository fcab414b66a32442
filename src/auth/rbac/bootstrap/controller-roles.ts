import { bootstrapClusterRole, bootstrapClusterRoleBinding, serviceAccountSubject } from './bootstrap-metadata.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule } from './rbac-types.js';
import { EVENTS_RULE, resourceRule } from './rule-builder.js';

/** Controllers run as service accounts in this namespace, one per controller (--use-service-account-credentials). */
export const CONTROLLER_NAMESPACE = 'kube-system';
/** Kubernetes names a controller's role and binding after its service account with this prefix. */
export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

/** The service account names of the Kubernetes controllers Cascade runs, keyed like ControllerManager's fields. */
export const CONTROLLER_ACCOUNTS = {
  garbageCollector: 'generic-garbage-collector',
  namespaceController: 'namespace-controller',
  clusterRoleAggregation: 'clusterrole-aggregation-controller',
  serviceAccounts: 'service-account-controller',
  pvcProtection: 'pvc-protection-controller',
  pvProtection: 'pv-protection-controller',
  rootCaPublisher: 'root-ca-cert-publisher',
  csrSigning: 'certificate-controller',
  replicaSet: 'replicaset-controller',
  replicationController: 'replication-controller',
  deployment: 'deployment-controller',
  statefulSet: 'statefulset-controller',
  daemonSet: 'daemon-set-controller',
  job: 'job-controller',
  cronJob: 'cronjob-controller',
  ttlAfterFinished: 'ttl-after-finished-controller',
  podGarbageCollector: 'pod-garbage-collector',
  validatingAdmissionPolicyStatus: 'validatingadmissionpolicy-status-controller',
  horizontalPodAutoscaler: 'horizontal-pod-autoscaler',
  resourceQuota: 'resourcequota-controller',
  disruption: 'disruption-controller',
  endpoints: 'endpoint-controller',
  endpointSlice: 'endpointslice-controller',
} as const;

/** Each controller's rules, as in Kubernetes' controller policy. */
const CONTROLLER_RULES: Readonly<Record<keyof typeof CONTROLLER_ACCOUNTS, readonly PolicyRule[]>> = {
  // The collector deletes and un-owns objects of every kind.
  garbageCollector: [resourceRule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']), EVENTS_RULE],
  // Emptying a namespace means deleting whatever it holds, of every kind.
  namespaceController: [
    resourceRule(['get', 'list', 'watch', 'delete'], [''], ['namespaces']),
    resourceRule(['update'], [''], ['namespaces/finalize', 'namespaces/status']),
    resourceRule(['get', 'list', 'watch', 'delete', 'deletecollection'], ['*'], ['*']),
  ],
  // Escalate lets it write rules into aggregated roles that it does not hold itself.
  clusterRoleAggregation: [
    resourceRule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], ['rbac.authorization.k8s.io'], ['clusterroles']),
  ],
  serviceAccounts: [resourceRule(['create'], [''], ['serviceaccounts']), EVENTS_RULE],
  pvcProtection: [
    resourceRule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumeclaims']),
    resourceRule(['update'], [''], ['persistentvolumeclaims/status']),
    resourceRule(['get', 'list', 'watch'], [''], ['pods']),
    EVENTS_RULE,
  ],
  pvProtection: [resourceRule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumes']), EVENTS_RULE],
  rootCaPublisher: [resourceRule(['create', 'update'], [''], ['configmaps']), EVENTS_RULE],
  // Kubernetes' certificate-controller role, less the CSR approver's rules (Cascade approves nothing by itself).
  csrSigning: [
    resourceRule(['get', 'list', 'watch', 'delete'], ['certificates.k8s.io'], ['certificatesigningrequests']),
    resourceRule(['update'], ['certificates.k8s.io'], ['certificatesigningrequests/approval', 'certificatesigningrequests/status']),
    resourceRule(
      ['sign'],
      ['certificates.k8s.io'],
      ['signers'],
      [
        'kubernetes.io/kube-apiserver-client',
        'kubernetes.io/kube-apiserver-client-kubelet',
        'kubernetes.io/kubelet-serving',
        'kubernetes.io/legacy-unknown',
      ],
    ),
    resourceRule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    EVENTS_RULE,
  ],
  replicaSet: [
    resourceRule(['get', 'list', 'watch', 'update'], ['apps', 'extensions'], ['replicasets']),
    resourceRule(['update'], ['apps', 'extensions'], ['replicasets/status']),
    resourceRule(['update'], ['apps', 'extensions'], ['replicasets/finalizers']),
    resourceRule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
    EVENTS_RULE,
  ],
  replicationController: [
    resourceRule(['get', 'list', 'watch', 'update'], [''], ['replicationcontrollers']),
    resourceRule(['update'], [''], ['replicationcontrollers/status']),
    resourceRule(['update'], [''], ['replicationcontrollers/finalizers']),
    resourceRule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
    EVENTS_RULE,
  ],
  deployment: [
    resourceRule(['get', 'list', 'watch', 'update'], ['apps', 'extensions'], ['deployments']),
    resourceRule(['update'], ['apps', 'extensions'], ['deployments/status']),
    resourceRule(['update'], ['apps', 'extensions'], ['deployments/finalizers']),
    resourceRule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], ['apps', 'extensions'], ['replicasets']),
    // The controller reads pods to know when a Recreate rollout may start the new ReplicaSet.
    resourceRule(['get', 'list', 'watch', 'update'], [''], ['pods']),
    EVENTS_RULE,
  ],
  statefulSet: [
    resourceRule(['list', 'watch'], [''], ['pods']),
    resourceRule(['get', 'list', 'watch'], ['apps'], ['statefulsets']),
    resourceRule(['update'], ['apps'], ['statefulsets/status']),
    resourceRule(['update'], ['apps'], ['statefulsets/finalizers']),
    resourceRule(['get', 'create', 'delete', 'update', 'patch'], [''], ['pods']),
    resourceRule(['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'], ['apps'], ['controllerrevisions']),
    resourceRule(['get', 'create'], [''], ['persistentvolumeclaims']),
    // StatefulSetAutoDeletePVC (GA in 1.32): the retention policy's owner references on claims (R12.88).
    resourceRule(['update', 'delete'], [''], ['persistentvolumeclaims']),
    // Not in Kubernetes' role: a scaled-away pod's blocking reference on its claims needs it under
    // OwnerReferencesPermissionEnforcement, which Cascade enables by default and kube-apiserver does not.
    resourceRule(['update'], [''], ['pods/finalizers']),
    EVENTS_RULE,
  ],
  daemonSet: [
    resourceRule(['get', 'list', 'watch'], ['extensions', 'apps'], ['daemonsets']),
    resourceRule(['update'], ['extensions', 'apps'], ['daemonsets/status']),
    resourceRule(['update'], ['extensions', 'apps'], ['daemonsets/finalizers']),
    resourceRule(['list', 'watch'], [''], ['nodes']),
    resourceRule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
    resourceRule(['create'], [''], ['pods/binding']),
    resourceRule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], ['apps'], ['controllerrevisions']),
    EVENTS_RULE,
  ],
  job: [
    resourceRule(['get', 'list', 'watch', 'update', 'patch'], ['batch'], ['jobs']),
    resourceRule(['update'], ['batch'], ['jobs/status']),
    resourceRule(['update'], ['batch'], ['jobs/finalizers']),
    resourceRule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
    EVENTS_RULE,
  ],
  cronJob: [
    resourceRule(['get', 'list', 'watch', 'update'], ['batch'], ['cronjobs']),
    resourceRule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], ['batch'], ['jobs']),
    resourceRule(['update'], ['batch'], ['cronjobs/status']),
    resourceRule(['update'], ['batch'], ['cronjobs/finalizers']),
    resourceRule(['list', 'delete'], [''], ['pods']),
    EVENTS_RULE,
  ],
  ttlAfterFinished: [resourceRule(['get', 'list', 'watch', 'delete'], ['batch'], ['jobs']), EVENTS_RULE],
  podGarbageCollector: [
    resourceRule(['list', 'watch', 'delete'], [''], ['pods']),
    resourceRule(['get', 'list', 'watch'], [''], ['nodes']),
    // Kubernetes' role has patch only; Cascade's in-process client writes status with update.
    resourceRule(['patch', 'update'], [''], ['pods/status']),
  ],
  validatingAdmissionPolicyStatus: [
    resourceRule(['get', 'list', 'watch'], ['admissionregistration.k8s.io'], ['validatingadmissionpolicies']),
    resourceRule(['get', 'patch', 'update'], ['admissionregistration.k8s.io'], ['validatingadmissionpolicies/status']),
  ],
  // The target is read and scaled through its scale subresource, whatever its group.
  horizontalPodAutoscaler: [
    resourceRule(['get', 'list', 'watch'], ['autoscaling'], ['horizontalpodautoscalers']),
    resourceRule(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
    resourceRule(['get', 'update'], ['*'], ['*/scale']),
    resourceRule(['list'], [''], ['pods']),
    EVENTS_RULE,
  ],
  // Usage is counted over whatever a quota names; the quota itself is re-read live before its status is written.
  resourceQuota: [
    resourceRule(['list', 'watch'], ['*'], ['*']),
    resourceRule(['get'], [''], ['resourcequotas']),
    resourceRule(['update'], [''], ['resourcequotas/status']),
    EVENTS_RULE,
  ],
  disruption: [
    resourceRule(['get', 'list', 'watch'], ['apps', 'extensions'], ['deployments', 'replicasets', 'statefulsets']),
    resourceRule(['get', 'list', 'watch'], [''], ['replicationcontrollers', 'pods']),
    resourceRule(['get', 'list', 'watch'], ['policy'], ['poddisruptionbudgets']),
    resourceRule(['update'], ['policy'], ['poddisruptionbudgets/status']),
    EVENTS_RULE,
  ],
  // kube-controller-manager's informers list and watch with its own credentials, not the controller's, so
  // Kubernetes' roles lack `watch` on what the controller writes; Cascade's controllers watch as themselves.
  endpoints: [
    resourceRule(['get', 'list', 'watch'], [''], ['services', 'pods']),
    resourceRule(['get', 'list', 'watch', 'create', 'update', 'delete'], [''], ['endpoints']),
    resourceRule(['create'], [''], ['endpoints/restricted']),
    EVENTS_RULE,
  ],
  endpointSlice: [
    resourceRule(['get', 'list', 'watch'], [''], ['services', 'pods', 'nodes']),
    // A slice's blocking controller reference to its Service needs this (OwnerReferencesPermissionEnforcement).
    resourceRule(['update'], [''], ['services/finalizers']),
    resourceRule(['get', 'list', 'watch', 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices']),
    EVENTS_RULE,
  ],
};

export type KubernetesController = keyof typeof CONTROLLER_ACCOUNTS;

export const KUBERNETES_CONTROLLERS = Object.keys(CONTROLLER_ACCOUNTS) as KubernetesController[];

export function controllerClusterRoles(): ClusterRole[] {
  return KUBERNETES_CONTROLLERS.map((key) =>
    bootstrapClusterRole(CONTROLLER_ROLE_PREFIX + CONTROLLER_ACCOUNTS[key], CONTROLLER_RULES[key]),
  );
}

/** Each controller role bound to its controller's service account. */
export function controllerClusterRoleBindings(): ClusterRoleBinding[] {
  return KUBERNETES_CONTROLLERS.map((key) =>
    bootstrapClusterRoleBinding(CONTROLLER_ROLE_PREFIX + CONTROLLER_ACCOUNTS[key], [
      serviceAccountSubject(CONTROLLER_NAMESPACE, CONTROLLER_ACCOUNTS[key]),
    ]),
  );
}
