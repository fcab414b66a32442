import { isObject, type KubeObject } from '../../api/types.js';
import { stringList, textOf } from './service-ip-validation.js';
import { externallyAccessible, needsHealthCheck } from './service-validation.js';

/**
 * What kube-apiserver's Service REST storage and strategy do to a Service before validating it: keep clusterIP and
 * clusterIPs in step (normalizeClusterIPs), keep allocated values a client left out (patchAllocatedValues), and
 * drop the fields a type change leaves meaningless (dropTypeDependentFields), so validation judges what the user
 * meant.
 */

type Spec = Record<string, unknown>;

const specOf = (obj: KubeObject): Spec => {
  if (!isObject(obj.spec)) obj.spec = {};
  return obj.spec as Spec;
};
/** Go's comparisons of these fields treat an empty list as an absent one. */
const normal = (v: unknown): unknown => (v === undefined || v === null || (Array.isArray(v) && v.length === 0) ? null : v);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(normal(a)) === JSON.stringify(normal(b));
const needsClusterIp = (spec: Spec): boolean => spec.type !== 'ExternalName';
const needsNodePort = (spec: Spec): boolean => spec.type === 'NodePort' || spec.type === 'LoadBalancer';
const portsOf = (spec: Spec): Record<string, unknown>[] => (Array.isArray(spec.ports) ? spec.ports.filter(isObject) : []);

/** normalizeClusterIPs on create: a client that sets only the singular field gets the plural one. */
export function prepareServiceCreate(obj: KubeObject): void {
  const spec = specOf(obj);
  if (textOf(spec.clusterIP) !== '' && stringList(spec.clusterIPs).length === 0) spec.clusterIPs = [spec.clusterIP];
}

function patchAllocatedValues(spec: Spec, old: Spec): void {
  if (needsClusterIp(old) && needsClusterIp(spec)) {
    if (textOf(spec.clusterIP) === '' && old.clusterIP !== undefined) spec.clusterIP = old.clusterIP;
    if (stringList(spec.clusterIPs).length === 0 && stringList(old.clusterIPs).length > 0) spec.clusterIPs = old.clusterIPs;
  }
  if (needsNodePort(old) && needsNodePort(spec)) {
    const used = (s: Spec): Set<unknown> =>
      new Set(
        portsOf(s)
          .map((p) => p.nodePort)
          .filter((n) => typeof n === 'number' && n !== 0),
      );
    const newUsed = used(spec);
    const taken = new Set([...used(old)].filter((n) => newUsed.has(n)));
    const byName = new Map(portsOf(old).map((p) => [textOf(p.name), p.nodePort]));
    for (const port of portsOf(spec)) {
      if (typeof port.nodePort === 'number' && port.nodePort !== 0) continue;
      const previous = byName.get(textOf(port.name));
      if (typeof previous === 'number' && previous !== 0 && !taken.has(previous)) port.nodePort = previous;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(spec) && !spec.healthCheckNodePort && old.healthCheckNodePort !== undefined) {
    spec.healthCheckNodePort = old.healthCheckNodePort;
  }
}

function normalizeClusterIps(spec: Spec, old: Spec): void {
  const clusterIP = textOf(spec.clusterIP);
  const oldClusterIP = textOf(old.clusterIP);
  // An old client patching other fields sends the singular address only.
  if (stringList(old.clusterIPs).length > 0 && stringList(spec.clusterIPs).length === 0 && clusterIP === oldClusterIP) {
    spec.clusterIPs = old.clusterIPs;
  }
  if (clusterIP === oldClusterIP || !same(spec.clusterIPs, old.clusterIPs)) return;
  if (oldClusterIP !== '' && clusterIP === '') delete spec.clusterIPs;
  else spec.clusterIPs = [clusterIP];
}

function dropTypeDependentFields(spec: Spec, old: Spec, next: KubeObject): void {
  if (needsClusterIp(old) && !needsClusterIp(spec)) {
    if (same(spec.clusterIPs, old.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (same(spec.ipFamilies, old.ipFamilies)) delete spec.ipFamilies;
    if (same(spec.ipFamilyPolicy, old.ipFamilyPolicy)) delete spec.ipFamilyPolicy;
  }
  const nodePorts = (s: Spec): unknown[] => portsOf(s).map((p) => p.nodePort ?? 0);
  if (needsNodePort(old) && !needsNodePort(spec) && same(nodePorts(spec), nodePorts(old))) {
    for (const port of portsOf(spec)) delete port.nodePort;
  }
  if (needsHealthCheck(old) && !needsHealthCheck(spec) && same(spec.healthCheckNodePort, old.healthCheckNodePort)) {
    delete spec.healthCheckNodePort;
  }
  if (old.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (
      typeof spec.allocateLoadBalancerNodePorts === 'boolean' &&
      spec.allocateLoadBalancerNodePorts === old.allocateLoadBalancerNodePorts
    ) {
      delete spec.allocateLoadBalancerNodePorts;
    }
    if (same(spec.loadBalancerClass, old.loadBalancerClass)) delete spec.loadBalancerClass;
    if (isObject(next.status)) next.status.loadBalancer = {};
  }
  if (externallyAccessible(old) && !externallyAccessible(spec) && same(spec.externalTrafficPolicy, old.externalTrafficPolicy)) {
    delete spec.externalTrafficPolicy;
  }
}

/** beginUpdate's patchAllocatedValues and normalizeClusterIPs, then the strategy's dropTypeDependentFields. */
export function prepareServiceUpdate(next: KubeObject, old: KubeObject): void {
  const spec = specOf(next);
  const oldSpec: Spec = isObject(old.spec) ? old.spec : {};
  patchAllocatedValues(spec, oldSpec);
  normalizeClusterIps(spec, oldSpec);
  dropTypeDependentFields(spec, oldSpec, next);
}
