import { type FieldError, fieldError, GoLiteral } from '../../../../api/errors.js';
import { goQuote } from '../../../../util/go-quote.js';
import { isObject } from '../../../../api/types.js';
import { validateLabels } from '../../../../validation/labels.js';
import { validateIp } from '../../../../validation/ip-address.js';
import { dnsLabel, dnsSubdomain, inclusiveRange, indexed, listLength, MAX_INT32, type Obj, requiredEnum } from './common.js';
import { type ContainerContext, validateContainers, validateEphemeralContainers, validateInitContainers } from './containers.js';
import { validateOS, validateWindowsHostProcess } from './os-rules.js';
import { validateOverhead } from './resources.js';
import {
  validateAffinity,
  validateReadinessGates,
  validateSchedulingGates,
  validateTolerations,
  validateTopologySpreadConstraints,
} from './scheduling.js';
import { validatePodSecurityContext } from './security-context.js';
import { validateVolumes } from './volumes.js';
import { asObject, isInt, text } from '../../../../api/json-fields.js';

/** ValidatePodSpec of Kubernetes 1.32, in its order (the order of the errors in the message). */

export interface PodSpecContext {
  /** The pod's name ("" for templates): generic ephemeral volumes name their claims after it. */
  readonly podName: string;
  /** A Pod rather than a spec embedded in a template (opts.ResourceIsPod). */
  readonly isPod: boolean;
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];
const MAX_NAMESERVERS = 3;
const MAX_SEARCHES = 32;
const MAX_SEARCH_CHARS = 2048;

/** validatePodResourceClaims: unique DNS-label names, each naming exactly one claim or template. */
function resourceClaims(claims: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [claim, i] of indexed(claims)) {
    const at = `${path}[${i}]`;
    const name = text(claim.name);
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    else if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    else {
      errs.push(...dnsLabel(name, `${at}.name`));
      names.add(name);
    }
    const byName = typeof claim.resourceClaimName === 'string';
    const byTemplate = typeof claim.resourceClaimTemplateName === 'string';
    if (byName && byTemplate)
      errs.push(fieldError.invalid(at, claim, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    if (!byName && !byTemplate) {
      const shown = `core.PodResourceClaim{Name:${goQuote(name)}, ResourceClaimName:(*string)(nil), ResourceClaimTemplateName:(*string)(nil)}`;
      errs.push(fieldError.invalid(at, new GoLiteral(shown), 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    }
    if (byName) errs.push(...dnsSubdomain(text(claim.resourceClaimName), `${at}.resourceClaimName`));
    if (byTemplate) errs.push(...dnsSubdomain(text(claim.resourceClaimTemplateName), `${at}.resourceClaimTemplateName`));
  }
  return errs;
}

/** validatePodHostNetworkDeps: on the host network a container port is its host port (templates may leave it 0). */
function hostNetworkDeps(spec: Obj, path: string, isPod: boolean): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  for (const [container, i] of indexed(spec.containers)) {
    for (const [port, j] of indexed(container.ports)) {
      const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
      if ((isPod || hostPort !== 0) && hostPort !== port.containerPort) {
        errs.push(
          fieldError.invalid(
            `${path}.containers[${i}].ports[${j}].hostPort`,
            hostPort,
            'must match `containerPort` when `hostNetwork` is true',
          ),
        );
      }
    }
  }
  return errs;
}

/** validatePodDNSConfig. */
function dnsConfig(spec: Obj, path: string): FieldError[] {
  const config = asObject(spec.dnsConfig);
  const nameservers = Array.isArray(config?.nameservers) ? config.nameservers : [];
  if (spec.dnsPolicy === 'None') {
    if (config === undefined) return [fieldError.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (nameservers.length === 0)
      return [fieldError.required(`${path}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (config === undefined) return [];
  const errs: FieldError[] = [];
  if (nameservers.length > MAX_NAMESERVERS)
    errs.push(fieldError.invalid(`${path}.nameservers`, nameservers, `must not have more than ${MAX_NAMESERVERS} nameservers`));
  nameservers.forEach((ns, i) => {
    errs.push(...validateIp(`${path}.nameservers[${i}]`, typeof ns === 'string' ? ns : ''));
  });
  const searches = Array.isArray(config.searches) ? config.searches.filter((s): s is string => typeof s === 'string') : [];
  if (searches.length > MAX_SEARCHES)
    errs.push(fieldError.invalid(`${path}.searches`, searches, `must not have more than ${MAX_SEARCHES} search paths`));
  if (searches.join(' ').length > MAX_SEARCH_CHARS) {
    errs.push(
      fieldError.invalid(
        `${path}.searches`,
        searches,
        `must not have more than ${MAX_SEARCH_CHARS} characters (including spaces) in the search list`,
      ),
    );
  }
  searches.forEach((search, i) => {
    errs.push(...dnsSubdomain(search.endsWith('.') ? search.slice(0, -1) : search, `${path}.searches[${i}]`));
  });
  for (const [option, i] of indexed(config.options))
    if (text(option.name) === '') errs.push(fieldError.required(`${path}.options[${i}]`, 'must not be empty'));
  return errs;
}

/** validateHostUsers: a user namespace excludes the host's network, PID and IPC namespaces. */
function hostUsers(spec: Obj, path: string): FieldError[] {
  if (asObject(spec.securityContext)?.hostUsers !== false) return [];
  const errs: FieldError[] = [];
  const message = 'when `pod.Spec.HostUsers` is false';
  if (spec.hostNetwork === true) errs.push(fieldError.forbidden(`${path}.hostNetwork`, message));
  if (spec.hostPID === true) errs.push(fieldError.forbidden(`${path}.HostPID`, message));
  if (spec.hostIPC === true) errs.push(fieldError.forbidden(`${path}.HostIPC`, message));
  return errs;
}

function hostAliases(aliases: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [alias, i] of indexed(aliases)) {
    errs.push(...validateIp(`${path}[${i}].ip`, text(alias.ip)));
    const hostnames = Array.isArray(alias.hostnames) ? alias.hostnames : [];
    hostnames.forEach((h, j) => {
      errs.push(...dnsSubdomain(typeof h === 'string' ? h : '', `${path}[${i}].hostnames[${j}]`));
    });
  }
  return errs;
}

/** The claim names containers may refer to. */
function podClaimNames(spec: Obj): Set<string> {
  return new Set(
    indexed(spec.resourceClaims)
      .map(([c]) => text(c.name))
      .filter((n) => n !== ''),
  );
}

export function validatePodSpecAt(spec: Obj, path: string, context: PodSpecContext): FieldError[] {
  const errs: FieldError[] = [];
  const grace = spec.terminationGracePeriodSeconds;
  if (grace === undefined || grace === null) errs.push(fieldError.required(`${path}.terminationGracePeriodSeconds`));
  const volumes = validateVolumes(spec.volumes, context.podName, `${path}.volumes`, context.isPod);
  errs.push(...volumes.errors);
  // The optional parts below are only visited when present: their checks cannot fail on an absent field, and
  // skipping them spares the paths and result lists every typical pod would otherwise allocate.
  if (listLength(spec.resourceClaims) > 0) errs.push(...resourceClaims(spec.resourceClaims, `${path}.resourceClaims`));
  const ctx: ContainerContext = {
    volumes: volumes.byName,
    podClaims: podClaimNames(spec),
    gracePeriod: isInt(grace) ? grace : undefined,
    restartPolicy: spec.restartPolicy,
    hostUsers: asObject(spec.securityContext)?.hostUsers !== false,
  };
  errs.push(...validateContainers(spec.containers, ctx, `${path}.containers`));
  if (listLength(spec.initContainers) > 0)
    errs.push(...validateInitContainers(spec.initContainers, spec.containers, ctx, `${path}.initContainers`));
  if (listLength(spec.ephemeralContainers) > 0)
    errs.push(...validateEphemeralContainers(spec.ephemeralContainers, spec, ctx, `${path}.ephemeralContainers`));
  errs.push(...hostNetworkDeps(spec, path, context.isPod));
  errs.push(...requiredEnum(spec.restartPolicy, `${path}.restartPolicy`, RESTART_POLICIES));
  errs.push(...requiredEnum(spec.dnsPolicy, `${path}.dnsPolicy`, DNS_POLICIES));
  if (spec.nodeSelector != null) errs.push(...validateLabels(spec.nodeSelector, `${path}.nodeSelector`));
  if (isObject(spec.securityContext)) errs.push(...validatePodSecurityContext(spec, `${path}.securityContext`));
  // validateImagePullSecrets (only `name` set) cannot fail on decoded JSON: the type has no other field.
  if (isObject(spec.affinity)) errs.push(...validateAffinity(spec.affinity, `${path}.affinity`));
  if (isObject(spec.dnsConfig) || spec.dnsPolicy === 'None') errs.push(...dnsConfig(spec, `${path}.dnsConfig`));
  if (listLength(spec.readinessGates) > 0) errs.push(...validateReadinessGates(spec.readinessGates, `${path}.readinessGates`));
  if (listLength(spec.schedulingGates) > 0) errs.push(...validateSchedulingGates(spec.schedulingGates, `${path}.schedulingGates`));
  if (listLength(spec.topologySpreadConstraints) > 0)
    errs.push(...validateTopologySpreadConstraints(spec.topologySpreadConstraints, `${path}.topologySpreadConstraints`));
  errs.push(...validateWindowsHostProcess(spec, path), ...hostUsers(spec, path));
  if (text(spec.serviceAccountName) !== '') errs.push(...dnsSubdomain(text(spec.serviceAccountName), `${path}.serviceAccountName`));
  if (text(spec.nodeName) !== '') errs.push(...dnsSubdomain(text(spec.nodeName), `${path}.nodeName`));
  const deadline = spec.activeDeadlineSeconds;
  if (isInt(deadline) && (deadline < 1 || deadline > MAX_INT32)) {
    errs.push(fieldError.invalid(`${path}.activeDeadlineSeconds`, deadline, inclusiveRange(1, MAX_INT32)));
  }
  if (text(spec.hostname) !== '') errs.push(...dnsLabel(text(spec.hostname), `${path}.hostname`));
  if (text(spec.subdomain) !== '') errs.push(...dnsLabel(text(spec.subdomain), `${path}.subdomain`));
  if (listLength(spec.tolerations) > 0) errs.push(...validateTolerations(spec.tolerations, `${path}.tolerations`));
  if (listLength(spec.hostAliases) > 0) errs.push(...hostAliases(spec.hostAliases, `${path}.hostAliases`));
  if (text(spec.priorityClassName) !== '') errs.push(...dnsSubdomain(text(spec.priorityClassName), `${path}.priorityClassName`));
  if (typeof spec.runtimeClassName === 'string') errs.push(...dnsSubdomain(spec.runtimeClassName, `${path}.runtimeClassName`));
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null) {
    errs.push(...requiredEnum(spec.preemptionPolicy, `${path}.preemptionPolicy`, PREEMPTION_POLICIES));
  }
  if (isObject(spec.overhead)) errs.push(...validateOverhead(spec.overhead, `${path}.overhead`));
  errs.push(...validateOS(spec, path));
  return errs;
}
