import { type FieldError, fieldError } from '../../../../api/errors.js';
import { isObject } from '../../../../api/types.js';
import { indexed, type Obj } from './common.js';
import { asObject } from '../../../../api/json-fields.js';

/** validateOS and the fields each operating system forbids (validateLinux, validateWindows). */

const SUPPORTED_OS = ['linux', 'windows'];
const WINDOWS = 'cannot be set for a windows pod';

/** Fields of the pod security context a Windows pod may not set, and where Kubernetes reports them. */
const WINDOWS_POD_FIELDS: readonly [field: string, reportedAt: 'spec' | 'securityContext'][] = [
  ['appArmorProfile', 'securityContext'],
  ['seLinuxOptions', 'securityContext'],
  ['hostUsers', 'spec'],
  ['seccompProfile', 'securityContext'],
  ['fsGroup', 'securityContext'],
  ['fsGroupChangePolicy', 'securityContext'],
  ['sysctls', 'securityContext'],
  ['runAsUser', 'securityContext'],
  ['runAsGroup', 'securityContext'],
  ['supplementalGroups', 'securityContext'],
  ['supplementalGroupsPolicy', 'securityContext'],
  ['seLinuxChangePolicy', 'securityContext'],
];
const WINDOWS_CONTAINER_FIELDS = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'capabilities',
  'readOnlyRootFilesystem',
  'privileged',
  'allowPrivilegeEscalation',
  'procMount',
  'runAsUser',
  'runAsGroup',
];

/** podshelper.VisitContainersWithPath order: init containers, containers, ephemeral containers. */
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** Each container with its path, in that order. */
export function allContainers(spec: Obj, path: string): [Obj, string][] {
  const out: [Obj, string][] = [];
  for (const list of CONTAINER_LISTS) {
    for (const [c, i] of indexed(spec[list])) out.push([c, `${path}.${list}[${i}]`]);
  }
  return out;
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

function windowsErrors(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const sc = asObject(spec.securityContext);
  if (sc !== undefined) {
    const scPath = `${path}.securityContext`;
    for (const [field, at] of WINDOWS_POD_FIELDS.slice(0, 3))
      if (isSet(sc[field])) errs.push(fieldError.forbidden(`${at === 'spec' ? path : scPath}.${field}`, WINDOWS));
    // hostPID and hostIPC are spec fields in v1 and checked here, between hostUsers and seccompProfile.
    if (spec.hostPID === true) errs.push(fieldError.forbidden(`${path}.hostPID`, WINDOWS));
    if (spec.hostIPC === true) errs.push(fieldError.forbidden(`${path}.hostIPC`, WINDOWS));
    for (const [field] of WINDOWS_POD_FIELDS.slice(3, 7)) {
      const v = sc[field];
      if (field === 'sysctls' ? Array.isArray(v) && v.length > 0 : isSet(v)) errs.push(fieldError.forbidden(`${scPath}.${field}`, WINDOWS));
    }
    if (isSet(spec.shareProcessNamespace)) errs.push(fieldError.forbidden(`${path}.shareProcessNamespace`, WINDOWS));
    for (const [field] of WINDOWS_POD_FIELDS.slice(7)) if (isSet(sc[field])) errs.push(fieldError.forbidden(`${scPath}.${field}`, WINDOWS));
  }
  for (const [container, at] of allContainers(spec, path)) {
    const csc = asObject(container.securityContext);
    if (csc === undefined) continue;
    for (const field of WINDOWS_CONTAINER_FIELDS)
      if (isSet(csc[field])) errs.push(fieldError.forbidden(`${at}.securityContext.${field}`, WINDOWS));
  }
  return errs;
}

function linuxErrors(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const message = 'windows options cannot be set for a linux pod';
  if (isSet(asObject(spec.securityContext)?.windowsOptions))
    errs.push(fieldError.forbidden(`${path}.securityContext.windowsOptions`, message));
  for (const [container, at] of allContainers(spec, path)) {
    if (isSet(asObject(container.securityContext)?.windowsOptions))
      errs.push(fieldError.forbidden(`${at}.securityContext.windowsOptions`, message));
  }
  return errs;
}

/** The os block of ValidatePodSpec: a known name, then that system's forbidden fields. */
export function validateOS(spec: Obj, path: string): FieldError[] {
  const os = asObject(spec.os);
  if (os === undefined) return [];
  const name = os.name;
  if (name === undefined || name === '') return [fieldError.required(`${path}.os.name`, 'cannot be empty')];
  if (typeof name !== 'string' || !SUPPORTED_OS.includes(name)) return [fieldError.notSupported(`${path}.os`, name, SUPPORTED_OS)];
  return name === 'linux' ? linuxErrors(spec, path) : windowsErrors(spec, path);
}

const hostProcessOf = (holder: Obj): unknown => asObject(asObject(holder.securityContext)?.windowsOptions)?.hostProcess;

/**
 * validateWindowsHostProcessPod: host-process containers come all together, on the host network. It walks the
 * lists in place and builds a container's path only for an error: nearly every pod sets no hostProcess at all.
 */
export function validateWindowsHostProcess(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const podHostProcess = hostProcessOf(spec);
  let count = 0;
  let hostProcessCount = 0;
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container: unknown, i) => {
      if (!isObject(container)) return;
      count++;
      const own = hostProcessOf(container);
      if (typeof podHostProcess === 'boolean' && typeof own === 'boolean' && own !== podHostProcess) {
        errs.push(
          fieldError.invalid(
            `${path}.${list}[${i}].securityContext.windowsOptions.hostProcess`,
            own,
            `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`,
          ),
        );
      }
      if (own === true || (own === undefined && podHostProcess === true)) hostProcessCount++;
    });
  }
  if (hostProcessCount > 0) {
    if (hostProcessCount !== count)
      errs.push(
        fieldError.invalid(path, '', 'If pod contains any hostProcess containers then all containers must be HostProcess containers'),
      );
    if (spec.hostNetwork !== true)
      errs.push(fieldError.invalid(`${path}.hostNetwork`, false, 'hostNetwork must be true if pod contains any hostProcess containers'));
  }
  return errs;
}
