import { isObject, type KubeObject } from '../../api/types.js';
import { isPodReady, podPhase } from '../workloads/pods.js';

/** What the Endpoints and EndpointSlice controllers read of a Service and its pods (endpointslice/util). */

export const record = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});
export const objects = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isObject) : []);

export const HEADLESS_LABEL = 'service.kubernetes.io/headless';
export const LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';

export function serviceSpec(service: KubeObject): Record<string, unknown> {
  return record(service.spec);
}

/**
 * The selector of a Service whose endpoints the controllers manage (R12.125, R12.130): undefined for a Service
 * without one (its endpoints are written by hand) and for ExternalName Services. An empty selector is no selector:
 * kube-apiserver stores it as nil.
 */
export function managedSelector(service: KubeObject): Record<string, string> | undefined {
  const spec = serviceSpec(service);
  if (spec.type === 'ExternalName' || !isObject(spec.selector)) return undefined;
  const entries = Object.entries(spec.selector).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/** labels.Set(selector).AsSelector().Matches(labels). */
export function selectorMatches(selector: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>> | undefined): boolean {
  for (const key in selector) if (labels?.[key] !== selector[key]) return false;
  return true;
}

/** helper.IsServiceIPSet: a ClusterIP that is neither empty nor None. */
export function isServiceIPSet(service: KubeObject): boolean {
  const clusterIP = serviceSpec(service).clusterIP;
  return typeof clusterIP === 'string' && clusterIP !== '' && clusterIP !== 'None';
}

export function publishNotReadyAddresses(service: KubeObject): boolean {
  return serviceSpec(service).publishNotReadyAddresses === true;
}

/** The pod's IPs in status.podIPs order (status.podIP alone when podIPs is missing). */
export function podIPs(pod: KubeObject): string[] {
  const status = record(pod.status);
  const ips = objects(status.podIPs)
    .map((entry) => entry.ip)
    .filter((ip): ip is string => typeof ip === 'string' && ip !== '');
  if (ips.length === 0 && typeof status.podIP === 'string' && status.podIP !== '') ips.push(status.podIP);
  return ips;
}

export const isIPv6 = (ip: string): boolean => ip.includes(':');

/** ShouldPodBeInEndpoints: not terminal, has an IP, and not terminating unless terminating pods are wanted. */
export function shouldPodBeInEndpoints(pod: KubeObject, includeTerminating: boolean): boolean {
  const phase = podPhase(pod);
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (podIPs(pod).length === 0) return false;
  return includeTerminating || pod.metadata.deletionTimestamp === undefined;
}

/** ShouldSetHostname: the pod names a hostname and lives under this Service's subdomain. */
export function shouldSetHostname(pod: KubeObject, service: KubeObject): boolean {
  const spec = record(pod.spec);
  return (
    typeof spec.hostname === 'string' &&
    spec.hostname !== '' &&
    spec.subdomain === service.metadata.name &&
    pod.metadata.namespace === service.metadata.namespace
  );
}

const portProtocol = (port: Record<string, unknown>): string => (typeof port.protocol === 'string' ? port.protocol : 'TCP');

/**
 * FindPort: a numeric targetPort as is; a named one is the container port of that name and the Service port's
 * protocol, in the containers and then the sidecars (init containers that always restart). Undefined when the pod
 * has no such port, so the pod is left out of that port only (R12.128).
 */
export function findPort(pod: KubeObject, servicePort: Record<string, unknown>): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  if (typeof target !== 'string') return undefined;
  if (/^[0-9]+$/.test(target)) return Number(target);
  const protocol = portProtocol(servicePort);
  const spec = record(pod.spec);
  const sidecars = objects(spec.initContainers).filter((c) => c.restartPolicy === 'Always');
  for (const container of [...objects(spec.containers), ...sidecars]) {
    for (const port of objects(container.ports)) {
      if (port.name === target && portProtocol(port) === protocol && typeof port.containerPort === 'number') return port.containerPort;
    }
  }
  return undefined;
}

const sameLabels = (a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean => {
  const ak = Object.keys(a ?? {});
  if (ak.length !== Object.keys(b ?? {}).length) return false;
  return ak.every((k) => a?.[k] === b?.[k]);
};

/**
 * podEndpointsChanged: whether the change can alter the pod's endpoint (deletion, readiness, IPs) and whether it
 * can alter which Services select it (labels, hostname, subdomain).
 */
export function podEndpointsChanged(old: KubeObject, pod: KubeObject): { podChanged: boolean; labelsChanged: boolean } {
  const oldSpec = record(old.spec);
  const spec = record(pod.spec);
  const labelsChanged =
    !sameLabels(old.metadata.labels, pod.metadata.labels) || oldSpec.hostname !== spec.hostname || oldSpec.subdomain !== spec.subdomain;
  const oldIPs = podIPs(old);
  const ips = podIPs(pod);
  const podChanged =
    old.metadata.deletionTimestamp !== pod.metadata.deletionTimestamp ||
    isPodReady(old) !== isPodReady(pod) ||
    oldIPs.length !== ips.length ||
    oldIPs.some((ip, i) => ip !== ips[i]);
  return { podChanged, labelsChanged };
}

/**
 * GetPodUpdateProjectionKey + GetServicesToUpdate: the Services (of `services`, the pod's namespace) to sync after
 * a pod changed from `old` to `pod`. A relabelled pod wakes the Services it left or joined, and all of them when its
 * endpoint changed too.
 */
export function servicesForPodUpdate(services: readonly KubeObject[], old: KubeObject, pod: KubeObject): KubeObject[] {
  if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return [];
  const { podChanged, labelsChanged } = podEndpointsChanged(old, pod);
  if (!podChanged && !labelsChanged) return [];
  const selects = (service: KubeObject, labels: Record<string, string> | undefined): boolean => {
    const selector = managedSelector(service);
    return selector !== undefined && selectorMatches(selector, labels);
  };
  return services.filter((service) => {
    const now = selects(service, pod.metadata.labels);
    if (!labelsChanged) return now;
    const before = selects(service, old.metadata.labels);
    return podChanged ? now || before : now !== before;
  });
}

/** GetPodServiceMemberships: the Services selecting the pod. */
export function servicesForPod(services: readonly KubeObject[], pod: KubeObject): KubeObject[] {
  return services.filter((service) => {
    const selector = managedSelector(service);
    return selector !== undefined && selectorMatches(selector, pod.metadata.labels);
  });
}

export { isPodReady };
