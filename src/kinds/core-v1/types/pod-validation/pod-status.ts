import { type FieldError, fieldError, GoLiteral } from '../../../../api/errors.js';
import { isObject, type KubeObject } from '../../../../api/types.js';
import { goQuote } from '../../../../util/go-quote.js';
import { parseIp, validateIp } from '../../../../validation/ip-address.js';
import { dnsSubdomain, indexed, type Obj, qualifiedName, validId } from './common.js';
import { asObject, specOf, text } from '../../../../api/json-fields.js';

/** ValidatePodStatusUpdate: what a status writer (the kubelet, a scheduler) may and may not report. */

const SYSTEM_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized']);
const ONE_PER_FAMILY = 'may specify no more than one IP for each IP family';

const statusOf = (obj: KubeObject): Obj => (isObject(obj.status) ? obj.status : {});

/** Go's %#v of a []core.PodIP or []core.HostIP. */
const ipList = (type: string, ips: readonly string[]): GoLiteral =>
  new GoLiteral(`[]core.${type}{${ips.map((ip) => `core.${type}{IP:${goQuote(ip)}}`).join(', ')}}`);

/** validatePodIPs / validateHostIPs: valid addresses, at most one per family, no repeats. */
function ipErrors(list: unknown, type: 'PodIP' | 'HostIP', path: string): FieldError[] {
  const ips = indexed(list).map(([entry]) => text(entry.ip));
  const errs: FieldError[] = [];
  ips.forEach((ip, i) => {
    errs.push(...validateIp(`${path}[${i}]`, ip));
  });
  if (ips.length > 1) {
    const v4 = ips.some((ip) => parseIp(ip)?.family === 'IPv4');
    const v6 = ips.some((ip) => parseIp(ip)?.family === 'IPv6');
    const duplicates: FieldError[] = [];
    const seen = new Set<string>();
    ips.forEach((ip, i) => {
      if (seen.has(ip)) duplicates.push(fieldError.duplicate(`${path}[${i}]`, new GoLiteral(`core.${type}{IP:${goQuote(ip)}}`)));
      seen.add(ip);
    });
    const family = !(v4 && v6) || ips.length > 2 ? [fieldError.invalid(path, ipList(type, ips), ONE_PER_FAMILY)] : [];
    // Pod IPs report the family rule first, host IPs their duplicates first.
    errs.push(...(type === 'PodIP' ? [...family, ...duplicates] : [...duplicates, ...family]));
  }
  return errs;
}

function hostIPs(status: Obj): FieldError[] {
  const list = indexed(status.hostIPs);
  if (list.length === 0) return [];
  const first = text(list[0]?.[0].ip);
  const errs = text(status.hostIP) !== first ? [fieldError.invalid('status.hostIPs[0].ip', first, 'must be equal to `hostIP`')] : [];
  return [...errs, ...ipErrors(status.hostIPs, 'HostIP', 'status.hostIPs')];
}

const terminated = (status: Obj): Obj | undefined => asObject(asObject(status.state)?.terminated);

/** ValidateContainerStateTransition: a container that ended for good may not run again. */
function stateTransitions(
  next: unknown,
  old: unknown,
  restartPolicy: unknown,
  path: string,
  restartable: ReadonlySet<string>,
): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  const nextList = indexed(next).map(([s]) => s);
  for (const [oldStatus, i] of indexed(old)) {
    const ended = terminated(oldStatus);
    if (ended === undefined) continue;
    if (ended.exitCode !== 0 && ended.exitCode !== undefined && restartPolicy === 'OnFailure') continue;
    if (restartable.has(text(oldStatus.name))) continue;
    for (const s of nextList) {
      if (text(s.name) === text(oldStatus.name) && terminated(s) === undefined) {
        errs.push(fieldError.forbidden(`${path}[${i}].state`, 'may not be transitioned to non-terminated state'));
      }
    }
  }
  return errs;
}

function containerUsers(list: unknown, os: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [status, i] of indexed(list)) {
    const user = asObject(status.user);
    if (user === undefined) continue;
    const linux = asObject(user.linux);
    const at = `${path}[${i}].linux`;
    if (os === 'windows') {
      if (linux !== undefined) errs.push(fieldError.forbidden(at, 'cannot be set for a windows pod'));
    } else if (linux !== undefined) {
      errs.push(...validId(`${at}.uid`, linux.uid), ...validId(`${at}.gid`, linux.gid));
      if (Array.isArray(linux.supplementalGroups))
        linux.supplementalGroups.forEach((g, j) => {
          errs.push(...validId(`${at}.supplementalGroups[${j}]`, g));
        });
    }
  }
  return errs;
}

/** validatePodResourceClaimStatuses. */
function claimStatuses(list: unknown, spec: Obj, path: string): FieldError[] {
  const claims = new Set(indexed(spec.resourceClaims).map(([c]) => text(c.name)));
  const seen = new Set<string>();
  const errs: FieldError[] = [];
  for (const [status, i] of indexed(list)) {
    const name = text(status.name);
    if (!claims.has(name))
      errs.push(fieldError.invalid(`${path}[${i}].name`, name, 'must match the name of an entry in `spec.resourceClaims`'));
    if (seen.has(name)) errs.push(fieldError.duplicate(`${path}[${i}].name`, name));
    else seen.add(name);
    if (typeof status.resourceClaimName === 'string') errs.push(...dnsSubdomain(status.resourceClaimName, `${path}[${i}].name`));
  }
  return errs;
}

/** The status part of ValidatePodStatusUpdate (annotation rules are shared with updates and run by the caller). */
export function validatePodStatusFields(next: KubeObject, old: KubeObject): FieldError[] {
  const status = statusOf(next);
  const oldStatus = statusOf(old);
  const spec = specOf(next);
  const oldSpec = specOf(old);
  // Kubernetes names the conditions under metadata here, a slip kept for compatibility.
  const errs = indexed(status.conditions).flatMap(([c, i]) =>
    SYSTEM_CONDITIONS.has(text(c.type)) ? [] : qualifiedName(text(c.type), `metadata.conditions[${i}].Type`),
  );
  if (text(spec.nodeName) !== text(oldSpec.nodeName)) errs.push(fieldError.forbidden('status.nodeName', 'may not be changed directly'));
  const nominated = text(status.nominatedNodeName);
  if (nominated !== text(oldStatus.nominatedNodeName) && nominated !== '')
    errs.push(...dnsSubdomain(nominated, 'status.nominatedNodeName'));
  if (text(status.qosClass) !== text(oldStatus.qosClass))
    errs.push(fieldError.invalid('status.qosClass', text(status.qosClass), 'field is immutable'));
  const sidecars = new Set(
    indexed(oldSpec.initContainers)
      .filter(([c]) => c.restartPolicy === 'Always')
      .map(([c]) => text(c.name)),
  );
  errs.push(
    ...stateTransitions(
      status.containerStatuses,
      oldStatus.containerStatuses,
      oldSpec.restartPolicy,
      'status.containerStatuses',
      new Set(),
    ),
  );
  errs.push(
    ...stateTransitions(
      status.initContainerStatuses,
      oldStatus.initContainerStatuses,
      oldSpec.restartPolicy,
      'status.initContainerStatuses',
      sidecars,
    ),
  );
  errs.push(
    ...stateTransitions(
      status.ephemeralContainerStatuses,
      oldStatus.ephemeralContainerStatuses,
      'Never',
      'status.ephemeralContainerStatuses',
      new Set(),
    ),
  );
  errs.push(...claimStatuses(status.resourceClaimStatuses, spec, 'status.resourceClaimStatuses'));
  errs.push(...ipErrors(status.podIPs, 'PodIP', 'status.podIPs'), ...hostIPs(status));
  const os = text(asObject(spec.os)?.name) || 'linux';
  for (const list of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses'])
    errs.push(...containerUsers(status[list], os, `status.${list}`));
  for (const [s, i] of indexed(status.ephemeralContainerStatuses)) {
    if (Array.isArray(s.allocatedResourcesStatus) && s.allocatedResourcesStatus.length > 0) {
      errs.push(
        fieldError.forbidden(
          `status.ephemeralContainerStatuses[${i}].allocatedResourcesStatus`,
          'must not be specified in container status',
        ),
      );
    }
  }
  return errs;
}
