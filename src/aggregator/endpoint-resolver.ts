/**
 * From an APIService's service reference to an address to dial, the way kube-apiserver does with
 * --enable-aggregator-routing=true (k8s.io/apiserver util/proxy ResolveEndpoint): the Service port numbered like
 * spec.service.port names the endpoint port to use, and a ready address of the Service's Endpoints (or, when the
 * Service has no Endpoints object, of its EndpointSlices) is picked at random. Also the service and endpoint checks
 * the availability controller makes before it tries the backend.
 */

import { isObject, objects, type KubeObject } from '../api/types.js';
import type { ServiceReference } from './api-service.js';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** Reads of the informer caches the resolver needs. */
export interface ServiceLookups {
  service(namespace: string, name: string): KubeObject | undefined;
  endpoints(namespace: string, name: string): KubeObject | undefined;
  /** The EndpointSlices labelled kubernetes.io/service-name=<name> in the namespace. */
  endpointSlices(namespace: string, serviceName: string): readonly KubeObject[];
}

export interface ResolvedEndpoint {
  readonly host: string;
  readonly port: number;
}

export type Resolution = { readonly ok: true; readonly endpoint: ResolvedEndpoint } | { readonly ok: false; readonly error: string };

/** A failed pre-check, with the Available condition's reason and message. */
export interface EndpointCheckFailure {
  readonly reason: 'ServiceNotFound' | 'ServicePortError' | 'EndpointsNotFound' | 'MissingEndpoints';
  readonly message: string;
}

interface ServicePort {
  readonly name: string;
  readonly port: number;
}

const ROUTABLE_TYPES = new Set(['ClusterIP', 'LoadBalancer', 'NodePort']);

function serviceType(svc: KubeObject): string {
  const spec = isObject(svc.spec) ? svc.spec : {};
  return typeof spec.type === 'string' && spec.type !== '' ? spec.type : 'ClusterIP';
}

function servicePorts(svc: KubeObject): ServicePort[] {
  const spec = isObject(svc.spec) ? svc.spec : {};
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  return ports
    .filter(isObject)
    .map((p) => ({ name: typeof p.name === 'string' ? p.name : '', port: typeof p.port === 'number' ? p.port : 0 }));
}

function findServicePort(svc: KubeObject, port: number): ServicePort | undefined {
  return servicePorts(svc).find((p) => p.port === port);
}

const nameOf = (port: Record<string, unknown>): string => (typeof port.name === 'string' ? port.name : '');

/** Candidate addresses of an Endpoints object for the named port: each subset with addresses and that port. */
function endpointsCandidates(eps: KubeObject, portName: string): ResolvedEndpoint[] {
  const found: ResolvedEndpoint[] = [];
  for (const subset of objects(eps.subsets)) {
    const addresses = objects(subset.addresses);
    const port = objects(subset.ports).find((p) => nameOf(p) === portName);
    if (addresses.length === 0 || port === undefined || typeof port.port !== 'number') continue;
    for (const address of addresses) if (typeof address.ip === 'string') found.push({ host: address.ip, port: port.port });
  }
  return found;
}

/** A slice endpoint counts while conditions.ready is unset or true (EndpointSlice semantics). */
function isReady(endpoint: Record<string, unknown>): boolean {
  const conditions = isObject(endpoint.conditions) ? endpoint.conditions : {};
  return conditions.ready !== false;
}

function sliceCandidates(slices: readonly KubeObject[], portName: string): ResolvedEndpoint[] {
  const found: ResolvedEndpoint[] = [];
  for (const slice of slices) {
    const port = objects(slice.ports).find((p) => nameOf(p) === portName);
    if (port === undefined || typeof port.port !== 'number') continue;
    for (const endpoint of objects(slice.endpoints)) {
      const address = Array.isArray(endpoint.addresses) ? endpoint.addresses[0] : undefined;
      if (isReady(endpoint) && typeof address === 'string') found.push({ host: address, port: port.port });
    }
  }
  return found;
}

function pickOne<T>(items: readonly T[]): T | undefined {
  return items[Math.floor(Math.random() * items.length)];
}

/** Where a request for this service reference goes now, or the resolver's error text. */
export function resolveEndpoint(ref: ServiceReference, lookups: ServiceLookups): Resolution {
  const svc = lookups.service(ref.namespace, ref.name);
  if (svc === undefined) return { ok: false, error: `service "${ref.name}" not found` };
  const type = serviceType(svc);
  if (!ROUTABLE_TYPES.has(type)) return { ok: false, error: `unsupported service type "${type}"` };
  const port = findServicePort(svc, ref.port);
  if (port === undefined) return { ok: false, error: `no service port ${ref.port} found for service "${ref.name}"` };
  const eps = lookups.endpoints(ref.namespace, ref.name);
  const slices = eps === undefined ? lookups.endpointSlices(ref.namespace, ref.name) : [];
  if (eps === undefined && slices.length === 0) return { ok: false, error: `endpoints "${ref.name}" not found` };
  const endpoint = pickOne(eps !== undefined ? endpointsCandidates(eps, port.name) : sliceCandidates(slices, port.name));
  if (endpoint === undefined) return { ok: false, error: `no endpoints available for service "${ref.name}"` };
  return { ok: true, endpoint };
}

/**
 * The availability controller's checks before contacting the backend (ClusterIP services only), with
 * kube-aggregator's reasons and messages; undefined when they pass.
 */
export function checkServiceEndpoints(ref: ServiceReference, lookups: ServiceLookups): EndpointCheckFailure | undefined {
  const where = `service/${ref.name} in ${JSON.stringify(ref.namespace)}`;
  const svc = lookups.service(ref.namespace, ref.name);
  if (svc === undefined) return { reason: 'ServiceNotFound', message: `${where} is not present` };
  if (serviceType(svc) !== 'ClusterIP') return undefined;
  const port = findServicePort(svc, ref.port);
  if (port === undefined) return { reason: 'ServicePortError', message: `${where} is not listening on port ${ref.port}` };
  const eps = lookups.endpoints(ref.namespace, ref.name);
  if (eps !== undefined) {
    if (endpointsCandidates(eps, port.name).length > 0) return undefined;
    return { reason: 'MissingEndpoints', message: `endpoints for ${where} have no addresses with port name ${JSON.stringify(port.name)}` };
  }
  const slices = lookups.endpointSlices(ref.namespace, ref.name);
  if (slices.length === 0) return { reason: 'EndpointsNotFound', message: `cannot find endpoints for ${where}` };
  if (sliceCandidates(slices, port.name).length > 0) return undefined;
  return {
    reason: 'MissingEndpoints',
    message: `endpointslices for ${where} have no addresses with port name ${JSON.stringify(port.name)}`,
  };
}

/** "10.0.0.1:443", "[::1]:443". */
export function hostPort(endpoint: ResolvedEndpoint): string {
  return endpoint.host.includes(':') ? `[${endpoint.host}]:${endpoint.port}` : `${endpoint.host}:${endpoint.port}`;
}
