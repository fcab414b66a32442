import { isObject, type KubeObject } from '../../api/types.js';
import {
  arrayOf,
  ATOMIC,
  bool,
  CORE,
  core,
  coreArray,
  coreKind,
  int32,
  int64,
  mergeByKey,
  object,
  quantityMap,
  str,
  time,
} from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import { fieldAt, flagAttr, notSupported, textAttr } from '../define/field-selectors.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { POD_PRINTER } from './pod-printer.js';
import { specOf } from './types/defaulting.js';
import { defaultPod, qosClass } from './types/pod-defaults.js';
import { validatePodCreate, validatePodStatusUpdate, validatePodUpdate } from './types/pod-validation/pod-object.js';
import { podWarnings } from './types/pod-validation/warnings.js';

function podGracePeriod(obj: KubeObject, requested: number | undefined): number {
  const s = specOf(obj);
  const phase = isObject(obj.status) ? obj.status.phase : undefined;
  // R2.17: an unscheduled or finished pod has nothing to wait for.
  if (typeof s.nodeName !== 'string' || s.nodeName === '' || phase === 'Succeeded' || phase === 'Failed') return 0;
  if (requested !== undefined) return requested;
  return typeof s.terminationGracePeriodSeconds === 'number' ? s.terminationGracePeriodSeconds : 30;
}

function podFields(obj: KubeObject): Record<string, string> {
  const podIPs = fieldAt(obj, 'status', 'podIPs');
  const firstIP =
    Array.isArray(podIPs) && podIPs.length > 0 ? textAttr(fieldAt(podIPs[0], 'ip')) : textAttr(fieldAt(obj, 'status', 'podIP'));
  return {
    'spec.nodeName': textAttr(fieldAt(obj, 'spec', 'nodeName')),
    'spec.restartPolicy': textAttr(fieldAt(obj, 'spec', 'restartPolicy')),
    'spec.schedulerName': textAttr(fieldAt(obj, 'spec', 'schedulerName')),
    'spec.serviceAccountName': textAttr(fieldAt(obj, 'spec', 'serviceAccountName')),
    'spec.hostNetwork': flagAttr(fieldAt(obj, 'spec', 'hostNetwork')),
    'status.phase': textAttr(fieldAt(obj, 'status', 'phase')),
    'status.podIP': firstIP,
    'status.nominatedNodeName': textAttr(fieldAt(obj, 'status', 'nominatedNodeName')),
  };
}

const POD_TYPES = coreKind({
  kind: 'Pod',
  description: 'Collection of containers that run together on a host, created by clients and scheduled onto nodes.',
  properties: {
    spec: core('PodSpec', 'Desired behaviour of the pod.'),
    status: core('PodStatus', 'Most recently observed status of the pod; may lag behind. Read-only.'),
  },
  listDescription: 'List of Pods.',
  itemsDescription: 'The pods.',
});

const POD_STATUS = object('Information about the status of a pod; may trail the actual state.', {
  conditions: coreArray('PodCondition', 'Current service state of the pod.', mergeByKey('type')),
  containerStatuses: coreArray('ContainerStatus', 'Status of each container in the manifest.', ATOMIC),
  ephemeralContainerStatuses: coreArray('ContainerStatus', 'Status of each ephemeral container.', ATOMIC),
  hostIP: str('Primary IP of the host the pod is assigned to.'),
  hostIPs: coreArray('HostIP', 'IPs of the host; the first equals hostIP.', {
    'x-kubernetes-list-type': 'atomic',
    'x-kubernetes-patch-merge-key': 'ip',
    'x-kubernetes-patch-strategy': 'merge',
  }),
  initContainerStatuses: coreArray('ContainerStatus', 'Status of each init container.', ATOMIC),
  message: str('Human readable message on why the pod is in its condition.'),
  nominatedNodeName: str('Node the pod may be scheduled onto once preempted victims are gone.'),
  phase: str('High-level summary of where the pod is in its lifecycle.', {
    enum: ['Failed', 'Pending', 'Running', 'Succeeded', 'Unknown'],
  }),
  podIP: str('Primary IP allocated to the pod.'),
  podIPs: coreArray('PodIP', 'IPs allocated to the pod; the first equals podIP.', mergeByKey('ip')),
  qosClass: str('Quality of Service class derived from the resource requirements.', {
    enum: ['BestEffort', 'Burstable', 'Guaranteed'],
  }),
  reason: str('Brief CamelCase reason for the pod’s state, e.g. "Evicted".'),
  resize: str('Status of a pending resource resize: Proposed, InProgress, Deferred or Infeasible.'),
  resourceClaimStatuses: coreArray(
    'PodResourceClaimStatus',
    'Generated ResourceClaim names for the pod’s resource claims.',
    mergeByKey('name', ['name'], 'merge,retainKeys'),
  ),
  startTime: time('When the kubelet acknowledged the pod, before any image was pulled.'),
});

const CONTAINER_STATUS = object(
  'Details of the current state of one container.',
  {
    allocatedResources: quantityMap('Compute resources allocated to the container by the node.'),
    allocatedResourcesStatus: coreArray(
      'ResourceStatus',
      'Health of the resources allocated to the container, per resource name.',
      mergeByKey('name'),
    ),
    containerID: str('ID of the container, "<type>://<container_id>".'),
    image: str('Image the container is running.'),
    imageID: str('Image ID the container is running.'),
    lastState: core('ContainerState', 'Details of the container’s last termination.'),
    name: str('Name of the container, as in the pod spec.'),
    ready: bool('Whether the container passes its readiness probe.'),
    resources: core('ResourceRequirements', 'Resources actually configured for the running container.'),
    restartCount: int32('Times the container has been restarted.'),
    started: bool('Whether the container has finished its postStart hook and passed its startup probe.'),
    state: core('ContainerState', 'Details of the container’s current condition.'),
    user: core('ContainerUser', 'Identity information of the first process in the container.'),
    volumeMounts: coreArray('VolumeMountStatus', 'Status of the volume mounts.', mergeByKey('mountPath')),
  },
  { required: ['name', 'ready', 'restartCount', 'image', 'imageID'] },
);

const DEFINITIONS: Definitions = {
  ...POD_TYPES,
  [`${CORE}PodStatus`]: POD_STATUS,
  [`${CORE}PodCondition`]: object(
    'State of a pod at one point in time.',
    {
      lastProbeTime: time('Last time the condition was probed.'),
      lastTransitionTime: time('Last time the condition changed from one status to another.'),
      message: str('Human-readable details about the last transition.'),
      reason: str('Unique one-word CamelCase reason for the last transition.'),
      status: str('Status of the condition: True, False or Unknown.'),
      type: str('Type of the condition, e.g. Ready or PodScheduled.'),
    },
    { required: ['type', 'status'] },
  ),
  [`${CORE}ContainerStatus`]: CONTAINER_STATUS,
  [`${CORE}ContainerState`]: object('Possible state of a container; at most one member is set.', {
    running: core('ContainerStateRunning', 'Details about a running container.'),
    terminated: core('ContainerStateTerminated', 'Details about a terminated container.'),
    waiting: core('ContainerStateWaiting', 'Details about a waiting container.'),
  }),
  [`${CORE}ContainerStateRunning`]: object('Running state of a container.', {
    startedAt: time('When the container was last (re)started.'),
  }),
  [`${CORE}ContainerStateTerminated`]: object(
    'Terminated state of a container.',
    {
      containerID: str('Container ID, "<type>://<container_id>".'),
      exitCode: int32('Exit status of the last termination.'),
      finishedAt: time('When the container last terminated.'),
      message: str('Message about the last termination.'),
      reason: str('Brief reason for the last termination.'),
      signal: int32('Signal of the last termination.'),
      startedAt: time('When the previous execution of the container started.'),
    },
    { required: ['exitCode'] },
  ),
  [`${CORE}ContainerStateWaiting`]: object('Waiting state of a container.', {
    message: str('Message about why the container is not yet running.'),
    reason: str('Brief reason the container is not yet running.'),
  }),
  [`${CORE}ContainerUser`]: object('User identity of the first process in a container.', {
    linux: core('LinuxContainerUser', 'Identity on Linux.'),
  }),
  [`${CORE}LinuxContainerUser`]: object(
    'User identity of the first process on Linux.',
    {
      gid: int64('Primary GID.'),
      supplementalGroups: arrayOf({ type: 'integer', format: 'int64' }, 'Supplemental group IDs.', ATOMIC),
      uid: int64('Primary UID.'),
    },
    { required: ['uid', 'gid'] },
  ),
  [`${CORE}ResourceStatus`]: object(
    'Health of the devices behind one resource allocated to a container.',
    {
      name: str('Resource name, as in the container’s resources: a device plugin or DRA resource name.'),
      resources: coreArray('ResourceHealth', 'Health of each device of the resource.', {
        'x-kubernetes-list-map-keys': ['resourceID'],
        'x-kubernetes-list-type': 'map',
      }),
    },
    { required: ['name'] },
  ),
  [`${CORE}ResourceHealth`]: object(
    'Health of one device allocated to a container.',
    {
      health: str('Health of the device: Healthy, Unhealthy or Unknown.'),
      resourceID: str('Unique ID of the device within its resource.'),
    },
    { required: ['resourceID'] },
  ),
  [`${CORE}VolumeMountStatus`]: object(
    'Status of one volume mount.',
    {
      mountPath: str('Path of the mount.'),
      name: str('Name of the volume mount.'),
      readOnly: bool('Whether the mount is read-only.'),
      recursiveReadOnly: str('Whether read-only mounts are recursively read-only: Disabled or Enabled.'),
    },
    { required: ['name', 'mountPath'] },
  ),
  [`${CORE}PodIP`]: object('An IP address allocated to the pod.', { ip: str('The IP address.') }, { required: ['ip'] }),
  [`${CORE}HostIP`]: object('An IP address of the host.', { ip: str('The IP address.') }, { required: ['ip'] }),
  [`${CORE}PodResourceClaimStatus`]: object(
    'Generated ResourceClaim name for one pod resource claim.',
    {
      name: str('Matches the name of an entry in spec.resourceClaims.'),
      resourceClaimName: str('Name of the generated ResourceClaim, if any.'),
    },
    { required: ['name'] },
  ),
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.ContainerState': { tags: { waiting: 1, running: 2, terminated: 3 } },
  'io.k8s.api.core.v1.ContainerStateRunning': { tags: { startedAt: 1 } },
  'io.k8s.api.core.v1.ContainerStateTerminated': {
    tags: { exitCode: 1, signal: 2, reason: 3, message: 4, startedAt: 5, finishedAt: 6, containerID: 7 },
  },
  'io.k8s.api.core.v1.ContainerStateWaiting': { tags: { reason: 1, message: 2 } },
  'io.k8s.api.core.v1.ContainerStatus': {
    tags: {
      name: 1,
      state: 2,
      lastState: 3,
      ready: 4,
      restartCount: 5,
      image: 6,
      imageID: 7,
      containerID: 8,
      started: 9,
      allocatedResources: 10,
      resources: 11,
      volumeMounts: 12,
      user: 13,
      allocatedResourcesStatus: 14,
    },
    pointers: ['started'],
  },
  'io.k8s.api.core.v1.ContainerUser': { tags: { linux: 1 } },
  'io.k8s.api.core.v1.HostIP': { tags: { ip: 1 } },
  'io.k8s.api.core.v1.LinuxContainerUser': { tags: { uid: 1, gid: 2, supplementalGroups: 3 } },
  'io.k8s.api.core.v1.Pod': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.PodCondition': {
    tags: { type: 1, status: 2, lastProbeTime: 3, lastTransitionTime: 4, reason: 5, message: 6 },
  },
  'io.k8s.api.core.v1.PodIP': { tags: { ip: 1 } },
  'io.k8s.api.core.v1.PodList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.PodResourceClaimStatus': {
    tags: { name: 1, resourceClaimName: 2 },
    pointers: ['resourceClaimName'],
  },
  'io.k8s.api.core.v1.PodStatus': {
    tags: {
      phase: 1,
      conditions: 2,
      message: 3,
      reason: 4,
      hostIP: 5,
      podIP: 6,
      startTime: 7,
      containerStatuses: 8,
      qosClass: 9,
      initContainerStatuses: 10,
      nominatedNodeName: 11,
      podIPs: 12,
      ephemeralContainerStatuses: 13,
      resize: 14,
      resourceClaimStatuses: 15,
      hostIPs: 16,
    },
  },
  'io.k8s.api.core.v1.ResourceHealth': { tags: { resourceID: 1, health: 2 } },
  'io.k8s.api.core.v1.ResourceStatus': { tags: { name: 1, resources: 2 } },
  'io.k8s.api.core.v1.VolumeMountStatus': {
    tags: { name: 1, mountPath: 2, readOnly: 3, recursiveReadOnly: 4 },
    pointers: ['recursiveReadOnly'],
  },
};

/** core/v1 Pod: graceful deletion (R2.17), its QoS class, and the field selectors kubelets and kubectl use. */
export const POD: KindDefinition = {
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'Pod',
    plural: 'pods',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: [
      { name: 'binding', verbs: ['create'], kind: 'Binding' },
      { name: 'eviction', verbs: ['create'], group: 'policy', version: 'v1', kind: 'Eviction' },
      { name: 'log', verbs: ['get'] },
      STATUS,
    ],
  }),
  strategy: {
    returnDeletedObject: true,
    defaults: (obj) => defaultPod(specOf(obj)),
    initialStatus: (obj) => ({ phase: 'Pending', qosClass: qosClass(specOf(obj)) }),
    gracePeriodFor: podGracePeriod,
    // podStatusStrategy backfills the immutable QoS class old kubelets dropped from the status they wrote.
    prepareForStatusUpdate: (next, old) => {
      if (isObject(next.status) && isObject(old.status) && (next.status.qosClass ?? '') === '' && old.status.qosClass !== undefined) {
        next.status.qosClass = old.status.qosClass;
      }
    },
    validate: validatePodCreate,
    validateUpdate: validatePodUpdate,
    validateStatusUpdate: validatePodStatusUpdate,
    subresourceUpdates: {
      // BindingREST writes storage directly: registry/pod-binding.ts made and checked the whole change.
      binding: { prepare: () => {}, validate: () => [] },
    },
    // Pod updates carry no warnings: podStrategy skips them on what may be a high-frequency path.
    warningsOnCreate: podWarnings,
  },
  fieldSelectors: {
    conversion: {
      labels: new Set([
        'metadata.name',
        'metadata.namespace',
        'spec.nodeName',
        'spec.restartPolicy',
        'spec.schedulerName',
        'spec.serviceAccountName',
        'spec.hostNetwork',
        'status.phase',
        'status.podIP',
        'status.podIPs',
        'status.nominatedNodeName',
      ]),
      renames: { 'spec.host': 'spec.nodeName' },
      error: notSupported,
    },
    attrs: podFields,
  },
  printer: POD_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
