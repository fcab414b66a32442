import { isObject, type KubeObject } from '../../api/types.js';

/** Nodes carrying either annotation are driven by Cascade's simulated kubelet (kwok's marker keeps kwok manifests working). */
export const SIMULATED_ANNOTATION = 'cascade.dev/simulated';
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** nodelease's defaults: a 40 s lease renewed every quarter of it. */
export const LEASE_DURATION_SECONDS = 40;
export const LEASE_RENEW_MS = 10_000;
/** How often a simulated kubelet refreshes its Ready condition's lastHeartbeatTime when nothing changed. */
export const NODE_STATUS_MS = 60_000;
export const KUBELET_VERSION = 'v1.32.0';

/** kwok's default node size (kustomize/kwokctl/resource/node.yaml). */
const DEFAULT_CAPACITY = { cpu: '32', memory: '256Gi', pods: '110' };

export function isSimulatedNode(node: KubeObject): boolean {
  const a = node.metadata.annotations ?? {};
  return a[SIMULATED_ANNOTATION] === 'true' || a[KWOK_NODE_ANNOTATION] === 'fake';
}

export function simulatedNodeName(index: number): string {
  return `kwok-node-${index}`;
}

/** A distinct /24 per node index: 10.244.0.0/24, 10.244.1.0/24, … then 10.245.0.0/24. */
/** Node indexes have pod CIDRs 10.244.0.0/24 … 10.255.255.0/24: more simulated nodes than that cannot be addressed. */
export const MAX_SIMULATED_NODES = 12 * 256;

export function podCidrFor(index: number): string {
  return `10.${244 + Math.floor(index / 256)}.${index % 256}.0/24`;
}

/** A distinct InternalIP per node index, away from the pod CIDRs. */
export function nodeIpFor(index: number): string {
  const n = index + 2;
  return `172.18.${Math.floor(n / 256)}.${n % 256}`;
}

/** The Node `--simulate-nodes` creates, labelled and annotated as kwokctl's node template does. */
export function newSimulatedNode(index: number): KubeObject {
  const name = simulatedNodeName(index);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/role': 'agent',
        'node-role.kubernetes.io/agent': '',
        type: 'kwok',
      },
      annotations: { [KWOK_NODE_ANNOTATION]: 'fake', 'node.alpha.kubernetes.io/ttl': '0', [SIMULATED_ANNOTATION]: 'true' },
    },
    spec: { podCIDR: podCidrFor(index), podCIDRs: [podCidrFor(index)] },
  };
}

const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const microTime = (ms: number): string => new Date(ms).toISOString().replace(/Z$/, '000Z');

const CONDITIONS: readonly [string, string, string, string][] = [
  ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
  ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
  ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
];

/**
 * The status a healthy kubelet posts (kubelet_node_status.go's setters, kwok's node-initialize stage): what the user
 * wrote for addresses and capacity is kept, conditions keep their transition time while unchanged.
 */
export function simulatedNodeStatus(node: KubeObject, index: number, nowMs: number): Record<string, unknown> {
  const old = isObject(node.status) ? node.status : {};
  const name = node.metadata.name ?? '';
  const oldConditions = Array.isArray(old.conditions) ? old.conditions.filter(isObject) : [];
  const conditions = CONDITIONS.map(([type, status, reason, message]) => {
    const prev = oldConditions.find((c) => c.type === type);
    const since =
      prev !== undefined && prev.status === status && typeof prev.lastTransitionTime === 'string'
        ? prev.lastTransitionTime
        : rfc3339(nowMs);
    return { type, status, lastHeartbeatTime: rfc3339(nowMs), lastTransitionTime: since, reason, message };
  });
  const capacity = isObject(old.capacity) && Object.keys(old.capacity).length > 0 ? old.capacity : { ...DEFAULT_CAPACITY };
  const allocatable = isObject(old.allocatable) && Object.keys(old.allocatable).length > 0 ? old.allocatable : { ...capacity };
  const addresses =
    Array.isArray(old.addresses) && old.addresses.length > 0
      ? old.addresses
      : [
          { type: 'InternalIP', address: nodeIpFor(index) },
          { type: 'Hostname', address: name },
        ];
  return {
    ...old,
    capacity,
    allocatable,
    conditions,
    addresses,
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: '',
      systemUUID: '',
      bootID: '',
      kernelVersion: '',
      osImage: '',
      containerRuntimeVersion: 'kwok-v0.6.0',
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
    phase: 'Running',
  };
}

/** The node's InternalIP (the pods' hostIP). */
export function nodeInternalIp(node: KubeObject): string | undefined {
  const status = isObject(node.status) ? node.status : {};
  const addresses = Array.isArray(status.addresses) ? status.addresses.filter(isObject) : [];
  const ip = addresses.find((a) => a.type === 'InternalIP')?.address;
  return typeof ip === 'string' ? ip : undefined;
}

/** The node's Lease (nodelease): held by the node, owned by it so the collector removes it with the Node. */
export function nodeLease(node: KubeObject, nowMs: number): KubeObject {
  const name = node.metadata.name ?? '';
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name,
      namespace: NODE_LEASE_NAMESPACE,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata.uid ?? '' }],
    },
    spec: { holderIdentity: name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime: microTime(nowMs) },
  };
}

export function renewedLease(lease: KubeObject, nowMs: number): KubeObject {
  const spec = isObject(lease.spec) ? lease.spec : {};
  return { ...lease, spec: { ...spec, renewTime: microTime(nowMs) } };
}
