import { isObject, objects } from '../../../api/types.js';
import { defaultFieldRef, defaultPodVolume } from './volume-defaults.js';

type Obj = Record<string, unknown>;

/**
 * API defaulting of a PodSpec as kube-apiserver applies it (pkg/apis/core/v1/defaults.go), for pods and for the
 * pod templates embedded in workloads. Only fields a user sees in `kubectl get -o yaml` are defaulted.
 */
export function defaultPodSpec(spec: Obj): void {
  fillEmpty(spec, 'restartPolicy', 'Always');
  spec.terminationGracePeriodSeconds ??= 30;
  fillEmpty(spec, 'dnsPolicy', 'ClusterFirst');
  spec.securityContext ??= {};
  fillEmpty(spec, 'schedulerName', 'default-scheduler');
  if (spec.serviceAccountName !== undefined) spec.serviceAccount ??= spec.serviceAccountName;
  for (const field of ['containers', 'initContainers', 'ephemeralContainers'] as const) {
    for (const c of objects(spec[field])) defaultContainer(c);
  }
  for (const volume of objects(spec.volumes)) defaultPodVolume(volume);
}

/**
 * What only a Pod gets, not a template (SetDefaults_Pod): service links, requests copied from limits, and host
 * ports equal to container ports on the host network.
 */
export function defaultPod(spec: Obj): void {
  defaultPodSpec(spec);
  spec.enableServiceLinks ??= true;
  for (const c of [...objects(spec.containers), ...objects(spec.initContainers)]) {
    const resources = isObject(c.resources) ? c.resources : undefined;
    if (resources === undefined || !isObject(resources.limits)) continue;
    const requests: Obj = isObject(resources.requests) ? resources.requests : {};
    for (const [name, limit] of Object.entries(resources.limits)) requests[name] ??= limit;
    resources.requests = requests;
  }
  if (spec.hostNetwork === true) {
    for (const c of [...objects(spec.containers), ...objects(spec.initContainers)]) {
      for (const port of objects(c.ports)) {
        if (port.hostPort === undefined || port.hostPort === 0) port.hostPort = port.containerPort;
      }
    }
  }
}

/** Go defaults a string field when it is "" as well as when it is absent (it cannot tell them apart). */
function fillEmpty(holder: Obj, key: string, value: string): void {
  if (holder[key] === undefined || holder[key] === null || holder[key] === '') holder[key] = value;
}

function defaultContainer(c: Obj): void {
  fillEmpty(c, 'terminationMessagePath', '/dev/termination-log');
  fillEmpty(c, 'terminationMessagePolicy', 'File');
  c.resources ??= {};
  // An image-less container still gets a policy (its tag parses as ""), so only the missing image is reported.
  if (c.imagePullPolicy === undefined || c.imagePullPolicy === null || c.imagePullPolicy === '') {
    c.imagePullPolicy = typeof c.image === 'string' && c.image !== '' && imageTag(c.image) === 'latest' ? 'Always' : 'IfNotPresent';
  }
  for (const p of objects(c.ports)) fillEmpty(p, 'protocol', 'TCP');
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) if (isObject(probe)) defaultProbe(probe);
  if (isObject(c.lifecycle)) {
    for (const handler of [c.lifecycle.postStart, c.lifecycle.preStop]) if (isObject(handler)) defaultHttpGet(handler);
  }
  for (const env of objects(c.env)) defaultFieldRef(env.valueFrom);
}

function defaultProbe(probe: Obj): void {
  if (probe.timeoutSeconds === undefined || probe.timeoutSeconds === 0) probe.timeoutSeconds = 1;
  if (probe.periodSeconds === undefined || probe.periodSeconds === 0) probe.periodSeconds = 10;
  if (probe.successThreshold === undefined || probe.successThreshold === 0) probe.successThreshold = 1;
  if (probe.failureThreshold === undefined || probe.failureThreshold === 0) probe.failureThreshold = 3;
  defaultHttpGet(probe);
}

function defaultHttpGet(handler: Obj): void {
  const get = handler.httpGet;
  if (!isObject(get)) return;
  if (get.path === undefined || get.path === '') get.path = '/';
  if (get.scheme === undefined || get.scheme === '') get.scheme = 'HTTP';
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
  // The spec is a struct in Go, always there to be defaulted; only its containers are left for validation to miss.
  if (template.spec === undefined || template.spec === null) template.spec = {};
  if (isObject(template.spec)) defaultPodSpec(template.spec);
}

/** QoS class from container resources (pkg/apis/core/helper/qos). */
export function qosClass(spec: Obj): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const containers = [...objects(spec.containers), ...objects(spec.initContainers)];
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
