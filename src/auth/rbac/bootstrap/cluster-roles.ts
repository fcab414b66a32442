import { SYSTEM_AUTHENTICATED, SYSTEM_MASTERS, SYSTEM_UNAUTHENTICATED } from '../../../api/user.js';
import {
  AGGREGATE_TO_ADMIN,
  AGGREGATE_TO_EDIT,
  AGGREGATE_TO_VIEW,
  bootstrapClusterRole,
  bootstrapClusterRoleBinding,
  groupSubject,
  userSubject,
} from './bootstrap-metadata.js';
import type { ClusterRole, ClusterRoleBinding } from './rbac-types.js';
import { EVENTS_RULE, READ, READ_WRITE, resourceRule, urlRule, WRITE } from './rule-builder.js';

/** The user the kube-controller-manager authenticates as (user.KubeControllerManager). */
export const KUBE_CONTROLLER_MANAGER_USER = 'system:kube-controller-manager';
export const KUBE_SCHEDULER_USER = 'system:kube-scheduler';
/** Members may read the health and metrics endpoints. */
export const SYSTEM_MONITORING_GROUP = 'system:monitoring';
/** The paths system:public-info-viewer lets everyone, anonymous included, GET. */
export const PUBLIC_INFO_URLS: readonly string[] = ['/livez', '/readyz', '/healthz', '/version', '/version/'];

const aggregatedFrom = (label: string) => [{ matchLabels: { [label]: 'true' } }];

/** kube-apiserver's default user-facing cluster roles (bootstrappolicy.ClusterRoles), the subset Cascade ships. */
export function defaultClusterRoles(): ClusterRole[] {
  return [
    bootstrapClusterRole('cluster-admin', [resourceRule(['*'], ['*'], ['*']), urlRule(['*'], ['*'])]),
    bootstrapClusterRole('system:discovery', [
      urlRule(
        ['get'],
        ['/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'],
      ),
    ]),
    bootstrapClusterRole('system:monitoring', [
      urlRule(['get'], ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*']),
    ]),
    bootstrapClusterRole('system:basic-user', [
      resourceRule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      resourceRule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ]),
    bootstrapClusterRole('system:public-info-viewer', [urlRule(['get'], [...PUBLIC_INFO_URLS])]),
    bootstrapClusterRole('admin', [], { aggregateFrom: aggregatedFrom(AGGREGATE_TO_ADMIN) }),
    bootstrapClusterRole('edit', [], { labels: { [AGGREGATE_TO_ADMIN]: 'true' }, aggregateFrom: aggregatedFrom(AGGREGATE_TO_EDIT) }),
    bootstrapClusterRole('view', [], { labels: { [AGGREGATE_TO_EDIT]: 'true' }, aggregateFrom: aggregatedFrom(AGGREGATE_TO_VIEW) }),
    bootstrapClusterRole('system:aggregate-to-admin', aggregateToAdminRules(), { labels: { [AGGREGATE_TO_ADMIN]: 'true' } }),
    bootstrapClusterRole('system:aggregate-to-edit', aggregateToEditRules(), { labels: { [AGGREGATE_TO_EDIT]: 'true' } }),
    bootstrapClusterRole('system:aggregate-to-view', aggregateToViewRules(), { labels: { [AGGREGATE_TO_VIEW]: 'true' } }),
    bootstrapClusterRole(KUBE_CONTROLLER_MANAGER_USER, kubeControllerManagerRules()),
    bootstrapClusterRole(KUBE_SCHEDULER_USER, kubeSchedulerRules()),
  ];
}

/** What `admin` has beyond `edit`: managing who may do what in the namespace. */
function aggregateToAdminRules() {
  return [
    resourceRule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
    resourceRule(READ_WRITE, ['rbac.authorization.k8s.io'], ['roles', 'rolebindings']),
  ];
}

/** What `edit` has beyond `view`: writing workloads, and reading the escalating resources view leaves out. */
function aggregateToEditRules() {
  return [
    resourceRule(READ, [''], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
    resourceRule(['impersonate'], [''], ['serviceaccounts']),
    resourceRule(WRITE, [''], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
    resourceRule(['create'], [''], ['pods/eviction']),
    resourceRule(
      WRITE,
      [''],
      [
        'replicationcontrollers',
        'replicationcontrollers/scale',
        'serviceaccounts',
        'services',
        'services/proxy',
        'persistentvolumeclaims',
        'configmaps',
        'secrets',
        'events',
      ],
    ),
    resourceRule(['create'], [''], ['serviceaccounts/token']),
    resourceRule(
      WRITE,
      ['apps'],
      [
        'statefulsets',
        'statefulsets/scale',
        'daemonsets',
        'deployments',
        'deployments/scale',
        'deployments/rollback',
        'replicasets',
        'replicasets/scale',
      ],
    ),
    resourceRule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
    resourceRule(WRITE, ['batch'], ['jobs', 'cronjobs']),
    resourceRule(
      WRITE,
      ['extensions'],
      [
        'daemonsets',
        'deployments',
        'deployments/scale',
        'deployments/rollback',
        'ingresses',
        'replicasets',
        'replicasets/scale',
        'replicationcontrollers/scale',
        'networkpolicies',
      ],
    ),
    resourceRule(WRITE, ['policy'], ['poddisruptionbudgets']),
    resourceRule(WRITE, ['networking.k8s.io'], ['networkpolicies', 'ingresses']),
    resourceRule(READ_WRITE, ['coordination.k8s.io'], ['leases']),
  ];
}

/** Read access to the namespace's non-escalating content (no secrets, no exec/attach/proxy). */
function aggregateToViewRules() {
  return [
    resourceRule(
      READ,
      [''],
      [
        'pods',
        'replicationcontrollers',
        'replicationcontrollers/scale',
        'serviceaccounts',
        'services',
        'services/status',
        'endpoints',
        'persistentvolumeclaims',
        'persistentvolumeclaims/status',
        'configmaps',
      ],
    ),
    resourceRule(
      READ,
      [''],
      [
        'limitranges',
        'resourcequotas',
        'bindings',
        'events',
        'pods/status',
        'resourcequotas/status',
        'namespaces/status',
        'replicationcontrollers/status',
        'pods/log',
      ],
    ),
    // Reading namespaces at namespace scope means reading *this* namespace: a hint of which ones a user may use.
    resourceRule(READ, [''], ['namespaces']),
    resourceRule(READ, ['discovery.k8s.io'], ['endpointslices']),
    resourceRule(
      READ,
      ['apps'],
      [
        'controllerrevisions',
        'statefulsets',
        'statefulsets/status',
        'statefulsets/scale',
        'daemonsets',
        'daemonsets/status',
        'deployments',
        'deployments/status',
        'deployments/scale',
        'replicasets',
        'replicasets/status',
        'replicasets/scale',
      ],
    ),
    resourceRule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
    resourceRule(READ, ['batch'], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
    resourceRule(
      READ,
      ['extensions'],
      [
        'daemonsets',
        'daemonsets/status',
        'deployments',
        'deployments/scale',
        'deployments/status',
        'ingresses',
        'ingresses/status',
        'replicasets',
        'replicasets/scale',
        'replicasets/status',
        'replicationcontrollers/scale',
        'networkpolicies',
      ],
    ),
    resourceRule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
    resourceRule(READ, ['networking.k8s.io'], ['networkpolicies', 'ingresses', 'ingresses/status']),
  ];
}

/**
 * What the controller manager needs as itself, before it hands work to controllers running under their own
 * service accounts: leader election, creating those accounts and their tokens, and the shared informers.
 */
/** What kube-scheduler reads to place pods and the writes binding them (bootstrappolicy's system:kube-scheduler). */
function kubeSchedulerRules() {
  return [
    EVENTS_RULE,
    resourceRule(['create'], ['coordination.k8s.io'], ['leases']),
    resourceRule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-scheduler']),
    resourceRule(['get', 'list', 'watch'], [''], ['nodes']),
    resourceRule(['delete', 'get', 'list', 'watch'], [''], ['pods']),
    resourceRule(['create'], [''], ['bindings', 'pods/binding']),
    resourceRule(['patch', 'update'], [''], ['pods/status']),
    resourceRule(['list', 'watch'], [''], ['replicationcontrollers', 'services', 'namespaces']),
    resourceRule(['list', 'watch'], ['apps'], ['replicasets', 'statefulsets']),
    resourceRule(['list', 'watch'], ['policy'], ['poddisruptionbudgets']),
    resourceRule(['list', 'watch'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
    resourceRule(['list', 'watch'], ['storage.k8s.io'], ['csinodes', 'csidrivers', 'csistoragecapacities', 'storageclasses']),
  ];
}

function kubeControllerManagerRules() {
  return [
    EVENTS_RULE,
    resourceRule(['create'], ['coordination.k8s.io'], ['leases']),
    resourceRule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-controller-manager']),
    resourceRule(['create'], [''], ['secrets', 'serviceaccounts']),
    resourceRule(['delete'], [''], ['secrets']),
    resourceRule(['get'], [''], ['namespaces', 'secrets', 'serviceaccounts', 'configmaps']),
    resourceRule(['update'], [''], ['secrets', 'serviceaccounts']),
    resourceRule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    resourceRule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    resourceRule(['list', 'watch'], ['*'], ['*']),
    resourceRule(['create'], [''], ['serviceaccounts/token']),
  ];
}

/** kube-apiserver's default bindings of those roles (bootstrappolicy.ClusterRoleBindings), same subset. */
export function defaultClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    bootstrapClusterRoleBinding('cluster-admin', [groupSubject(SYSTEM_MASTERS)]),
    bootstrapClusterRoleBinding('system:monitoring', [groupSubject(SYSTEM_MONITORING_GROUP)]),
    bootstrapClusterRoleBinding('system:discovery', [groupSubject(SYSTEM_AUTHENTICATED)]),
    bootstrapClusterRoleBinding('system:basic-user', [groupSubject(SYSTEM_AUTHENTICATED)]),
    bootstrapClusterRoleBinding('system:public-info-viewer', [groupSubject(SYSTEM_AUTHENTICATED), groupSubject(SYSTEM_UNAUTHENTICATED)]),
    bootstrapClusterRoleBinding(KUBE_CONTROLLER_MANAGER_USER, [userSubject(KUBE_CONTROLLER_MANAGER_USER)]),
    bootstrapClusterRoleBinding(KUBE_SCHEDULER_USER, [userSubject(KUBE_SCHEDULER_USER)]),
  ];
}
