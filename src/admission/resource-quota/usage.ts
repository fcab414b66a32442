import { isObject, objects, type KubeObject } from '../../api/types.js';
import { add, count, parseQuantity, type Quantity, ZERO } from './quantity.js';

/**
 * What an object charges to a ResourceQuota (pkg/quota/v1/evaluator/core): every object counts as
 * `count/<resource>[.<group>]`; pods, services and persistent volume claims also charge their legacy count names
 * and their compute, node port and storage resources. Pure, shared by the admission plugin and the controller.
 */

export type Usage = Map<string, Quantity>;

/** The resource names a group/resource is counted under. */
export function objectCountName(group: string, resource: string): string {
  return group === '' ? `count/${resource}` : `count/${resource}.${group}`;
}

/** Core resources whose count also has a bare name (`pods`, `secrets`…), pkg/quota/v1/evaluator/core/registry.go. */
const LEGACY_COUNTS = new Set([
  'configmaps',
  'persistentvolumeclaims',
  'pods',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'services',
]);

/** The quota resources, beyond counts, an evaluator of this resource can charge. */
function computeResource(group: string, resource: string, name: string): boolean {
  if (group !== '') return false;
  if (resource === 'pods') {
    return (
      ['cpu', 'memory', 'ephemeral-storage'].includes(name) ||
      name.startsWith('requests.') ||
      name.startsWith('limits.') ||
      name.startsWith('hugepages-')
    );
  }
  if (resource === 'services') return name === 'services.loadbalancers' || name === 'services.nodeports';
  if (resource === 'persistentvolumeclaims') {
    return (
      name === 'requests.storage' ||
      name.endsWith('.storageclass.storage.k8s.io/requests.storage') ||
      name.endsWith('.storageclass.storage.k8s.io/persistentvolumeclaims')
    );
  }
  return false;
}

/** The quota's resource names this resource's objects are charged under (Evaluator.MatchingResources). */
export function matchingResources(group: string, resource: string, names: Iterable<string>): string[] {
  const legacy = group === '' && LEGACY_COUNTS.has(resource) ? resource : undefined;
  const counted = objectCountName(group, resource);
  return [...names].filter((name) => name === counted || name === legacy || computeResource(group, resource, name)).sort();
}

const record = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});

function isTerminalPod(pod: KubeObject, now: number): boolean {
  const phase = record(pod.status).phase;
  if (phase === 'Succeeded' || phase === 'Failed') return true;
  const deletion = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  return typeof deletion === 'string' && typeof grace === 'number' && now > Date.parse(deletion) + grace * 1000;
}

/** A pod's requests or limits: the sum over its containers, at least the largest init container's, plus overhead. */
function podResources(pod: KubeObject, field: 'requests' | 'limits'): Usage {
  const spec = record(pod.spec);
  const sum: Usage = new Map();
  const of = (container: Record<string, unknown>): Record<string, unknown> => record(record(container.resources)[field]);
  for (const container of objects(spec.containers)) {
    for (const [name, value] of Object.entries(of(container))) sum.set(name, add(sum.get(name) ?? ZERO, parseQuantity(value)));
  }
  for (const init of objects(spec.initContainers)) {
    for (const [name, value] of Object.entries(of(init))) {
      const q = parseQuantity(value);
      if ((sum.get(name)?.nano ?? 0n) < q.nano) sum.set(name, q);
    }
  }
  for (const [name, value] of Object.entries(record(spec.overhead))) {
    if (sum.has(name)) sum.set(name, add(sum.get(name) ?? ZERO, parseQuantity(value)));
  }
  return sum;
}

/** podComputeUsageHelper: the quota names a set of requests and limits charges. */
function computeUsage(requests: Usage, limits: Usage): Usage {
  const usage: Usage = new Map([['pods', count(1)]]);
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    const request = requests.get(name);
    if (request !== undefined) {
      usage.set(name, request);
      usage.set(`requests.${name}`, request);
    }
    const limit = limits.get(name);
    if (limit !== undefined) usage.set(`limits.${name}`, limit);
  }
  for (const [name, request] of requests) {
    if (name.startsWith('hugepages-')) {
      usage.set(name, request);
      usage.set(`requests.${name}`, request);
    } else if (name.includes('/') && !name.startsWith('kubernetes.io/') && !name.startsWith('requests.')) {
      usage.set(`requests.${name}`, request);
    }
  }
  return usage;
}

function serviceUsage(service: KubeObject): Usage {
  const spec = record(service.spec);
  const ports = objects(spec.ports).length;
  const usage: Usage = new Map([['services', count(1)]]);
  if (spec.type === 'LoadBalancer') {
    usage.set('services.loadbalancers', count(1));
    if (spec.allocateLoadBalancerNodePorts !== false) usage.set('services.nodeports', count(ports));
  }
  if (spec.type === 'NodePort') usage.set('services.nodeports', count(ports));
  return usage;
}

function claimUsage(claim: KubeObject): Usage {
  const spec = record(claim.spec);
  const usage: Usage = new Map([['persistentvolumeclaims', count(1)]]);
  const requested = parseQuantity(record(record(spec.resources).requests).storage);
  // A resize in progress charges the larger of the request and what was allocated.
  const allocated = record(record(claim.status).allocatedResources).storage;
  const storage = allocated !== undefined && parseQuantity(allocated).nano > requested.nano ? parseQuantity(allocated) : requested;
  usage.set('requests.storage', storage);
  const className =
    typeof spec.storageClassName === 'string'
      ? spec.storageClassName
      : claim.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (className !== undefined && className !== '') {
    usage.set(`${className}.storageclass.storage.k8s.io/persistentvolumeclaims`, count(1));
    usage.set(`${className}.storageclass.storage.k8s.io/requests.storage`, storage);
  }
  return usage;
}

/** Everything an object charges; `now` (ms) decides whether a deleted pod's grace has run out. */
export function usageOf(group: string, resource: string, obj: KubeObject, now: number): Usage {
  const usage: Usage = new Map([[objectCountName(group, resource), count(1)]]);
  if (group !== '') return usage;
  let extra: Usage = new Map();
  if (resource === 'pods') {
    if (!isTerminalPod(obj, now)) extra = computeUsage(podResources(obj, 'requests'), podResources(obj, 'limits'));
  } else if (resource === 'services') extra = serviceUsage(obj);
  else if (resource === 'persistentvolumeclaims') extra = claimUsage(obj);
  else if (LEGACY_COUNTS.has(resource)) extra = new Map([[resource, count(1)]]);
  for (const [name, q] of extra) usage.set(name, q);
  return usage;
}

/** The quota resources that, once a quota tracks them, every container must request or limit (validationSet). */
const MUST_SPECIFY = ['cpu', 'limits.cpu', 'limits.memory', 'memory', 'requests.cpu', 'requests.memory'];

/** Evaluator.Constraints for pods: the error text after "failed quota: NAME: ", or undefined. */
export function podConstraintViolation(pod: KubeObject, required: readonly string[]): string | undefined {
  const needed = required.filter((name) => MUST_SPECIFY.includes(name));
  if (needed.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  const spec = record(pod.spec);
  for (const container of [...objects(spec.containers), ...objects(spec.initContainers)]) {
    const resources = record(container.resources);
    const usage = computeUsage(
      new Map(Object.keys(record(resources.requests)).map((k) => [k, ZERO])),
      new Map(Object.keys(record(resources.limits)).map((k) => [k, ZERO])),
    );
    for (const name of needed) {
      if (usage.has(name)) continue;
      const names = missing.get(name) ?? new Set<string>();
      names.add(String(container.name ?? ''));
      missing.set(name, names);
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()].sort().map((name) => `${name} for: ${[...(missing.get(name) ?? [])].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

function isBestEffort(pod: KubeObject): boolean {
  const spec = record(pod.spec);
  return [...objects(spec.containers), ...objects(spec.initContainers)].every((c) => {
    const resources = record(c.resources);
    const named = (list: unknown): boolean => Object.keys(record(list)).some((k) => ['cpu', 'memory'].includes(k));
    return !named(resources.requests) && !named(resources.limits);
  });
}

interface ScopeRequirement {
  readonly scopeName: string;
  readonly operator: string;
  readonly values: readonly string[];
}

/** The quota's scopes and scope selector requirements, all of which an object must match. */
function scopeRequirements(quota: KubeObject): ScopeRequirement[] {
  const spec = record(quota.spec);
  const scopes = Array.isArray(spec.scopes) ? spec.scopes.map((s) => ({ scopeName: String(s), operator: 'Exists', values: [] })) : [];
  const expressions = objects(record(spec.scopeSelector).matchExpressions).map((e) => ({
    scopeName: String(e.scopeName ?? ''),
    operator: String(e.operator ?? ''),
    values: Array.isArray(e.values) ? e.values.map(String) : [],
  }));
  return [...scopes, ...expressions];
}

function podMatchesScope(pod: KubeObject, scope: ScopeRequirement): boolean {
  const spec = record(pod.spec);
  switch (scope.scopeName) {
    case 'Terminating':
      return typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0;
    case 'NotTerminating':
      return !(typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0);
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass': {
      const className = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
      if (scope.operator === 'Exists') return className !== '';
      if (scope.operator === 'DoesNotExist') return className === '';
      if (scope.operator === 'In') return className !== '' && scope.values.includes(className);
      return className === '' || !scope.values.includes(className);
    }
    case 'CrossNamespacePodAffinity': {
      const affinity = record(spec.affinity);
      const terms = [record(affinity.podAffinity), record(affinity.podAntiAffinity)].flatMap((a) => [
        ...objects(a.requiredDuringSchedulingIgnoredDuringExecution),
        ...objects(a.preferredDuringSchedulingIgnoredDuringExecution).map((w) => record(w.podAffinityTerm)),
      ]);
      return terms.some((t) => (Array.isArray(t.namespaces) && t.namespaces.length > 0) || t.namespaceSelector !== undefined);
    }
    default:
      return false;
  }
}

/** Whether the quota's scopes cover the object: scoped quotas only ever cover pods. */
export function quotaCovers(quota: KubeObject, group: string, resource: string, obj: KubeObject): boolean {
  const requirements = scopeRequirements(quota);
  if (requirements.length === 0) return true;
  if (group !== '' || resource !== 'pods') return false;
  return requirements.every((r) => podMatchesScope(obj, r));
}
