import type { KubeObject } from '../../api/types.js';
import {
  findPort,
  isIPv6,
  isPodReady,
  podIPs,
  publishNotReadyAddresses,
  record,
  serviceSpec,
  shouldSetHostname,
  objects,
} from '../endpoint-util/pods.js';

/** The discovery/v1 shapes the controller writes, fields in the Go structs' order. */
export type AddressType = 'IPv4' | 'IPv6';

export interface EndpointPort {
  name: string;
  protocol: string;
  port: number;
  appProtocol?: string;
}

export interface Endpoint {
  addresses: string[];
  conditions: { ready?: boolean; serving?: boolean; terminating?: boolean };
  hostname?: string;
  targetRef?: { kind?: string; namespace?: string; name?: string; uid?: string; resourceVersion?: string };
  nodeName?: string;
  zone?: string;
  [field: string]: unknown;
}

export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** podToEndpoint (R12.131): serving is readiness, ready excludes terminating unless publishNotReadyAddresses. */
export function podToEndpoint(pod: KubeObject, node: KubeObject | undefined, service: KubeObject, addressType: AddressType): Endpoint {
  const serving = isPodReady(pod);
  const terminating = pod.metadata.deletionTimestamp !== undefined;
  const ready = publishNotReadyAddresses(service) || (serving && !terminating);
  const endpoint: Endpoint = {
    addresses: podIPs(pod).filter((ip) => isIPv6(ip) === (addressType === 'IPv6')),
    conditions: { ready, serving, terminating },
  };
  const spec = record(pod.spec);
  if (shouldSetHostname(pod, service)) endpoint.hostname = String(spec.hostname);
  endpoint.targetRef = { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid };
  if (typeof spec.nodeName === 'string' && spec.nodeName !== '') endpoint.nodeName = spec.nodeName;
  const zone = node?.metadata.labels?.[ZONE_LABEL];
  if (zone !== undefined && zone !== '') endpoint.zone = zone;
  return endpoint;
}

/** getEndpointPorts: one port per Service port the pod has; none for a headless Service without ports. */
export function endpointPorts(service: KubeObject, pod: KubeObject): EndpointPort[] {
  const spec = serviceSpec(service);
  const ports: EndpointPort[] = [];
  for (const servicePort of objects(spec.ports)) {
    const port = findPort(pod, servicePort);
    if (port === undefined) continue;
    const endpointPort: EndpointPort = {
      name: typeof servicePort.name === 'string' ? servicePort.name : '',
      protocol: typeof servicePort.protocol === 'string' ? servicePort.protocol : 'TCP',
      port,
    };
    if (typeof servicePort.appProtocol === 'string') endpointPort.appProtocol = servicePort.appProtocol;
    ports.push(endpointPort);
  }
  return ports;
}

const portText = (p: Record<string, unknown>): string =>
  JSON.stringify([p.name ?? '', p.protocol ?? '', p.port ?? null, p.appProtocol ?? null]);

/** NewPortMapKey: the same set of ports in any order gives the same key. */
export function portMapKey(ports: readonly Record<string, unknown>[]): string {
  return ports.map(portText).sort().join('|');
}

/** hashEndpoint: an endpoint's identity (sorted addresses, hostname, the pod it stands for). */
export function endpointKey(endpoint: Endpoint): string {
  const ref = endpoint.targetRef;
  return JSON.stringify([[...endpoint.addresses].sort(), endpoint.hostname ?? '', ref?.namespace ?? '', ref?.name ?? '']);
}

/** EndpointsEqualBeyondHash: what the key leaves out, ignoring the target's resourceVersion. */
export function endpointsEqualBeyondHash(a: Endpoint, b: Endpoint): boolean {
  const ca = record(a.conditions);
  const cb = record(b.conditions);
  if (a.nodeName !== b.nodeName || a.zone !== b.zone) return false;
  if (ca.ready !== cb.ready || ca.serving !== cb.serving || ca.terminating !== cb.terminating) return false;
  const ra = record(a.targetRef);
  const rb = record(b.targetRef);
  const fields = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'fieldPath'];
  if ((a.targetRef === undefined) !== (b.targetRef === undefined)) return false;
  return fields.every((f) => ra[f] === rb[f]);
}
