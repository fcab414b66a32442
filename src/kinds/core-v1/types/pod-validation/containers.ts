import { type FieldError, fieldError } from '../../../../api/errors.js';
import { dnsLabel, indexed, listLength, type Obj, requiredEnum } from './common.js';
import { validateContainerPorts, validateEnv, validateEnvFrom, hostPortConflicts } from './ports-env.js';
import { validateLifecycle, validateProbes } from './probes.js';
import { validateResourceRequirements } from './resources.js';
import { validateContainerSecurityContext } from './security-context.js';
import { validateVolumeDevices, validateVolumeMounts } from './volumes.js';
import { asObject, text } from '../../../../api/json-fields.js';

/** The three container lists of a pod spec (validateContainers, validateInitContainers, validateEphemeralContainers). */

export interface ContainerContext {
  readonly volumes: ReadonlyMap<string, Obj>;
  readonly podClaims: ReadonlySet<string>;
  readonly gracePeriod: number | undefined;
  readonly restartPolicy: unknown;
  readonly hostUsers: boolean;
}

const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const RESIZE_RESOURCES = ['cpu', 'memory'];
const RESIZE_POLICIES = ['NotRequired', 'RestartContainer'];
const SIDECAR_ONLY = 'may not be set for init containers without restartPolicy=Always';

/** Fields an ephemeral container may not set (the false entries of allowedEphemeralContainerFields). */
const EPHEMERAL_FORBIDDEN = [
  'ports',
  'resources',
  'resizePolicy',
  'restartPolicy',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
];

function resizePolicy(list: unknown, restartPolicy: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [policy, i] of indexed(list)) {
    const resource = text(policy.resourceName);
    if (seen.has(resource)) errs.push(fieldError.duplicate(`${path}[${i}]`, resource));
    seen.add(resource);
    errs.push(...requiredEnum(policy.resourceName, path, RESIZE_RESOURCES), ...requiredEnum(policy.restartPolicy, path, RESIZE_POLICIES));
    if (restartPolicy === 'Never' && policy.restartPolicy !== 'NotRequired') {
      errs.push(fieldError.invalid(path, text(policy.restartPolicy), "must be 'NotRequired' when `restartPolicy` is 'Never'"));
    }
  }
  return errs;
}

/** validateContainerCommon: what every kind of container must satisfy. */
function validateContainerCommon(container: Obj, ctx: ContainerContext, path: string): FieldError[] {
  const name = text(container.name);
  const errs = name === '' ? [fieldError.required(`${path}.name`)] : dnsLabel(name, `${path}.name`);
  if (text(container.image) === '') errs.push(fieldError.required(`${path}.image`));
  errs.push(...requiredEnum(container.terminationMessagePolicy, `${path}.terminationMessagePolicy`, TERMINATION_MESSAGE_POLICIES));
  // Lists a container leaves out cannot fail: skipping them spares their paths and result lists.
  if (listLength(container.ports) > 0) errs.push(...validateContainerPorts(container.ports, `${path}.ports`));
  if (listLength(container.env) > 0) errs.push(...validateEnv(container.env, `${path}.env`));
  if (listLength(container.envFrom) > 0) errs.push(...validateEnvFrom(container.envFrom, `${path}.envFrom`));
  if (listLength(container.volumeMounts) > 0) errs.push(...validateVolumeMounts(container, ctx.volumes, `${path}.volumeMounts`));
  if (listLength(container.volumeDevices) > 0) errs.push(...validateVolumeDevices(container, ctx.volumes, `${path}.volumeDevices`));
  errs.push(...requiredEnum(container.imagePullPolicy, `${path}.imagePullPolicy`, PULL_POLICIES));
  errs.push(...validateResourceRequirements(container.resources, ctx.podClaims, `${path}.resources`));
  if (listLength(container.resizePolicy) > 0) errs.push(...resizePolicy(container.resizePolicy, ctx.restartPolicy, `${path}.resizePolicy`));
  const security = asObject(container.securityContext);
  if (security !== undefined) errs.push(...validateContainerSecurityContext(security, ctx.hostUsers, `${path}.securityContext`));
  return errs;
}

/** validateContainers: at least one, names unique among them, probes and hooks, host ports unique across all. */
export function validateContainers(list: unknown, ctx: ContainerContext, path: string): FieldError[] {
  const containers = indexed(list);
  if (containers.length === 0) return [fieldError.required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [container, i] of containers) {
    const at = `${path}[${i}]`;
    errs.push(...validateContainerCommon(container, ctx, at));
    const name = text(container.name);
    if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    else names.add(name);
    const lifecycle = asObject(container.lifecycle);
    if (lifecycle !== undefined) errs.push(...validateLifecycle(lifecycle, ctx.gracePeriod, `${at}.lifecycle`));
    errs.push(...validateProbes(container, ctx.gracePeriod, at));
    if (container.restartPolicy !== undefined && container.restartPolicy !== null)
      errs.push(fieldError.forbidden(`${at}.restartPolicy`, 'may not be set for non-init containers'));
  }
  errs.push(...hostPortConflicts(containers, path));
  return errs;
}

/** validateInitContainers: sidecars (restartPolicy Always) may have probes and hooks, other init containers not. */
export function validateInitContainers(list: unknown, regular: unknown, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(indexed(regular).map(([c]) => text(c.name)));
  for (const [container, i] of indexed(list)) {
    const at = `${path}[${i}]`;
    errs.push(...validateContainerCommon(container, ctx, at));
    const restart = container.restartPolicy;
    if (restart !== undefined && restart !== null && restart !== 'Always')
      errs.push(fieldError.notSupported(`${at}.restartPolicy`, restart, ['Always']));
    const name = text(container.name);
    if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    else if (name !== '') names.add(name);
    // Each init container runs alone, so its ports are checked alone — and Kubernetes reports them at index 0.
    errs.push(...hostPortConflicts([[container, 0]], path));
    if (restart === 'Always') {
      const lifecycle = asObject(container.lifecycle);
      if (lifecycle !== undefined) errs.push(...validateLifecycle(lifecycle, ctx.gracePeriod, `${at}.lifecycle`));
      errs.push(...validateProbes(container, ctx.gracePeriod, at));
    } else {
      for (const field of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (container[field] !== undefined && container[field] !== null) errs.push(fieldError.forbidden(`${at}.${field}`, SIDECAR_ONLY));
      }
    }
    if (Array.isArray(container.resizePolicy) && container.resizePolicy.length > 0) {
      errs.push(fieldError.invalid(`${at}.resizePolicy`, container.resizePolicy, 'must not be set for init containers'));
    }
  }
  return errs;
}

/** validateContainerOnlyForPod: an image with surrounding whitespace is refused on pods, tolerated in templates. */
export function validateContainerOnlyForPod(container: Obj, path: string): FieldError[] {
  const image = text(container.image);
  return image.trim() !== image ? [fieldError.invalid(`${path}.image`, image, 'must not have leading or trailing whitespace')] : [];
}

/** validateEphemeralContainers: unique names across all lists, an existing target, only debugging fields. */
export function validateEphemeralContainers(list: unknown, spec: Obj, ctx: ContainerContext, path: string): FieldError[] {
  const ephemeral = indexed(list);
  if (ephemeral.length === 0) return [];
  const errs: FieldError[] = [];
  const others = new Set([...indexed(spec.containers), ...indexed(spec.initContainers)].map(([c]) => text(c.name)));
  const names = new Set(others);
  for (const [container, i] of ephemeral) {
    const at = `${path}[${i}]`;
    errs.push(...validateContainerCommon(container, ctx, at), ...validateContainerOnlyForPod(container, at));
    const name = text(container.name);
    if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    else names.add(name);
    const target = text(container.targetContainerName);
    if (target !== '' && !others.has(target))
      errs.push({ type: 'FieldValueNotFound', field: `${at}.targetContainerName`, value: target, detail: '', hasValue: true });
    for (const field of EPHEMERAL_FORBIDDEN) {
      if (isSet(container[field])) errs.push(fieldError.forbidden(`${at}.${field}`, 'cannot be set for an Ephemeral Container'));
    }
    for (const [mount, j] of indexed(container.volumeMounts)) {
      for (const field of ['subPath', 'subPathExpr']) {
        if (text(mount[field]) !== '')
          errs.push(fieldError.forbidden(`${at}.volumeMounts[${j}].${field}`, 'cannot be set for an Ephemeral Container'));
      }
    }
  }
  return errs;
}

/** Whether a field differs from Go's zero value (defaulting leaves `resources: {}`, which is zero). */
function isSet(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.values(value).some(isSet);
  return value !== '' && value !== 0 && value !== false;
}
