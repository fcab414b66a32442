/**
 * The parts of an apiregistration.k8s.io/v1 APIService the aggregator acts on, read from the stored object with
 * the defaults the API server applies (service port 443).
 */

import { isObject, type KubeObject } from '../api/types.js';
import type { ResourceRef } from '../client/interface.js';

export const APISERVICES: ResourceRef = { group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices' };
export const SERVICES: ResourceRef = { group: '', version: 'v1', resource: 'services' };
export const ENDPOINTS: ResourceRef = { group: '', version: 'v1', resource: 'endpoints' };
export const ENDPOINT_SLICES: ResourceRef = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' };

/** kube-aggregator's default for spec.service.port. */
export const DEFAULT_SERVICE_PORT = 443;

export interface ServiceReference {
  readonly namespace: string;
  readonly name: string;
  readonly port: number;
}

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface AvailableCondition {
  readonly type: 'Available';
  readonly status: ConditionStatus;
  readonly lastTransitionTime?: string;
  readonly reason?: string;
  readonly message?: string;
}

export interface ApiServiceEntry {
  /** "<version>.<group>". */
  readonly name: string;
  readonly group: string;
  readonly version: string;
  readonly groupPriorityMinimum: number;
  readonly versionPriority: number;
  /** Undefined for a local APIService (served by this server itself). */
  readonly service: ServiceReference | undefined;
  /** PEM text of spec.caBundle (base64 on the wire); undefined when empty, which means the system roots. */
  readonly caBundle: string | undefined;
  readonly insecureSkipTLSVerify: boolean;
  /** The stored Available condition; the proxy and discovery trust only this, as the aggregator does. */
  readonly available: AvailableCondition | undefined;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function serviceOf(spec: Record<string, unknown>): ServiceReference | undefined {
  const service = spec.service;
  if (!isObject(service)) return undefined;
  return {
    namespace: typeof service.namespace === 'string' ? service.namespace : '',
    name: typeof service.name === 'string' ? service.name : '',
    port: numberOr(service.port, DEFAULT_SERVICE_PORT),
  };
}

function caBundleOf(spec: Record<string, unknown>): string | undefined {
  if (typeof spec.caBundle !== 'string' || spec.caBundle === '') return undefined;
  return Buffer.from(spec.caBundle, 'base64').toString('utf8');
}

export function availableConditionOf(obj: KubeObject): AvailableCondition | undefined {
  const status = isObject(obj.status) ? obj.status : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const found = conditions.find((c): c is Record<string, unknown> => isObject(c) && c.type === 'Available');
  if (found === undefined) return undefined;
  const value = found.status;
  return {
    type: 'Available',
    status: value === 'True' || value === 'False' ? value : 'Unknown',
    ...(typeof found.lastTransitionTime === 'string' ? { lastTransitionTime: found.lastTransitionTime } : {}),
    ...(typeof found.reason === 'string' ? { reason: found.reason } : {}),
    ...(typeof found.message === 'string' ? { message: found.message } : {}),
  };
}

export function parseApiService(obj: KubeObject): ApiServiceEntry {
  const spec = isObject(obj.spec) ? obj.spec : {};
  return {
    name: obj.metadata.name ?? '',
    group: typeof spec.group === 'string' ? spec.group : '',
    version: typeof spec.version === 'string' ? spec.version : '',
    groupPriorityMinimum: numberOr(spec.groupPriorityMinimum, 0),
    versionPriority: numberOr(spec.versionPriority, 0),
    service: serviceOf(spec),
    caBundle: caBundleOf(spec),
    insecureSkipTLSVerify: spec.insecureSkipTLSVerify === true,
    available: availableConditionOf(obj),
  };
}

export function isAvailable(entry: ApiServiceEntry): boolean {
  return entry.available?.status === 'True';
}

export function groupVersionOf(entry: Pick<ApiServiceEntry, 'group' | 'version'>): string {
  return entry.group === '' ? entry.version : `${entry.group}/${entry.version}`;
}

/** The name the backend's serving certificate must carry: the aggregator dials "<service>.<namespace>.svc". */
export function serviceServerName(service: ServiceReference): string {
  return `${service.name}.${service.namespace}.svc`;
}
