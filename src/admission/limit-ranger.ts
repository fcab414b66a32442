import { forbidden } from '../api/errors.js';
import { isObject, objects, type KubeObject } from '../api/types.js';
import type { MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from '../registry/admission/plugin.js';
import { add, compare, formatQuantity, parseQuantity, type Quantity, ZERO } from './resource-quota/quantity.js';

/**
 * The LimitRanger admission plugin (plugin/pkg/admission/limitranger): a pod's containers get the `default` limits
 * and `defaultRequest` requests of the namespace's Container limit ranges for what they leave unset (recorded in the
 * `kubernetes.io/limit-ranger` annotation), then pods, containers and claims are held to the ranges' min, max and
 * maxLimitRequestRatio, refused with Kubernetes' messages.
 */

const ANNOTATION = 'kubernetes.io/limit-ranger';

type Json = Record<string, unknown>;
type ResourceList = Map<string, Quantity>;

const record = (value: unknown): Json => (isObject(value) ? value : {});
const list = (value: unknown): ResourceList => new Map(Object.entries(record(value)).map(([k, v]) => [k, parseQuantity(v)]));
const text = (value: unknown): string => formatQuantity(parseQuantity(value));

function items(ranges: readonly KubeObject[], type: string): Json[] {
  return ranges.flatMap((range) => objects(record(range.spec).limits)).filter((item) => item.type === type);
}

/** Fills one container's unset limits and requests; returns the names set, for the annotation. */
function applyDefaults(container: Json, defaults: Json[]): { requests: string[]; limits: string[] } {
  const resources = record(container.resources);
  const limits = record(resources.limits);
  const requests = record(resources.requests);
  const set = { requests: [] as string[], limits: [] as string[] };
  for (const item of defaults) {
    for (const [name, value] of Object.entries(record(item.default))) {
      if (limits[name] !== undefined) continue;
      limits[name] = value;
      set.limits.push(name);
    }
    for (const [name, value] of Object.entries(record(item.defaultRequest))) {
      if (requests[name] !== undefined) continue;
      requests[name] = value;
      set.requests.push(name);
    }
  }
  if (set.limits.length > 0 || set.requests.length > 0) {
    container.resources = {
      ...resources,
      ...(Object.keys(limits).length > 0 ? { limits } : {}),
      ...(Object.keys(requests).length > 0 ? { requests } : {}),
    };
  }
  return set;
}

/** PodMutateLimitFunc: defaults for every container and init container. */
export function defaultPodResources(pod: KubeObject, ranges: readonly KubeObject[]): void {
  const defaults = items(ranges, 'Container');
  if (defaults.length === 0) return;
  const spec = record(pod.spec);
  const notes: string[] = [];
  const note = (names: string[], what: string, prefix: string, name: unknown): void => {
    if (names.length > 0) notes.push(`${[...names].sort().join(', ')} ${what} for ${prefix} ${String(name)}`);
  };
  for (const [prefix, containers] of [
    ['container', objects(spec.containers)],
    ['init container', objects(spec.initContainers)],
  ] as const) {
    for (const container of containers) {
      const set = applyDefaults(container, defaults);
      note(set.requests, 'request', prefix, container.name);
      note(set.limits, 'limit', prefix, container.name);
    }
  }
  if (notes.length > 0)
    pod.metadata.annotations = { ...pod.metadata.annotations, [ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
}

function minConstraint(type: string, name: string, enforced: unknown, requests: ResourceList, limits: ResourceList): string | undefined {
  const min = parseQuantity(enforced);
  const request = requests.get(name);
  const limit = limits.get(name);
  if (request === undefined) return `minimum ${name} usage per ${type} is ${text(enforced)}.  No request is specified`;
  if (compare(request, min) < 0) return `minimum ${name} usage per ${type} is ${text(enforced)}, but request is ${formatQuantity(request)}`;
  if (limit !== undefined && compare(limit, min) < 0)
    return `minimum ${name} usage per ${type} is ${text(enforced)}, but limit is ${formatQuantity(limit)}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: unknown, requests: ResourceList, limits: ResourceList): string | undefined {
  const max = parseQuantity(enforced);
  const request = requests.get(name);
  const limit = limits.get(name);
  if (limit === undefined) return `maximum ${name} usage per ${type} is ${text(enforced)}.  No limit is specified`;
  if (compare(limit, max) > 0) return `maximum ${name} usage per ${type} is ${text(enforced)}, but limit is ${formatQuantity(limit)}`;
  if (request !== undefined && compare(request, max) > 0)
    return `maximum ${name} usage per ${type} is ${text(enforced)}, but request is ${formatQuantity(request)}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: unknown, requests: ResourceList, limits: ResourceList): string | undefined {
  const request = requests.get(name) ?? ZERO;
  const limit = limits.get(name) ?? ZERO;
  const prefix = `${name} max limit to request ratio per ${type} is ${text(enforced)}`;
  if (request.nano === 0n) return `${prefix}, but no request is specified or request is 0`;
  if (limit.nano === 0n) return `${prefix}, but no limit is specified or limit is 0`;
  const ratio = Number(limit.nano) / Number(request.nano);
  if (ratio > Number(parseQuantity(enforced).nano) / 1e9) return `${prefix}, but provided ratio is ${ratio.toFixed(6)}`;
  return undefined;
}

/** The min, max and ratio checks of one item against a requests/limits pair, in resource-name order. */
function check(item: Json, type: string, requests: ResourceList, limits: ResourceList, errors: string[]): void {
  const each = (field: string, fn: typeof minConstraint): void => {
    for (const [name, value] of Object.entries(record(item[field])).sort(([a], [b]) => a.localeCompare(b))) {
      const error = fn(type, name, value, requests, limits);
      if (error !== undefined) errors.push(error);
    }
  };
  each('min', minConstraint);
  each('max', maxConstraint);
  each('maxLimitRequestRatio', ratioConstraint);
}

/** A pod's aggregate: the sum of its containers, at least the largest init container. */
function podTotal(pod: KubeObject, field: 'requests' | 'limits'): ResourceList {
  const spec = record(pod.spec);
  const total: ResourceList = new Map();
  for (const c of objects(spec.containers))
    for (const [k, q] of list(record(c.resources)[field])) total.set(k, add(total.get(k) ?? ZERO, q));
  for (const c of objects(spec.initContainers)) {
    for (const [k, q] of list(record(c.resources)[field])) if (compare(q, total.get(k) ?? ZERO) > 0) total.set(k, q);
  }
  return total;
}

/** PodValidateLimitFunc and PersistentVolumeClaimValidateLimitFunc: every violation, in Kubernetes' words. */
export function limitViolations(resource: string, obj: KubeObject, ranges: readonly KubeObject[]): string[] {
  const errors: string[] = [];
  if (resource === 'pods') {
    const spec = record(obj.spec);
    for (const item of items(ranges, 'Container')) {
      for (const c of [...objects(spec.containers), ...objects(spec.initContainers)]) {
        const resources = record(c.resources);
        check(item, 'Container', list(resources.requests), list(resources.limits), errors);
      }
    }
    for (const item of items(ranges, 'Pod')) check(item, 'Pod', podTotal(obj, 'requests'), podTotal(obj, 'limits'), errors);
  }
  if (resource === 'persistentvolumeclaims') {
    const requests = list(record(record(obj.spec).resources).requests);
    for (const item of items(ranges, 'PersistentVolumeClaim')) {
      const type = 'PersistentVolumeClaim';
      for (const [name, value] of Object.entries(record(item.min)).sort(([a], [b]) => a.localeCompare(b))) {
        const error = minConstraint(type, name, value, requests, new Map());
        if (error !== undefined) errors.push(error);
      }
      for (const [name, value] of Object.entries(record(item.max)).sort(([a], [b]) => a.localeCompare(b))) {
        const request = requests.get(name);
        if (request === undefined) errors.push(`maximum ${name} usage per ${type} is ${text(value)}.  No request is specified`);
        else if (compare(request, parseQuantity(value)) > 0) {
          errors.push(`maximum ${name} usage per ${type} is ${text(value)}, but request is ${formatQuantity(request)}`);
        }
      }
    }
  }
  return errors;
}

/** utilerrors.NewAggregate's message: one error as is, several in brackets. */
function aggregate(errors: readonly string[]): string {
  return errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`;
}

/** The plugin, for both phases: defaults while mutating, limits while validating. */
export function limitRanger(rangesIn: (namespace: string) => KubeObject[]): MutatingAdmissionPlugin & ValidatingAdmissionPlugin {
  const applies = (resource: { group: string; plural: string }, subresource: string): boolean =>
    resource.group === '' && (resource.plural === 'pods' || resource.plural === 'persistentvolumeclaims') && subresource === '';
  return {
    name: 'LimitRanger',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    async admit(attributes) {
      const { namespace, object, resource } = attributes;
      if (namespace === undefined || object === undefined || attributes.operation !== 'CREATE' || resource.plural !== 'pods') return;
      if (!applies(resource, attributes.subresource)) return;
      defaultPodResources(object, rangesIn(namespace));
    },
    async validate(attributes) {
      const { namespace, object, resource } = attributes;
      if (namespace === undefined || object === undefined || !applies(resource, attributes.subresource)) return;
      // A pod's resources are fixed once created; a claim's request may grow.
      if (attributes.operation === 'UPDATE' && resource.plural === 'pods') return;
      const errors = limitViolations(resource.plural, object, rangesIn(namespace));
      if (errors.length === 0) return;
      const name =
        object.metadata.generateName !== undefined && object.metadata.generateName !== '' ? object.metadata.generateName : attributes.name;
      throw forbidden({ group: '', resource: resource.plural }, name, aggregate(errors));
    },
  };
}
