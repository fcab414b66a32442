import type { Definitions } from '../../../openapi/schema.js';
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
} from '../../../openapi/builders/shorthand.js';

/** core/v1 Node with its spec, status, taints and system information. */

const NODE = coreKind({
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

export const CORE_V1_NODE_DEFINITIONS: Definitions = {
  ...NODE,
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
