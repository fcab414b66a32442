import { isObject, type KubeObject } from '../../api/types.js';
import {
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
  stringArray,
  time,
} from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, list, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import { fieldAt, flagAttr, notSupported } from '../define/field-selectors.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { specOf } from './types/defaulting.js';
import { validateNode, validateNodeUpdate } from './node-validation.js';
import { byCodeUnit } from '../../util/by-code-unit.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const nodeStatusAddresses =
  "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).";
const nodeSystemInfoContainerRuntimeVersion =
  'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).';
const nodeSystemInfoKernelVersion = "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).";
const nodeSystemInfoKubeletVersion = 'Kubelet Version reported by the node.';
const nodeSystemInfoOsImage = 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).';

const ROLE_LABEL_PREFIX = 'node-role.kubernetes.io/';
const LEGACY_ROLE_LABEL = 'kubernetes.io/role';

/** Ready/NotReady from the Ready condition (last one wins), "Unknown" without it, plus SchedulingDisabled. */
function nodeStatus(node: KubeObject): string {
  let ready: unknown;
  for (const condition of list(get(node, 'status', 'conditions'))) {
    if (text(get(condition, 'type')) === 'Ready') ready = condition;
  }
  const status: string[] = [];
  if (ready !== undefined) status.push(text(get(ready, 'status')) === 'True' ? 'Ready' : 'NotReady');
  else status.push('Unknown');
  if (get(node, 'spec', 'unschedulable') === true) status.push('SchedulingDisabled');
  return status.join(',');
}

function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
    if (key.startsWith(ROLE_LABEL_PREFIX)) {
      const role = key.slice(ROLE_LABEL_PREFIX.length);
      if (role !== '') roles.add(role);
    } else if (key === LEGACY_ROLE_LABEL && value !== '') {
      roles.add(value);
    }
  }
  const joined = [...roles].sort(byCodeUnit).join(',');
  return joined === '' ? '<none>' : joined;
}

function address(node: KubeObject, type: string): string {
  const found = list(get(node, 'status', 'addresses')).find((entry) => text(get(entry, 'type')) === type);
  return found === undefined ? '<none>' : text(get(found, 'address'));
}

const orUnknown = (value: string): string => (value === '' ? '<unknown>' : value);

const NODE_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    AGE_COLUMN,
    column('Version', 'string', nodeSystemInfoKubeletVersion),
    column('Internal-IP', 'string', nodeStatusAddresses, { wide: true }),
    column('External-IP', 'string', nodeStatusAddresses, { wide: true }),
    column('OS-Image', 'string', nodeSystemInfoOsImage, { wide: true }),
    column('Kernel-Version', 'string', nodeSystemInfoKernelVersion, { wide: true }),
    column('Container-Runtime', 'string', nodeSystemInfoContainerRuntimeVersion, { wide: true }),
  ],
  row: (node, now) => [
    node.metadata.name ?? '',
    nodeStatus(node),
    nodeRoles(node),
    age(node.metadata.creationTimestamp, now),
    text(get(node, 'status', 'nodeInfo', 'kubeletVersion')),
    address(node, 'InternalIP'),
    address(node, 'ExternalIP'),
    orUnknown(text(get(node, 'status', 'nodeInfo', 'osImage'))),
    orUnknown(text(get(node, 'status', 'nodeInfo', 'kernelVersion'))),
    orUnknown(text(get(node, 'status', 'nodeInfo', 'containerRuntimeVersion'))),
  ],
};

const NODE_TYPES = coreKind({
  kind: 'Node',
  description: 'A worker node; each node has a unique identifier in the cache (etcd).',
  properties: {
    spec: core('NodeSpec', 'Behaviour of the node.'),
    status: core('NodeStatus', 'Most recently observed status of the node. Read-only.'),
  },
  listDescription: 'List of nodes.',
  itemsDescription: 'The nodes.',
});

const SYSTEM_INFO_FIELDS: Record<string, string> = {
  architecture: 'Architecture reported by the node.',
  bootID: 'Boot ID reported by the node.',
  containerRuntimeVersion: 'Container runtime version reported by the node, e.g. "containerd://1.7.0".',
  kernelVersion: 'Kernel version reported by the node (uname -r).',
  kubeProxyVersion: 'Deprecated: kube-proxy version reported by the node.',
  kubeletVersion: 'Kubelet version reported by the node.',
  machineID: 'Machine ID reported by the node.',
  operatingSystem: 'Operating system reported by the node.',
  osImage: 'OS image reported by the node, from /etc/os-release.',
  systemUUID: 'System UUID reported by the node.',
};

/** A node's spec is always served; its allocatable resources are its capacity unless it reports them separately. */
function defaultNode(obj: KubeObject): void {
  specOf(obj);
  const status = obj.status;
  if (isObject(status) && status.allocatable === undefined && isObject(status.capacity)) status.allocatable = { ...status.capacity };
}

const DEFINITIONS: Definitions = {
  ...NODE_TYPES,
  [`${CORE}NodeSpec`]: object('Attributes a node is created with.', {
    configSource: core('NodeConfigSource', 'Deprecated: dynamic kubelet configuration source.'),
    externalID: str('Deprecated; not all kubelets set it.'),
    podCIDR: str('Pod IP range assigned to the node.'),
    podCIDRs: stringArray('Pod IP ranges assigned to the node, one per IP family; the first equals podCIDR.', {
      'x-kubernetes-list-type': 'set',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    providerID: str('Node ID assigned by the cloud provider, "<ProviderName>://<ProviderSpecificNodeID>".'),
    taints: coreArray('Taint', 'Taints of the node.', ATOMIC),
    unschedulable: bool('Whether new pods are kept off the node. Defaults to false.'),
  }),
  [`${CORE}Taint`]: object(
    'Marks a node so that pods without a matching toleration are repelled.',
    {
      effect: str('Effect on pods that do not tolerate the taint.', {
        enum: ['NoExecute', 'NoSchedule', 'PreferNoSchedule'],
      }),
      key: str('Taint key applied to the node.'),
      timeAdded: time('When the taint was added; only for NoExecute taints.'),
      value: str('Taint value corresponding to the key.'),
    },
    { required: ['key', 'effect'] },
  ),
  [`${CORE}NodeConfigSource`]: object('Source of node configuration; exactly one field is set.', {
    configMap: core('ConfigMapNodeConfigSource', 'ConfigMap holding the configuration.'),
  }),
  [`${CORE}ConfigMapNodeConfigSource`]: object(
    'Reference to a ConfigMap used as node configuration.',
    {
      kubeletConfigKey: str('Key of the ConfigMap holding the KubeletConfiguration.'),
      name: str('Name of the ConfigMap.'),
      namespace: str('Namespace of the ConfigMap.'),
      resourceVersion: str('ResourceVersion of the ConfigMap; forbidden in the spec.'),
      uid: str('UID of the ConfigMap; forbidden in the spec.'),
    },
    { required: ['namespace', 'name', 'kubeletConfigKey'] },
  ),
  [`${CORE}NodeStatus`]: object('Most recently observed status of a node.', {
    addresses: coreArray('NodeAddress', 'Addresses reachable to the node.', mergeByKey('type')),
    allocatable: quantityMap('Resources available for scheduling. Defaults to capacity.'),
    capacity: quantityMap('Total resources of the node.'),
    conditions: coreArray('NodeCondition', 'Current observed conditions of the node.', mergeByKey('type')),
    config: core('NodeConfigStatus', 'Status of the assigned node configuration.'),
    daemonEndpoints: core('NodeDaemonEndpoints', 'Endpoints of daemons running on the node.'),
    features: core('NodeFeatures', 'Features implemented by the CRI.'),
    images: coreArray('ContainerImage', 'Container images on the node.', ATOMIC),
    nodeInfo: core('NodeSystemInfo', 'Identifying information of the node.'),
    phase: str('Deprecated lifecycle phase of the node.', { enum: ['Pending', 'Running', 'Terminated'] }),
    runtimeHandlers: coreArray('NodeRuntimeHandler', 'Available runtime handlers.', ATOMIC),
    volumesAttached: coreArray('AttachedVolume', 'Volumes attached to the node.', ATOMIC),
    volumesInUse: stringArray('Attachable volumes in use (mounted) by the node.'),
  }),
  [`${CORE}NodeAddress`]: object(
    'Address of a node.',
    {
      address: str('The node address.'),
      type: str('Address type: Hostname, ExternalIP, InternalIP, ExternalDNS or InternalDNS.'),
    },
    { required: ['type', 'address'] },
  ),
  [`${CORE}NodeCondition`]: object(
    'Condition of a node.',
    {
      lastHeartbeatTime: time('Last time the condition was reported.'),
      lastTransitionTime: time('Last time the condition changed from one status to another.'),
      message: str('Human-readable details about the last transition.'),
      reason: str('Brief reason for the last transition.'),
      status: str('Status of the condition: True, False or Unknown.'),
      type: str('Type of the condition, e.g. Ready.'),
    },
    { required: ['type', 'status'] },
  ),
  [`${CORE}NodeConfigStatus`]: object('Status of the configuration assigned by NodeSpec.configSource.', {
    active: core('NodeConfigSource', 'Configuration the node is actively using.'),
    assigned: core('NodeConfigSource', 'Configuration the node will try to use.'),
    error: str('Problems reconciling the assigned configuration.'),
    lastKnownGood: core('NodeConfigSource', 'Configuration the node falls back to on error.'),
  }),
  [`${CORE}NodeDaemonEndpoints`]: object('Ports opened by daemons on the node.', {
    kubeletEndpoint: core('DaemonEndpoint', 'Endpoint of the kubelet.'),
  }),
  [`${CORE}DaemonEndpoint`]: object(
    'Port of a daemon endpoint.',
    { Port: int32('Port number.') },
    {
      required: ['Port'],
    },
  ),
  [`${CORE}NodeFeatures`]: object('Features implemented by the CRI.', {
    supplementalGroupsPolicy: bool('Whether the runtime supports SupplementalGroupsPolicy and ContainerUser.'),
  }),
  [`${CORE}NodeSystemInfo`]: object(
    'Identifiers describing the node.',
    Object.fromEntries(Object.entries(SYSTEM_INFO_FIELDS).map(([field, text]) => [field, str(text)])),
    { required: Object.keys(SYSTEM_INFO_FIELDS) },
  ),
  [`${CORE}ContainerImage`]: object('A container image on a node.', {
    names: stringArray('Names known for the image.'),
    sizeBytes: int64('Size of the image in bytes.'),
  }),
  [`${CORE}AttachedVolume`]: object(
    'A volume attached to a node.',
    {
      devicePath: str('Where the volume should be available.'),
      name: str('Name of the attached volume.'),
    },
    { required: ['name', 'devicePath'] },
  ),
  [`${CORE}NodeRuntimeHandler`]: object('A runtime handler of the node.', {
    features: core('NodeRuntimeHandlerFeatures', 'Supported features.'),
    name: str('Handler name; empty for the default handler.'),
  }),
  [`${CORE}NodeRuntimeHandlerFeatures`]: object('Features of a runtime handler.', {
    recursiveReadOnlyMounts: bool('Whether the handler supports recursive read-only mounts.'),
    userNamespaces: bool('Whether the handler supports user namespaces, including for volumes.'),
  }),
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.AttachedVolume': { tags: { name: 1, devicePath: 2 } },
  'io.k8s.api.core.v1.ConfigMapNodeConfigSource': {
    tags: { namespace: 1, name: 2, uid: 3, resourceVersion: 4, kubeletConfigKey: 5 },
  },
  'io.k8s.api.core.v1.ContainerImage': { tags: { names: 1, sizeBytes: 2 } },
  'io.k8s.api.core.v1.DaemonEndpoint': { tags: { Port: 1 } },
  'io.k8s.api.core.v1.Node': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.NodeAddress': { tags: { type: 1, address: 2 } },
  'io.k8s.api.core.v1.NodeCondition': {
    tags: { type: 1, status: 2, lastHeartbeatTime: 3, lastTransitionTime: 4, reason: 5, message: 6 },
  },
  'io.k8s.api.core.v1.NodeConfigSource': { tags: { configMap: 2 } },
  'io.k8s.api.core.v1.NodeConfigStatus': { tags: { assigned: 1, active: 2, lastKnownGood: 3, error: 4 } },
  'io.k8s.api.core.v1.NodeDaemonEndpoints': { tags: { kubeletEndpoint: 1 } },
  'io.k8s.api.core.v1.NodeFeatures': { tags: { supplementalGroupsPolicy: 1 }, pointers: ['supplementalGroupsPolicy'] },
  'io.k8s.api.core.v1.NodeList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.NodeRuntimeHandler': { tags: { name: 1, features: 2 } },
  'io.k8s.api.core.v1.NodeRuntimeHandlerFeatures': {
    tags: { recursiveReadOnlyMounts: 1, userNamespaces: 2 },
    pointers: ['recursiveReadOnlyMounts', 'userNamespaces'],
  },
  'io.k8s.api.core.v1.NodeSpec': {
    tags: { podCIDR: 1, externalID: 2, providerID: 3, unschedulable: 4, taints: 5, configSource: 6, podCIDRs: 7 },
  },
  'io.k8s.api.core.v1.NodeStatus': {
    tags: {
      capacity: 1,
      allocatable: 2,
      phase: 3,
      conditions: 4,
      addresses: 5,
      daemonEndpoints: 6,
      nodeInfo: 7,
      images: 8,
      volumesInUse: 9,
      volumesAttached: 10,
      config: 11,
      runtimeHandlers: 12,
      features: 13,
    },
  },
  'io.k8s.api.core.v1.NodeSystemInfo': {
    tags: {
      machineID: 1,
      systemUUID: 2,
      bootID: 3,
      kernelVersion: 4,
      osImage: 5,
      containerRuntimeVersion: 6,
      kubeletVersion: 7,
      kubeProxyVersion: 8,
      operatingSystem: 9,
      architecture: 10,
    },
  },
  'io.k8s.api.core.v1.Taint': { tags: { key: 1, value: 2, effect: 3, timeAdded: 4 } },
};

/** core/v1 Node. */
export const NODE: KindDefinition = {
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'Node',
    plural: 'nodes',
    namespaced: false,
    shortNames: ['no'],
    subresources: [STATUS],
  }),
  strategy: {
    initialStatus: 'keep',
    defaults: defaultNode,
    validate: validateNode,
    validateUpdate: validateNodeUpdate,
    statusZeroValues: {
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
      nodeInfo: {
        architecture: '',
        bootID: '',
        containerRuntimeVersion: '',
        kernelVersion: '',
        kubeProxyVersion: '',
        kubeletVersion: '',
        machineID: '',
        operatingSystem: '',
        osImage: '',
        systemUUID: '',
      },
    },
  },
  fieldSelectors: {
    conversion: { labels: new Set(['metadata.name', 'spec.unschedulable']), error: notSupported },
    attrs: (obj) => ({ 'spec.unschedulable': flagAttr(fieldAt(obj, 'spec', 'unschedulable')) }),
  },
  printer: NODE_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
