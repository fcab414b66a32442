import { type FieldError, fieldError } from '../../../../api/errors.js';
import { isDns1123Subdomain } from '../../../../validation/names.js';
import { indexed, localDescendingPath, type Obj, validId } from './common.js';
import { asObject } from '../../../../api/json-fields.js';

/** Pod and container security contexts (validatePodSpecSecurityContext, ValidateSecurityContext). */

const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const APPARMOR_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const FS_GROUP_POLICIES = ['Always', 'OnRootMismatch'];
const SUPPLEMENTAL_POLICIES = ['Merge', 'Strict'];
const SELINUX_CHANGE_POLICIES = ['MountOption', 'Recursive'];
const PROC_MOUNTS = ['Default', 'Unmasked'];
const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_FORMAT = `(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}`;
const sysctlRe = new RegExp(`^${SYSCTL_FORMAT}$`);
const NET_SYSCTL_PREFIXES = ['net.'];
const IPC_SYSCTLS = [
  'kernel.shm_rmid_forced',
  'kernel.msgmax',
  'kernel.msgmnb',
  'kernel.msgmni',
  'kernel.sem',
  'kernel.shmall',
  'kernel.shmmax',
  'kernel.shmmni',
];

function enumValue(value: unknown, path: string, supported: readonly string[]): FieldError[] {
  return typeof value === 'string' && supported.includes(value) ? [] : [fieldError.notSupported(path, value, supported)];
}

/** validateSeccompProfileField. */
export function seccompProfile(profile: Obj | undefined, path: string): FieldError[] {
  if (profile === undefined) return [];
  const errs: FieldError[] = [];
  const type = profile.type;
  if (type === undefined || type === '') errs.push(fieldError.required(`${path}.type`, 'type is required when seccompProfile is set'));
  else errs.push(...enumValue(type, `${path}.type`, SECCOMP_TYPES));
  const localhost = profile.localhostProfile;
  if (type === 'Localhost') {
    if (typeof localhost !== 'string')
      errs.push(fieldError.required(`${path}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else errs.push(...localDescendingPath(localhost, `${path}.localhostProfile`));
  } else if (localhost !== undefined && localhost !== null) {
    errs.push(fieldError.invalid(`${path}.localhostProfile`, profile, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

/** ValidateAppArmorProfileField. */
export function appArmorProfile(profile: Obj | undefined, path: string): FieldError[] {
  if (profile === undefined) return [];
  const localhost = profile.localhostProfile;
  switch (profile.type) {
    case 'Localhost': {
      if (typeof localhost !== 'string')
        return [fieldError.required(`${path}.localhostProfile`, 'must be set when AppArmor type is Localhost')];
      const errs: FieldError[] = [];
      if (localhost.trim() !== localhost)
        errs.push(fieldError.invalid(`${path}.localhostProfile`, localhost, 'must not be padded with whitespace'));
      else if (localhost === '') errs.push(fieldError.required(`${path}.localhostProfile`, 'must be set when AppArmor type is Localhost'));
      if (localhost.length > 4095) errs.push(fieldError.tooLong(`${path}.localhostProfile`, 4095));
      return errs;
    }
    case 'RuntimeDefault':
    case 'Unconfined':
      return localhost === undefined || localhost === null
        ? []
        : [fieldError.invalid(`${path}.localhostProfile`, localhost, 'can only be set when AppArmor type is Localhost')];
    case undefined:
    case '':
      return [fieldError.required(`${path}.type`, 'type is required when appArmorProfile is set')];
    default:
      return [fieldError.notSupported(`${path}.type`, profile.type, APPARMOR_TYPES)];
  }
}

/** validateWindowsSecurityContextOptions, for the fields that can be checked without Windows rules. */
function windowsOptions(options: Obj | undefined, path: string): FieldError[] {
  if (options === undefined) return [];
  const errs: FieldError[] = [];
  const specName = options.gmsaCredentialSpecName;
  if (typeof specName === 'string')
    errs.push(...isDns1123Subdomain(specName).map((msg) => fieldError.invalid(`${path}.gmsaCredentialSpecName`, specName, msg)));
  if (options.gmsaCredentialSpec === '')
    errs.push(fieldError.invalid(`${path}.gmsaCredentialSpec`, '', 'gmsaCredentialSpec cannot be an empty string'));
  if (options.runAsUserName === '') errs.push(fieldError.invalid(`${path}.runAsUserName`, '', 'runAsUserName cannot be an empty string'));
  return errs;
}

/** The namespace a sysctl belongs to (component-helpers' GetNamespace), for the host network and IPC rules. */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const dotted = name.replaceAll('/', '.');
  if (NET_SYSCTL_PREFIXES.some((p) => dotted.startsWith(p))) return 'net';
  if (IPC_SYSCTLS.includes(dotted) || dotted.startsWith('fs.mqueue.')) return 'ipc';
  return undefined;
}

function sysctls(list: unknown, spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [sysctl, i] of indexed(list)) {
    const at = `${path}[${i}].name`;
    const name = typeof sysctl.name === 'string' ? sysctl.name : '';
    if (name === '') errs.push(fieldError.required(at));
    else if (name.length > 253 || !sysctlRe.test(name))
      errs.push(fieldError.invalid(at, name, `must have at most 253 characters and match regex ^${SYSCTL_FORMAT}$`));
    else if (names.has(name)) errs.push(fieldError.duplicate(at, name));
    const ns = sysctlNamespace(name);
    if (spec.hostNetwork === true && ns === 'net')
      errs.push(fieldError.invalid(at, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC === true && ns === 'ipc') errs.push(fieldError.invalid(at, name, "may not be specified when 'hostIPC' is true"));
    names.add(name);
  }
  return errs;
}

/** validatePodSpecSecurityContext (hostPID lives in the spec in v1, in the security context internally). */
export function validatePodSecurityContext(spec: Obj, path: string): FieldError[] {
  const sc = asObject(spec.securityContext);
  if (sc === undefined) return [];
  const errs = [
    ...validId(`${path}.fsGroup`, sc.fsGroup),
    ...validId(`${path}.runAsUser`, sc.runAsUser),
    ...validId(`${path}.runAsGroup`, sc.runAsGroup),
  ];
  if (Array.isArray(sc.supplementalGroups))
    sc.supplementalGroups.forEach((gid, g) => {
      errs.push(...validId(`${path}.supplementalGroups[${g}]`, gid));
    });
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(fieldError.invalid(`${path}.shareProcessNamespace`, true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  if (Array.isArray(sc.sysctls) && sc.sysctls.length > 0) errs.push(...sysctls(sc.sysctls, spec, `${path}.sysctls`));
  if (sc.fsGroupChangePolicy != null) errs.push(...enumValue(sc.fsGroupChangePolicy, `${path}.fsGroupChangePolicy`, FS_GROUP_POLICIES));
  errs.push(...seccompProfile(asObject(sc.seccompProfile), `${path}.seccompProfile`));
  errs.push(...windowsOptions(asObject(sc.windowsOptions), `${path}.windowsOptions`));
  errs.push(...appArmorProfile(asObject(sc.appArmorProfile), `${path}.appArmorProfile`));
  if (sc.supplementalGroupsPolicy != null)
    errs.push(...enumValue(sc.supplementalGroupsPolicy, `${path}.supplementalGroupsPolicy`, SUPPLEMENTAL_POLICIES));
  if (sc.seLinuxChangePolicy != null)
    errs.push(...enumValue(sc.seLinuxChangePolicy, `${path}.seLinuxChangePolicy`, SELINUX_CHANGE_POLICIES));
  return errs;
}

/** ValidateSecurityContext of one container; privileged containers are allowed, as kube-apiserver allows them by default. */
export function validateContainerSecurityContext(sc: Obj | undefined, hostUsers: boolean, path: string): FieldError[] {
  if (sc === undefined) return [];
  const errs = [...validId(`${path}.runAsUser`, sc.runAsUser), ...validId(`${path}.runAsGroup`, sc.runAsGroup)];
  if (sc.procMount != null) {
    errs.push(...enumValue(sc.procMount, `${path}.procMount`, PROC_MOUNTS));
    if (hostUsers && sc.procMount === 'Unmasked')
      errs.push(fieldError.invalid(`${path}.procMount`, sc.procMount, '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...seccompProfile(asObject(sc.seccompProfile), `${path}.seccompProfile`));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true)
      errs.push(fieldError.invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    const add = asObject(sc.capabilities)?.add;
    if (Array.isArray(add)) {
      for (const cap of add) {
        if (cap === 'CAP_SYS_ADMIN')
          errs.push(fieldError.invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
      }
    }
  }
  errs.push(...windowsOptions(asObject(sc.windowsOptions), `${path}.windowsOptions`));
  errs.push(...appArmorProfile(asObject(sc.appArmorProfile), `${path}.appArmorProfile`));
  return errs;
}
