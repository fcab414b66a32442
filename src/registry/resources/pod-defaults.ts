import { isObject } from '../../api/types.js';

/**
 * API defaulting of a PodSpec as kube-apiserver applies it (pkg/apis/core/v1/defaults.go), for pods and for the
 * pod templates embedded in workloads. Only fields a user sees in `kubectl get -o yaml` are defaulted.
 */
export function defaultPodSpec(spec: Record<string, unknown>): void {
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  spec.enableServiceLinks ??= true;
  if (spec.serviceAccountName !== undefined) spec.serviceAccount ??= spec.serviceAccountName;
  for (const field of ['containers', 'initContainers'] as const) {
    const containers = spec[field];
    if (!Array.isArray(containers)) continue;
    for (const c of containers) if (isObject(c)) defaultContainer(c);
  }
}

function defaultContainer(c: Record<string, unknown>): void {
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  c.resources ??= {};
  if (c.imagePullPolicy === undefined && typeof c.image === 'string') {
    c.imagePullPolicy = imageTag(c.image) === 'latest' ? 'Always' : 'IfNotPresent';
  }
  if (Array.isArray(c.ports)) {
    for (const p of c.ports) if (isObject(p)) p.protocol ??= 'TCP';
  }
}

/** The tag of an image reference: "latest" when there is neither tag nor digest. */
function imageTag(image: string): string {
  if (image.includes('@')) return '';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  return colon < 0 ? 'latest' : image.slice(colon + 1);
}

export function defaultPodTemplate(template: unknown): void {
  if (!isObject(template)) return;
  if (isObject(template.spec)) defaultPodSpec(template.spec);
}

/** QoS class from container resources (pkg/apis/core/helper/qos). */
export function qosClass(spec: Record<string, unknown>): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const containers = [...asArray(spec.containers), ...asArray(spec.initContainers)];
  let anySet = false;
  let guaranteed = true;
  for (const c of containers) {
    const resources = isObject(c.resources) ? c.resources : {};
    const requests = isObject(resources.requests) ? resources.requests : {};
    const limits = isObject(resources.limits) ? resources.limits : {};
    if (Object.keys(requests).length > 0 || Object.keys(limits).length > 0) anySet = true;
    for (const r of ['cpu', 'memory']) {
      if (limits[r] === undefined) guaranteed = false;
      else if (requests[r] !== undefined && String(requests[r]) !== String(limits[r])) guaranteed = false;
    }
  }
  if (!anySet) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

function asArray(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}
