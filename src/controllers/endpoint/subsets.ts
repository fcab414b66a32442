import type { KubeObject } from '../../api/types.js';
import { semanticEqual } from '../../kinds/core-v1/types/pod-validation/semantic-equal.js';
import {
  findPort,
  isIPv6,
  isPodReady,
  isServiceIPSet,
  objects,
  podIPs,
  publishNotReadyAddresses,
  record,
  serviceSpec,
  shouldPodBeInEndpoints,
  shouldSetHostname,
} from '../endpoint-util/pods.js';

/** core/v1 Endpoints shapes, fields in the Go structs' order. */
export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: { kind: string; namespace?: string; name?: string; uid?: string; resourceVersion?: string };
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

/** maxCapacity: the most addresses an Endpoints object holds (R12.129). */
export const MAX_ENDPOINTS_CAPACITY = 1000;
export const OVER_CAPACITY_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';

/**
 * podToEndpointAddressForService: the pod IP of the Service's first IP family (read from its ClusterIP, or the
 * pod's own IP for a headless Service, when the Service has no ipFamilies); undefined when the pod has none.
 */
export function podToEndpointAddress(service: KubeObject, pod: KubeObject): EndpointAddress | undefined {
  const spec = serviceSpec(service);
  const families = Array.isArray(spec.ipFamilies) ? spec.ipFamilies : [];
  let ipv6: boolean;
  if (families.length > 0) ipv6 = families[0] === 'IPv6';
  else if (isServiceIPSet(service)) ipv6 = isIPv6(String(spec.clusterIP));
  else ipv6 = isIPv6(String(record(pod.status).podIP ?? ''));
  const ip = podIPs(pod).find((candidate) => isIPv6(candidate) === ipv6);
  if (ip === undefined) return undefined;
  const podSpec = record(pod.spec);
  const address: EndpointAddress = { ip };
  if (shouldSetHostname(pod, service)) address.hostname = String(podSpec.hostname);
  address.nodeName = typeof podSpec.nodeName === 'string' ? podSpec.nodeName : '';
  address.targetRef = { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid };
  return address;
}

const addressKey = (a: EndpointAddress): string => JSON.stringify([a.ip, a.targetRef?.uid ?? '']);
const portKey = (p: EndpointPort): string => JSON.stringify([p.name ?? '', p.port, p.protocol, p.appProtocol ?? null]);

/** LessEndpointAddress: by IP (byte order), then by the target's uid. */
function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
  const ua = a.targetRef?.uid ?? '';
  const ub = b.targetRef?.uid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

const comparePorts = (a: EndpointPort, b: EndpointPort): number => {
  const ka = portKey(a);
  const kb = portKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

/**
 * RepackSubsets: addresses offering the same set of ports (readiness included) share one subset; addresses and ports
 * sorted within a subset, subsets by their first address. A ready entry wins over a not-ready one for the same port.
 */
export function repackSubsets(
  entries: readonly { address: EndpointAddress; ready: boolean; port: EndpointPort | undefined }[],
): EndpointSubset[] {
  const addresses = new Map<string, EndpointAddress>();
  const byPort = new Map<string, { port: EndpointPort | undefined; ready: Map<string, boolean> }>();
  for (const { address, ready, port } of entries) {
    const key = addressKey(address);
    if (!addresses.has(key)) addresses.set(key, address);
    const pk = port === undefined ? '' : portKey(port);
    let group = byPort.get(pk);
    if (group === undefined) {
      group = { port, ready: new Map() };
      byPort.set(pk, group);
    }
    if (group.ready.get(key) !== true) group.ready.set(key, ready);
  }
  const bySet = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const { port, ready } of byPort.values()) {
    const setKey = JSON.stringify([...ready].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    let subset = bySet.get(setKey);
    if (subset === undefined) {
      subset = { ready, ports: [] };
      bySet.set(setKey, subset);
    }
    if (port !== undefined) subset.ports.push(port);
  }
  const subsets: EndpointSubset[] = [];
  for (const { ready, ports } of bySet.values()) {
    const readyAddresses: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [key, isReady] of ready) (isReady ? readyAddresses : notReady).push(addresses.get(key) as EndpointAddress);
    const subset: EndpointSubset = {};
    if (readyAddresses.length > 0) subset.addresses = readyAddresses.sort(compareAddresses);
    if (notReady.length > 0) subset.notReadyAddresses = notReady.sort(compareAddresses);
    if (ports.length > 0) subset.ports = ports.sort(comparePorts);
    subsets.push(subset);
  }
  const first = (s: EndpointSubset): EndpointAddress | undefined => s.addresses?.[0] ?? s.notReadyAddresses?.[0];
  return subsets.sort((a, b) => {
    const fa = first(a);
    const fb = first(b);
    if (fa === undefined || fb === undefined) return 0;
    return compareAddresses(fa, fb) || comparePorts(a.ports?.[0] ?? { port: 0, protocol: '' }, b.ports?.[0] ?? { port: 0, protocol: '' });
  });
}

/**
 * syncService's subsets (R12.126–R12.128): each included pod's address under each Service port it has (ready, or
 * every pod with publishNotReadyAddresses, in `addresses`), one port-less subset for a headless Service without
 * ports, repacked.
 */
export function computeSubsets(service: KubeObject, pods: readonly KubeObject[]): EndpointSubset[] {
  const publishNotReady = publishNotReadyAddresses(service);
  const servicePorts = objects(serviceSpec(service).ports);
  const headless = serviceSpec(service).clusterIP === 'None';
  const entries: { address: EndpointAddress; ready: boolean; port: EndpointPort | undefined }[] = [];
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const address = podToEndpointAddress(service, pod);
    if (address === undefined) continue;
    const ready = publishNotReady || isPodReady(pod);
    if (servicePorts.length === 0) {
      if (headless) entries.push({ address, ready, port: undefined });
      continue;
    }
    for (const servicePort of servicePorts) {
      const portNumber = findPort(pod, servicePort);
      if (portNumber === undefined) continue;
      const name = typeof servicePort.name === 'string' && servicePort.name !== '' ? servicePort.name : undefined;
      const port: EndpointPort = {
        ...(name === undefined ? {} : { name }),
        port: portNumber,
        protocol: typeof servicePort.protocol === 'string' ? servicePort.protocol : 'TCP',
      };
      if (typeof servicePort.appProtocol === 'string') port.appProtocol = servicePort.appProtocol;
      entries.push({ address, ready, port });
    }
  }
  return repackSubsets(entries);
}

const countAddresses = (subsets: readonly EndpointSubset[]): { ready: number; notReady: number } => {
  let ready = 0;
  let notReady = 0;
  for (const s of subsets) {
    ready += s.addresses?.length ?? 0;
    notReady += s.notReadyAddresses?.length ?? 0;
  }
  return { ready, notReady };
};

/**
 * truncateEndpoints: above MAX_ENDPOINTS_CAPACITY addresses, keep ready ones first, each subset keeping its share
 * (rounded up) of what is kept. Returns undefined when nothing had to go.
 */
export function truncateSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] | undefined {
  const { ready, notReady } = countAddresses(subsets);
  if (ready + notReady <= MAX_ENDPOINTS_CAPACITY) return undefined;
  const truncateReady = ready > MAX_ENDPOINTS_CAPACITY;
  const max = truncateReady ? MAX_ENDPOINTS_CAPACITY : MAX_ENDPOINTS_CAPACITY - ready;
  const total = truncateReady ? ready : notReady;
  let room = max;
  return subsets.map((subset) => {
    const inSubset = (truncateReady ? subset.addresses : subset.notReadyAddresses)?.length ?? 0;
    const share = Math.min(Math.ceil((inSubset / total) * max), room);
    room -= share;
    if (truncateReady) {
      const { notReadyAddresses: _dropped, ...rest } = subset;
      return { ...rest, addresses: subset.addresses?.slice(0, share) };
    }
    return { ...subset, notReadyAddresses: subset.notReadyAddresses?.slice(0, share) };
  });
}

/** capacityAnnotationSetCorrectly: under capacity and not marked truncated. */
export function capacityAnnotationCorrect(
  annotations: Readonly<Record<string, string>> | undefined,
  subsets: readonly EndpointSubset[],
): boolean {
  const { ready, notReady } = countAddresses(subsets);
  if (ready + notReady > MAX_ENDPOINTS_CAPACITY) return false;
  return annotations?.[OVER_CAPACITY_ANNOTATION] === undefined;
}

const withoutResourceVersions = (subsets: unknown): unknown =>
  objects(subsets).map((s) => {
    const strip = (list: unknown): unknown =>
      objects(list).map((a) =>
        a.targetRef === undefined ? a : { ...a, targetRef: { ...record(a.targetRef), resourceVersion: undefined } },
      );
    return { ...s, addresses: strip(s.addresses), notReadyAddresses: strip(s.notReadyAddresses) };
  });

/** endpointSubsetsEqualIgnoreResourceVersion. */
export function subsetsEqualIgnoringResourceVersion(a: unknown, b: unknown): boolean {
  return semanticEqual(withoutResourceVersions(a), withoutResourceVersions(b));
}
