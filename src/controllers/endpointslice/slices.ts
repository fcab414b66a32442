import type { KubeObject } from '../../api/types.js';
import { isDns1123Subdomain } from '../../validation/names.js';
import { HEADLESS_LABEL, isIPv6, isServiceIPSet, serviceSpec } from '../endpoint-util/pods.js';
import type { AddressType, Endpoint, EndpointPort } from './endpoints.js';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';

const RESERVED = new Set([SERVICE_NAME_LABEL, MANAGED_BY_LABEL, HEADLESS_LABEL]);

export function sliceEndpoints(slice: KubeObject): Endpoint[] {
  return Array.isArray(slice.endpoints) ? (slice.endpoints as Endpoint[]) : [];
}

export function slicePorts(slice: KubeObject): Record<string, unknown>[] {
  return Array.isArray(slice.ports) ? (slice.ports as Record<string, unknown>[]) : [];
}

export function sliceAddressType(slice: KubeObject): string {
  return typeof slice.addressType === 'string' ? slice.addressType : '';
}

/**
 * setEndpointSliceLabels (R12.130): the Service's labels less the reserved keys, the headless label for a Service
 * without a ClusterIP, and the service-name and managed-by labels; `changed` when the slice's own non-reserved
 * labels differ from the Service's.
 */
export function sliceLabels(slice: KubeObject, service: KubeObject): { labels: Record<string, string>; changed: boolean } {
  const own = Object.entries(slice.metadata.labels ?? {}).filter(([k]) => !RESERVED.has(k));
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(service.metadata.labels ?? {})) if (!RESERVED.has(k)) labels[k] = v;
  const changed = own.length !== Object.keys(labels).length || own.some(([k, v]) => labels[k] !== v);
  if (!isServiceIPSet(service)) labels[HEADLESS_LABEL] = '';
  labels[SERVICE_NAME_LABEL] = service.metadata.name ?? '';
  labels[MANAGED_BY_LABEL] = CONTROLLER_NAME;
  return { labels, changed };
}

/** getEndpointSlicePrefix: `<service>-`, or the bare name when the dash would make it too long. */
function generateNameFor(service: string): string {
  const prefix = `${service}-`;
  return isDns1123Subdomain(`${prefix}a`) ? prefix : service;
}

/** newEndpointSlice: an unnamed slice controlled by the Service. */
export function newEndpointSlice(service: KubeObject, ports: readonly EndpointPort[], addressType: AddressType): KubeObject {
  const slice: KubeObject = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: generateNameFor(service.metadata.name ?? ''),
      namespace: service.metadata.namespace,
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name: service.metadata.name ?? '',
          uid: service.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    addressType,
    endpoints: [],
    ports: [...ports],
  };
  slice.metadata.labels = sliceLabels(slice, service).labels;
  return slice;
}

/** ownedBy: a v1 Service reference with this Service's uid. */
export function ownedBy(slice: KubeObject, service: KubeObject): boolean {
  return (slice.metadata.ownerReferences ?? []).some(
    (o) => o.uid === service.metadata.uid && o.kind === 'Service' && o.apiVersion === 'v1',
  );
}

/** getSliceToFill: the slice that ends closest to full once `count` endpoints are added to it. */
export function sliceToFill(slices: readonly KubeObject[], count: number, max: number): KubeObject | undefined {
  let closest = max;
  let chosen: KubeObject | undefined;
  for (const slice of slices) {
    const diff = max - (count + sliceEndpoints(slice).length);
    if (diff >= 0 && diff < closest) {
      closest = diff;
      chosen = slice;
      if (diff === 0) break;
    }
  }
  return chosen;
}

/** getAddressTypesForService: the Service's ipFamilies; without them, the ClusterIP's family, or both when headless. */
export function addressTypesForService(service: KubeObject): AddressType[] {
  const spec = serviceSpec(service);
  const families = Array.isArray(spec.ipFamilies) ? spec.ipFamilies : [];
  const types: AddressType[] = [];
  if (families.includes('IPv4')) types.push('IPv4');
  if (families.includes('IPv6')) types.push('IPv6');
  if (types.length > 0) return types;
  if (isServiceIPSet(service)) return [isIPv6(String(spec.clusterIP)) ? 'IPv6' : 'IPv4'];
  return ['IPv4', 'IPv6'];
}

/**
 * placeholderSliceCompare: the same namespace, labels and address type, and no endpoints or ports (its metadata
 * comparison looks at nothing else, owner references included).
 */
export function isSamePlaceholder(slice: KubeObject, placeholder: KubeObject): boolean {
  const a = slice.metadata.labels ?? {};
  const b = placeholder.metadata.labels ?? {};
  const sameLabels = Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
  return (
    sameLabels &&
    slice.metadata.namespace === placeholder.metadata.namespace &&
    sliceAddressType(slice) === sliceAddressType(placeholder) &&
    sliceEndpoints(slice).length === 0 &&
    slicePorts(slice).length === 0
  );
}
