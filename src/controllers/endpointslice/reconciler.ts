import type { KubeObject } from '../../api/types.js';
import { LAST_CHANGE_TRIGGER_TIME, publishNotReadyAddresses, record, shouldPodBeInEndpoints } from '../endpoint-util/pods.js';
import { formatRfc3339Nano } from '../endpoint-util/trigger-time.js';
import {
  type AddressType,
  type Endpoint,
  type EndpointPort,
  endpointKey,
  endpointPorts,
  endpointsEqualBeyondHash,
  podToEndpoint,
  portMapKey,
} from './endpoints.js';
import {
  addressTypesForService,
  isSamePlaceholder,
  newEndpointSlice,
  ownedBy,
  sliceAddressType,
  sliceEndpoints,
  sliceLabels,
  slicePorts,
  sliceToFill,
} from './slices.js';

/** The writes one sync makes for one address type, in the order finalize makes them. */
export interface SliceWrites {
  readonly create: KubeObject[];
  readonly update: KubeObject[];
  readonly delete: KubeObject[];
}

export interface ReconcileInput {
  readonly service: KubeObject;
  /** The pods the Service's selector matches in its namespace. */
  readonly pods: readonly KubeObject[];
  /** The Service's managed slices, those being deleted left out. */
  readonly slices: readonly KubeObject[];
  readonly maxEndpointsPerSlice: number;
  /** The node a pod runs on, from the informer; undefined when unknown. */
  readonly node: (name: string) => KubeObject | undefined;
  /** The sync's trigger time (ms), 0 for none. */
  readonly triggerTime: number;
}

export interface ReconcilePlan {
  /** One entry per address type the Service has. */
  readonly writes: SliceWrites[];
  /** Slices of address types the Service no longer has, deleted last. */
  readonly unsupported: KubeObject[];
  /** Pods skipped because their node is unknown: the sync fails with these after writing the rest, so it is retried. */
  readonly errors: string[];
}

/** EndpointSet: endpoints by identity, popped in insertion order. */
class EndpointSet {
  private readonly items = new Map<string, Endpoint>();
  insert(endpoint: Endpoint): void {
    this.items.set(endpointKey(endpoint), endpoint);
  }
  get(endpoint: Endpoint): Endpoint | undefined {
    return this.items.get(endpointKey(endpoint));
  }
  delete(endpoint: Endpoint): void {
    this.items.delete(endpointKey(endpoint));
  }
  get size(): number {
    return this.items.size;
  }
  pop(): Endpoint {
    const [key, endpoint] = this.items.entries().next().value as [string, Endpoint];
    this.items.delete(key);
    return endpoint;
  }
}

const withEndpoints = (slice: KubeObject, endpoints: Endpoint[], labels?: Record<string, string>): KubeObject => ({
  ...slice,
  metadata: { ...slice.metadata, ...(labels === undefined ? {} : { labels }) },
  endpoints,
});

/** reconcileByPortMapping: keep what is still wanted in place, fill changed slices first, then near-full ones, then new ones. */
function reconcilePortGroup(
  service: KubeObject,
  existing: readonly KubeObject[],
  desired: EndpointSet,
  ports: EndpointPort[],
  addressType: AddressType,
  max: number,
): SliceWrites {
  const byName = new Map<string, KubeObject>();
  const unchanged = new Set<string>();
  const toUpdate = new Set<string>();
  const toDelete = new Set<string>();
  for (const slice of existing) {
    const name = slice.metadata.name ?? '';
    byName.set(name, slice);
    const kept: Endpoint[] = [];
    let endpointUpdated = false;
    const current = sliceEndpoints(slice);
    for (const endpoint of current) {
      const wanted = desired.get(endpoint);
      if (wanted === undefined) continue;
      kept.push(wanted);
      if (!endpointsEqualBeyondHash(wanted, endpoint)) endpointUpdated = true;
      desired.delete(endpoint);
    }
    const { labels, changed } = sliceLabels(slice, service);
    if (endpointUpdated || current.length !== kept.length) {
      if (kept.length === 0) toDelete.add(name);
      else {
        byName.set(name, withEndpoints(slice, kept, labels));
        toUpdate.add(name);
      }
    } else if (changed) {
      byName.set(name, withEndpoints(slice, [...current], labels));
      toUpdate.add(name);
    } else unchanged.add(name);
  }

  if (desired.size > 0 && toUpdate.size > 0) {
    const fullestFirst = [...toUpdate]
      .map((n) => byName.get(n) as KubeObject)
      .sort((a, b) => sliceEndpoints(b).length - sliceEndpoints(a).length);
    for (const slice of fullestFirst) {
      const endpoints = sliceEndpoints(slice);
      while (desired.size > 0 && endpoints.length < max) endpoints.push(desired.pop());
    }
  }

  const create: KubeObject[] = [];
  while (desired.size > 0) {
    let fill: KubeObject | undefined;
    if (desired.size < max && unchanged.size > 0) {
      const candidate = sliceToFill(
        [...unchanged].map((n) => byName.get(n) as KubeObject),
        desired.size,
        max,
      );
      if (candidate !== undefined) {
        fill = withEndpoints(candidate, [...sliceEndpoints(candidate)]);
        byName.set(candidate.metadata.name ?? '', fill);
      }
    }
    fill ??= newEndpointSlice(service, ports, addressType);
    const endpoints = sliceEndpoints(fill);
    while (desired.size > 0 && endpoints.length < max) endpoints.push(desired.pop());
    const name = fill.metadata.name;
    if (name !== undefined && name !== '') {
      toUpdate.add(name);
      unchanged.delete(name);
    } else create.push(fill);
  }
  const pick = (names: Set<string>): KubeObject[] => [...names].map((n) => byName.get(n) as KubeObject);
  return { create, update: pick(toUpdate), delete: pick(toDelete) };
}

/** reconcileByAddressType: the slices of one address type, with the placeholder when there would be none. */
function reconcileAddressType(
  input: ReconcileInput,
  existing: readonly KubeObject[],
  addressType: AddressType,
  errors: string[],
): SliceWrites {
  const { service } = input;
  const existingByPorts = new Map<string, KubeObject[]>();
  const create: KubeObject[] = [];
  const update: KubeObject[] = [];
  const remove: KubeObject[] = [];
  for (const slice of existing) {
    if (!ownedBy(slice, service)) {
      remove.push(slice);
      continue;
    }
    const key = portMapKey(slicePorts(slice));
    existingByPorts.set(key, [...(existingByPorts.get(key) ?? []), slice]);
  }
  const desiredByPorts = new Map<string, { ports: EndpointPort[]; endpoints: EndpointSet }>();
  for (const pod of input.pods) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ports = endpointPorts(service, pod);
    const key = portMapKey(ports as unknown as Record<string, unknown>[]);
    let group = desiredByPorts.get(key);
    if (group === undefined) {
      group = { ports, endpoints: new EndpointSet() };
      desiredByPorts.set(key, group);
    }
    const nodeName = String(record(pod.spec).nodeName ?? '');
    const node = input.node(nodeName);
    if (node === undefined && !publishNotReadyAddresses(service)) {
      errors.push(
        `skipping Pod ${pod.metadata.name} for Service ${service.metadata.namespace}/${service.metadata.name}: Node ${nodeName} Not Found`,
      );
      continue;
    }
    const endpoint = podToEndpoint(pod, node, service, addressType);
    if (endpoint.addresses.length > 0) group.endpoints.insert(endpoint);
  }
  for (const [key, group] of desiredByPorts) {
    const writes = reconcilePortGroup(
      service,
      existingByPorts.get(key) ?? [],
      group.endpoints,
      group.ports,
      addressType,
      input.maxEndpointsPerSlice,
    );
    create.push(...writes.create);
    update.push(...writes.update);
    remove.push(...writes.delete);
  }
  for (const [key, slices] of existingByPorts) if (!desiredByPorts.has(key)) remove.push(...slices);
  if (existing.length === remove.length && create.length === 0) {
    const placeholder = newEndpointSlice(service, [], addressType);
    const [only] = remove;
    if (remove.length === 1 && only !== undefined && isSamePlaceholder(only, placeholder)) remove.length = 0;
    else create.push(placeholder);
  }
  return finalize(service, { create, update, delete: remove }, input.triggerTime);
}

function withTriggerTime(slice: KubeObject, triggerTime: number): KubeObject {
  const annotations = { ...(slice.metadata.annotations ?? {}) };
  if (triggerTime > 0) annotations[LAST_CHANGE_TRIGGER_TIME] = formatRfc3339Nano(triggerTime);
  else delete annotations[LAST_CHANGE_TRIGGER_TIME];
  return { ...slice, metadata: { ...slice.metadata, annotations } };
}

/**
 * finalize's planning half: a slice about to be deleted takes the place of a slice about to be created (same
 * address type, owned by the Service), so names are reused rather than churned (R12.132); every written slice
 * carries the trigger time.
 */
function finalize(service: KubeObject, writes: SliceWrites, triggerTime: number): SliceWrites {
  const create = [...writes.create];
  const update = [...writes.update];
  const remove = [...writes.delete];
  for (let i = 0; i < remove.length && create.length > 0; ) {
    const doomed = remove[i] as KubeObject;
    const fresh = create[create.length - 1] as KubeObject;
    if (sliceAddressType(doomed) === sliceAddressType(fresh) && ownedBy(doomed, service)) {
      create.pop();
      const { generateName: _generated, ...metadata } = fresh.metadata;
      update.push({ ...fresh, metadata: { ...doomed.metadata, ...metadata, name: doomed.metadata.name } });
      remove.splice(i, 1);
    } else i++;
  }
  return {
    create: create.map((s) => withTriggerTime(s, triggerTime)),
    update: update.map((s) => withTriggerTime(s, triggerTime)),
    delete: remove,
  };
}

/** Reconcile: the slices a Service should have, as writes over the ones it has (R12.130–R12.133). */
export function reconcileSlices(input: ReconcileInput): ReconcilePlan {
  const types = addressTypesForService(input.service);
  const unsupported: KubeObject[] = [];
  const byType = new Map<AddressType, KubeObject[]>();
  for (const slice of input.slices) {
    const type = sliceAddressType(slice) as AddressType;
    if (!types.includes(type)) unsupported.push(slice);
    else byType.set(type, [...(byType.get(type) ?? []), slice]);
  }
  const errors: string[] = [];
  const writes = types.map((type) => reconcileAddressType(input, byType.get(type) ?? [], type, errors));
  return { writes, unsupported, errors };
}
