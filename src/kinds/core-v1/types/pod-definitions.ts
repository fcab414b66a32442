import {
  arrayOf,
  ATOMIC,
  ATOMIC_STRUCT,
  bool,
  CORE,
  core,
  coreArray,
  int32,
  int64,
  mergeByKey,
  meta,
  object,
  quantityMap,
  str,
  stringArray,
} from '../../../openapi/builders/shorthand.js';
import type { Definitions } from '../../../openapi/schema.js';

/** core/v1 Pod, PodSpec, PodStatus and PodTemplateSpec with their pod-level helper types. */

const POD_SPEC = object(
  'Description of a pod.',
  {
    activeDeadlineSeconds: int64('Seconds the pod may be active on a node, relative to its start time, before the system fails it.'),
    affinity: core('Affinity', 'Scheduling constraints of the pod.'),
    automountServiceAccountToken: bool('Whether a service account token is mounted automatically.'),
    containers: coreArray('Container', 'Containers of the pod; at least one. Cannot currently be added or removed.', mergeByKey('name')),
    dnsConfig: core('PodDNSConfig', 'DNS parameters merged into the configuration generated from dnsPolicy.'),
    dnsPolicy: str('DNS policy of the pod. Defaults to ClusterFirst.', {
      enum: ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'],
    }),
    enableServiceLinks: bool('Whether service information is injected as environment variables. Defaults to true.'),
    ephemeralContainers: coreArray(
      'EphemeralContainer',
      'Ephemeral containers run in this pod for user-initiated activities such as debugging; added via a subresource.',
      mergeByKey('name'),
    ),
    hostAliases: coreArray('HostAlias', 'Hosts and IPs injected into the pod’s hosts file.', mergeByKey('ip')),
    hostIPC: bool('Use the host’s IPC namespace. Defaults to false.'),
    hostNetwork: bool('Use the host’s network namespace; ports must then be specified. Defaults to false.'),
    hostPID: bool('Use the host’s PID namespace. Defaults to false.'),
    hostUsers: bool('Use the host’s user namespace; false creates a new user namespace. Defaults to true.'),
    hostname: str('Hostname of the pod; defaults to a system-defined value.'),
    imagePullSecrets: coreArray(
      'LocalObjectReference',
      'Secrets in the same namespace used to pull the images of this pod.',
      mergeByKey('name'),
    ),
    initContainers: coreArray(
      'Container',
      'Containers run in order to completion before the app containers start; restartPolicy Always makes sidecars.',
      mergeByKey('name'),
    ),
    nodeName: str('Node the pod is bound to; setting it bypasses the scheduler.'),
    nodeSelector: {
      description: 'Labels a node must carry for the pod to be scheduled onto it.',
      type: 'object',
      additionalProperties: { type: 'string' },
      ...ATOMIC_STRUCT,
    },
    os: core('PodOS', 'Operating system of the containers; restricts the allowed fields.'),
    overhead: quantityMap('Resource overhead of running the pod on its runtime class, set by admission.'),
    preemptionPolicy: str('Policy for preempting lower-priority pods. Defaults to PreemptLowerPriority.', {
      enum: ['Never', 'PreemptLowerPriority'],
    }),
    priority: int32('Priority value, populated from priorityClassName by admission.'),
    priorityClassName: str('Priority class of the pod, e.g. "system-node-critical".'),
    readinessGates: coreArray(
      'PodReadinessGate',
      'Extra conditions that must be True in status.conditions for the pod to be ready.',
      ATOMIC,
    ),
    resourceClaims: coreArray(
      'PodResourceClaim',
      'Dynamic resource claims the pod needs, referenced by name from containers.',
      mergeByKey('name', ['name'], 'merge,retainKeys'),
    ),
    resources: core('ResourceRequirements', 'Total resources for the pod as a whole (pod-level resources).'),
    restartPolicy: str('Restart policy of all containers: Always, OnFailure or Never. Defaults to Always.', {
      enum: ['Always', 'Never', 'OnFailure'],
    }),
    runtimeClassName: str('RuntimeClass used to run this pod.'),
    schedulerName: str('Scheduler that dispatches the pod; the default scheduler when empty.'),
    schedulingGates: coreArray(
      'PodSchedulingGate',
      'Gates that block scheduling while present; they can only be removed.',
      mergeByKey('name'),
    ),
    securityContext: core('PodSecurityContext', 'Pod-level security attributes and common container settings.'),
    serviceAccount: str('Deprecated alias for serviceAccountName.'),
    serviceAccountName: str('Name of the ServiceAccount used to run this pod.'),
    setHostnameAsFQDN: bool('Whether the hostname is set to the pod’s FQDN. Defaults to false.'),
    shareProcessNamespace: bool('Share a single process namespace between all containers. Defaults to false.'),
    subdomain: str('Makes the pod FQDN "<hostname>.<subdomain>.<namespace>.svc.<cluster domain>".'),
    terminationGracePeriodSeconds: int64('Seconds the pod needs to terminate gracefully; 0 means stop immediately. Defaults to 30.'),
    tolerations: coreArray('Toleration', 'Tolerations of the pod.', ATOMIC),
    topologySpreadConstraints: coreArray(
      'TopologySpreadConstraint',
      'How a group of pods spreads across topology domains.',
      mergeByKey('topologyKey', ['topologyKey', 'whenUnsatisfiable']),
    ),
    volumes: coreArray('Volume', 'Volumes that containers of the pod can mount.', mergeByKey('name', ['name'], 'merge,retainKeys')),
  },
  { required: ['containers'] },
);

export const CORE_V1_POD_DEFINITIONS: Definitions = {
  [`${CORE}PodSpec`]: POD_SPEC,
  [`${CORE}PodTemplateSpec`]: object('Data a pod should have when created from a template.', {
    metadata: meta('ObjectMeta', "Standard object's metadata."),
    spec: core('PodSpec', 'Desired behaviour of the pod.'),
  }),
  [`${CORE}PodSecurityContext`]: object('Pod-level security attributes and common container settings.', {
    appArmorProfile: core('AppArmorProfile', 'AppArmor options for the containers.'),
    fsGroup: int64('Supplemental group applied to all containers; owns the files of supporting volumes.'),
    fsGroupChangePolicy: str('How ownership and permissions of volumes are changed: OnRootMismatch or Always.', {
      enum: ['Always', 'OnRootMismatch'],
    }),
    runAsGroup: int64('GID to run the entrypoint of the container processes.'),
    runAsNonRoot: bool('Require containers to run as a non-root user.'),
    runAsUser: int64('UID to run the entrypoint of the container processes.'),
    seLinuxChangePolicy: str('How the SELinux label is applied to volumes: Recursive or MountOption.'),
    seLinuxOptions: core('SELinuxOptions', 'SELinux context applied to all containers.'),
    seccompProfile: core('SeccompProfile', 'Seccomp options for the containers.'),
    supplementalGroups: arrayOf(
      { type: 'integer', format: 'int64' },
      'Groups added to the first process of each container, besides its primary GID.',
      ATOMIC,
    ),
    supplementalGroupsPolicy: str('How supplemental groups of the first processes are calculated: Merge or Strict.'),
    sysctls: coreArray('Sysctl', 'Namespaced sysctls used for the pod.', ATOMIC),
    windowsOptions: core('WindowsSecurityContextOptions', 'Windows-specific settings for all containers.'),
  }),
  [`${CORE}Sysctl`]: object(
    'A kernel parameter to set.',
    { name: str('Name of the property.'), value: str('Value of the property.') },
    { required: ['name', 'value'] },
  ),
  [`${CORE}Toleration`]: object('Lets a pod tolerate any taint that matches the triple <key,value,effect> using the operator.', {
    effect: str('Taint effect to match; empty matches all effects.', {
      enum: ['NoExecute', 'NoSchedule', 'PreferNoSchedule'],
    }),
    key: str('Taint key the toleration applies to; empty with operator Exists matches all taints.'),
    operator: str('Relation of key to value: Exists or Equal. Defaults to Equal.', { enum: ['Equal', 'Exists'] }),
    tolerationSeconds: int64('For NoExecute taints, how long the pod stays bound once the taint appears.'),
    value: str('Taint value to match; empty when the operator is Exists.'),
  }),
  [`${CORE}HostAlias`]: object(
    'Mapping between an IP and hostnames injected into the pod’s hosts file.',
    {
      hostnames: stringArray('Hostnames for the IP address.'),
      ip: str('IP address of the host file entry.'),
    },
    { required: ['ip'] },
  ),
  [`${CORE}PodDNSConfig`]: object('DNS parameters of a pod besides those generated from dnsPolicy.', {
    nameservers: stringArray('DNS name server IPs, appended to the generated ones.'),
    options: coreArray('PodDNSConfigOption', 'DNS resolver options, merged with the generated ones.', ATOMIC),
    searches: stringArray('DNS search domains, appended to the generated ones.'),
  }),
  [`${CORE}PodDNSConfigOption`]: object('A DNS resolver option of a pod.', {
    name: str('Name of the option; required.'),
    value: str('Value of the option.'),
  }),
  [`${CORE}PodReadinessGate`]: object(
    'Reference to a pod condition.',
    { conditionType: str('Condition type in the pod’s condition list.') },
    { required: ['conditionType'] },
  ),
  [`${CORE}TopologySpreadConstraint`]: object(
    'How to spread matching pods among a given topology.',
    {
      labelSelector: meta('LabelSelector', 'Finds the matching pods counted per topology domain.'),
      matchLabelKeys: stringArray('Pod label keys whose values are added to labelSelector for spreading.'),
      maxSkew: int32('Maximum permitted difference in matching pods between topology domains.'),
      minDomains: int32('Minimum number of eligible domains.'),
      nodeAffinityPolicy: str('Whether nodeAffinity/nodeSelector are honoured in skew calculations: Honor or Ignore.'),
      nodeTaintsPolicy: str('Whether node taints are honoured in skew calculations: Honor or Ignore.'),
      topologyKey: str('Node label key defining the topology domains.'),
      whenUnsatisfiable: str('What to do when the constraint cannot be satisfied.', {
        enum: ['DoNotSchedule', 'ScheduleAnyway'],
      }),
    },
    { required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'] },
  ),
  [`${CORE}PodOS`]: object(
    'Operating system of a pod.',
    { name: str('Name of the operating system: linux or windows.') },
    { required: ['name'] },
  ),
  [`${CORE}PodSchedulingGate`]: object(
    'A gate that must be removed before the pod is scheduled.',
    { name: str('Name of the gate; unique among the pod’s gates.') },
    { required: ['name'] },
  ),
  [`${CORE}PodResourceClaim`]: object(
    'Reference to one ResourceClaim, by name or through a template.',
    {
      name: str('Identifies this claim inside the pod; a DNS label.'),
      resourceClaimName: str('Name of an existing ResourceClaim in the pod’s namespace.'),
      resourceClaimTemplateName: str('Name of a ResourceClaimTemplate used to generate a claim for this pod.'),
    },
    { required: ['name'] },
  ),
};
