import { isObject, type KubeObject } from '../../../api/types.js';
import { defaultPodTemplate } from './pod-defaults.js';
import { defaultVolumeSources } from './volume-defaults.js';

/** API defaulting (pkg/apis/<group>/v1/defaults.go and k8s.io/api `+default` markers) of the served kinds but pods. */

type Obj = Record<string, unknown>;

export function specOf(obj: KubeObject): Obj {
  if (!isObject(obj.spec)) obj.spec = {};
  return obj.spec as Obj;
}

/** Defaults a workload's own spec fields (`extra`), then its pod template as a Pod's spec is defaulted. */
export function defaultWorkload(obj: KubeObject, extra: (s: Obj) => void): void {
  const s = specOf(obj);
  extra(s);
  defaultPodTemplate(s.template);
}

const objects = (value: unknown): Obj[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** Sticky client IP affinity lasts three hours unless the client says otherwise. */
const DEFAULT_CLIENT_IP_TIMEOUT_SECONDS = 10800;

export function defaultService(obj: KubeObject): void {
  const s = specOf(obj);
  s.type ??= 'ClusterIP';
  s.sessionAffinity ??= 'None';
  if (s.sessionAffinity === 'None') delete s.sessionAffinityConfig;
  if (s.sessionAffinity === 'ClientIP') {
    const config = isObject(s.sessionAffinityConfig) ? s.sessionAffinityConfig : undefined;
    const clientIP = config !== undefined && isObject(config.clientIP) ? config.clientIP : undefined;
    if (clientIP?.timeoutSeconds === undefined) {
      s.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_TIMEOUT_SECONDS } };
    }
  }
  if (s.type !== 'ExternalName') {
    s.internalTrafficPolicy ??= 'Cluster';
    s.ipFamilyPolicy ??= 'SingleStack';
    s.ipFamilies ??= ['IPv4'];
  }
  const externallyAccessible =
    s.type === 'LoadBalancer' ||
    s.type === 'NodePort' ||
    (s.type === 'ClusterIP' && Array.isArray(s.externalIPs) && s.externalIPs.length > 0);
  if (externallyAccessible && (s.externalTrafficPolicy === undefined || s.externalTrafficPolicy === '')) {
    s.externalTrafficPolicy = 'Cluster';
  }
  if (s.type === 'LoadBalancer') s.allocateLoadBalancerNodePorts ??= true;
  for (const p of objects(s.ports)) {
    p.protocol ??= 'TCP';
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
}

/** A ReplicationController selects, and is labelled with, its template's labels unless it names its own. */
export function defaultReplicationController(obj: KubeObject): void {
  const s = specOf(obj);
  const template = isObject(s.template) ? s.template : undefined;
  const labels = template !== undefined && isObject(template.metadata) ? template.metadata.labels : undefined;
  if (isObject(labels)) {
    if (!isObject(s.selector) || Object.keys(s.selector).length === 0) s.selector = { ...labels };
    const own = obj.metadata.labels;
    if (own === undefined || Object.keys(own).length === 0) obj.metadata.labels = { ...(labels as Record<string, string>) };
  }
  s.replicas ??= 1;
  defaultPodTemplate(s.template);
}

export function defaultPersistentVolume(obj: KubeObject): void {
  const s = specOf(obj);
  s.persistentVolumeReclaimPolicy ??= 'Retain';
  s.volumeMode ??= 'Filesystem';
  defaultVolumeSources(s);
}

export function defaultEndpoints(obj: KubeObject): void {
  for (const subset of objects(obj.subsets)) for (const port of objects(subset.ports)) port.protocol ??= 'TCP';
}

export function defaultEndpointSlice(obj: KubeObject): void {
  for (const port of objects(obj.ports)) {
    port.name ??= '';
    port.protocol ??= 'TCP';
  }
}

/** Users and groups are RBAC subjects; a service account subject stays in the core group. */
export function defaultRbacSubjects(obj: KubeObject): void {
  for (const subject of objects(obj.subjects)) {
    if (subject.apiGroup !== undefined && subject.apiGroup !== '') continue;
    if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = 'rbac.authorization.k8s.io';
  }
}

/** A node's spec is always served; its allocatable resources are its capacity unless it reports them separately. */
export function defaultNode(obj: KubeObject): void {
  specOf(obj);
  const status = obj.status;
  if (isObject(status) && status.allocatable === undefined && isObject(status.capacity)) status.allocatable = { ...status.capacity };
}

/** StatefulSet volume claim templates are whole claims, defaulted as a created claim would be. */
export function defaultClaimTemplates(s: Obj): void {
  for (const claim of objects(s.volumeClaimTemplates)) {
    if (!isObject(claim.spec)) claim.spec = {};
    (claim.spec as Obj).volumeMode ??= 'Filesystem';
    if (!isObject(claim.status)) claim.status = {};
    const status = claim.status as Obj;
    if (status.phase === undefined || status.phase === '') status.phase = 'Pending';
  }
}

/**
 * Status fields Go always writes, because they are not `omitempty` or are structs (`omitempty` keeps those): a
 * status a client or a create leaves without them is served with their zero values.
 */
export const STATUS_ZERO_VALUES: Readonly<Record<string, Readonly<Obj>>> = {
  services: { loadBalancer: {} },
  replicationcontrollers: { replicas: 0 },
  'replicasets.apps': { replicas: 0 },
  'statefulsets.apps': { replicas: 0, availableReplicas: 0 },
  'daemonsets.apps': { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
  nodes: {
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
};
