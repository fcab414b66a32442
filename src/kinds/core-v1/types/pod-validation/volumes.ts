import { type FieldError, fieldError } from '../../../../api/errors.js';
import { isObject } from '../../../../api/types.js';
import { isDns1123Subdomain } from '../../../../validation/names.js';
import { dnsLabel, indexed, listLength, localDescendingPath, type Obj, pathNoBacksteps } from './common.js';
import { isNegativeQuantity } from '../../../../validation/quantity-text.js';
import * as sources from './volume-sources.js';
import { asObject, text } from '../../../../api/json-fields.js';

/** ValidateVolumes and the container's view of them (ValidateVolumeMounts, ValidateVolumeDevices). */

/** The volume sources in the order validateVolumeSource tries them, with the path each error names. */
const SOURCE_ORDER: readonly [key: string, validate: sources.SourceValidator | undefined, validatedAt?: string][] = [
  ['emptyDir', undefined],
  ['hostPath', sources.hostPath],
  ['gitRepo', sources.gitRepo],
  ['gcePersistentDisk', sources.gcePersistentDisk, 'persistentDisk'],
  ['awsElasticBlockStore', sources.awsElasticBlockStore],
  ['secret', sources.secret],
  ['nfs', sources.nfs],
  ['iscsi', sources.iscsi],
  ['glusterfs', sources.glusterfs],
  ['flocker', sources.flocker],
  ['persistentVolumeClaim', sources.persistentVolumeClaim],
  ['rbd', sources.rbd],
  ['cinder', sources.cinder],
  ['cephfs', sources.cephfs],
  ['quobyte', undefined],
  ['downwardAPI', sources.downwardAPI],
  ['fc', sources.fc],
  ['flexVolume', sources.flexVolume],
  ['configMap', sources.configMap],
  ['azureFile', sources.azureFile],
  ['vsphereVolume', sources.vsphereVolume],
  ['photonPersistentDisk', sources.photonPersistentDisk],
  ['portworxVolume', sources.portworxVolume],
  ['azureDisk', sources.azureDisk],
  ['storageos', sources.storageos],
  ['projected', sources.projected],
  ['scaleIO', sources.scaleIO],
  ['csi', sources.csi],
  ['ephemeral', sources.ephemeral],
  ['image', undefined],
];

/** The name Kubernetes uses in "may not specify more than 1 volume type" where it differs from the JSON name. */
const SECOND_SOURCE_NAME: Readonly<Record<string, string>> = { cephfs: 'cephFS', downwardAPI: 'downwarAPI' };

export interface PodVolumes {
  /** Valid volumes by name: what mounts and devices may refer to. */
  readonly byName: ReadonlyMap<string, Obj>;
  readonly errors: FieldError[];
}

/** Each source key's rank in SOURCE_ORDER. */
const SOURCE_RANK: ReadonlyMap<string, number> = new Map(SOURCE_ORDER.map(([key], rank) => [key, rank]));

/**
 * The SOURCE_ORDER entries a volume sets, in that order. Looking up the volume's own few keys is much cheaper than
 * probing all thirty sources for every volume.
 */
function sourcesSet(volume: Obj): (typeof SOURCE_ORDER)[number][] {
  const ranks: number[] = [];
  for (const key in volume) {
    const rank = SOURCE_RANK.get(key);
    if (rank !== undefined && isObject(volume[key])) ranks.push(rank);
  }
  if (ranks.length > 1) ranks.sort((a, b) => a - b);
  return ranks.map((rank) => SOURCE_ORDER[rank] as (typeof SOURCE_ORDER)[number]);
}

function validateVolumeSource(volume: Obj, path: string, volumeName: string, podName: string, isPod: boolean): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const [key, validate, validatedAt] of sourcesSet(volume)) {
    const source = volume[key] as Obj;
    if (count > 0) {
      errs.push(fieldError.forbidden(`${path}.${SECOND_SOURCE_NAME[key] ?? key}`, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    const at = `${path}.${validatedAt ?? key}`;
    if (key === 'emptyDir') {
      if (isNegativeQuantity(source.sizeLimit)) {
        errs.push(fieldError.forbidden(`${at}.sizeLimit`, 'SizeLimit field must be a valid resource quantity'));
      }
    } else if (key === 'image') errs.push(...sources.image(source, at, isPod));
    else if (validate !== undefined) errs.push(...validate(source, at));
    if (key === 'ephemeral' && podName !== '' && volumeName !== '') {
      const claim = `${podName}-${volumeName}`;
      for (const msg of isDns1123Subdomain(claim))
        errs.push(fieldError.invalid(`${path}.name`, volumeName, `PVC name ${JSON.stringify(claim)}: ${msg}`));
    }
    if (key === 'iscsi' && typeof source.initiatorName === 'string' && `${volumeName}:${text(source.targetPortal)}`.length > 64) {
      errs.push(
        fieldError.invalid(
          `${path}.name`,
          volumeName,
          'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.',
        ),
      );
    }
  }
  if (count === 0) errs.push(fieldError.required(path, 'must specify a volume type'));
  return errs;
}

/** ValidateVolumes. `podName` is "" for templates, where generic ephemeral claim names cannot be known. */
export function validateVolumes(volumes: unknown, podName: string, path: string, isPod: boolean): PodVolumes {
  const errors: FieldError[] = [];
  const byName = new Map<string, Obj>();
  const createdClaims = new Set<string>();
  if (podName !== '') for (const [v] of indexed(volumes)) if (isObject(v.ephemeral)) createdClaims.add(`${podName}-${text(v.name)}`);
  for (const [volume, i] of indexed(volumes)) {
    const at = `${path}[${i}]`;
    const name = text(volume.name);
    const errs = validateVolumeSource(volume, at, name, podName, isPod);
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    else errs.push(...dnsLabel(name, `${at}.name`));
    if (byName.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    if (errs.length === 0) byName.set(name, volume);
    else errors.push(...errs);
    const claim = asObject(volume.persistentVolumeClaim);
    if (claim !== undefined && createdClaims.has(text(claim.claimName))) {
      errors.push(
        fieldError.invalid(
          `${at}.persistentVolumeClaim.claimName`,
          text(claim.claimName),
          'must not reference a PVC that gets created for an ephemeral volume',
        ),
      );
    }
  }
  return { byName, errors };
}

const PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const RECURSIVE_READ_ONLY = ['Disabled', 'Enabled', 'IfPossible'];

function mountPropagation(mount: Obj, container: Obj, path: string): FieldError[] {
  const mode = mount.mountPropagation;
  if (mode == null) return [];
  const errs = typeof mode === 'string' && PROPAGATIONS.includes(mode) ? [] : [fieldError.notSupported(path, mode, PROPAGATIONS)];
  const security = asObject(container.securityContext);
  if (mode === 'Bidirectional' && security?.privileged !== true) {
    errs.push(fieldError.forbidden(path, 'Bidirectional mount propagation is available only to privileged containers'));
  }
  return errs;
}

function recursiveReadOnly(mount: Obj, path: string): FieldError[] {
  const mode = mount.recursiveReadOnly;
  if (mode == null || mode === 'Disabled') return [];
  if (mode === 'Enabled' || mode === 'IfPossible') {
    const errs: FieldError[] = [];
    if (mount.readOnly !== true) errs.push(fieldError.forbidden(path, 'may only be specified when readOnly is true'));
    if (mount.mountPropagation != null && mount.mountPropagation !== 'None') {
      errs.push(fieldError.forbidden(path, 'may only be specified when mountPropagation is None or not specified'));
    }
    return errs;
  }
  return [fieldError.notSupported(path, mode, RECURSIVE_READ_ONLY)];
}

/** What a container without volume devices compares its mounts against. */
const NO_PATHS: ReadonlyMap<string, string> = new Map();
const NO_NAMES: ReadonlySet<string> = new Set();

/** Name → path of a container's mounts or devices (the last one wins, as Go's map does). */
function namesToPaths(list: unknown, pathKey: string): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  if (!Array.isArray(list)) return out;
  for (const item of list) if (isObject(item)) out.set(text(item.name), text(item[pathKey]));
  return out;
}

/** ValidateVolumeMounts (some paths omit the index, as Kubernetes' do). */
export function validateVolumeMounts(container: Obj, volumes: ReadonlyMap<string, Obj>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const hasDevices = listLength(container.volumeDevices) > 0;
  const devices = hasDevices ? namesToPaths(container.volumeDevices, 'devicePath') : NO_PATHS;
  const devicePaths: ReadonlySet<string> = hasDevices ? new Set(devices.values()) : NO_NAMES;
  const mountPoints = new Set<string>();
  for (const [mount, i] of indexed(container.volumeMounts)) {
    const at = `${path}[${i}]`;
    const name = text(mount.name);
    const mountPath = text(mount.mountPath);
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    if (!volumes.has(name)) errs.push({ type: 'FieldValueNotFound', field: `${at}.name`, value: name, detail: '', hasValue: true });
    if (mountPath === '') errs.push(fieldError.required(`${at}.mountPath`));
    if (mountPoints.has(mountPath)) errs.push(fieldError.invalid(`${at}.mountPath`, mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (devices.has(name)) errs.push(fieldError.invalid(`${at}.name`, name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(mountPath))
      errs.push(fieldError.invalid(`${at}.mountPath`, mountPath, 'must not already exist as a path in volumeDevices'));
    const subPath = text(mount.subPath);
    const subPathExpr = text(mount.subPathExpr);
    if (isObject(volumes.get(name)?.image)) {
      if (subPath !== '') errs.push(fieldError.invalid(`${at}.subPath`, subPath, 'not allowed in image volume sources'));
      if (subPathExpr !== '') errs.push(fieldError.invalid(`${at}.subPathExpr`, subPathExpr, 'not allowed in image volume sources'));
    }
    if (subPath !== '') errs.push(...localDescendingPath(subPath, `${path}.subPath`));
    if (subPathExpr !== '') {
      if (subPath !== '') errs.push(fieldError.invalid(`${at}.subPathExpr`, subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...localDescendingPath(subPathExpr, `${path}.subPathExpr`));
    }
    errs.push(...mountPropagation(mount, container, `${path}.mountPropagation`), ...recursiveReadOnly(mount, `${path}.recursiveReadOnly`));
  }
  return errs;
}

/** ValidateVolumeDevices: block devices come from claims only. */
export function validateVolumeDevices(container: Obj, volumes: ReadonlyMap<string, Obj>, path: string): FieldError[] {
  if (listLength(container.volumeDevices) === 0) return [];
  const errs: FieldError[] = [];
  const mounts = namesToPaths(container.volumeMounts, 'mountPath');
  const mountPaths = new Set(mounts.values());
  const paths = new Set<string>();
  const names = new Set<string>();
  for (const [device, i] of indexed(container.volumeDevices)) {
    const at = `${path}[${i}]`;
    const name = text(device.name);
    const devicePath = text(device.devicePath);
    const volume = volumes.get(name);
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    if (names.has(name)) errs.push(fieldError.invalid(`${at}.name`, name, 'must be unique'));
    if (volume !== undefined && !isObject(volume.persistentVolumeClaim) && !isObject(volume.ephemeral)) {
      errs.push(
        fieldError.invalid(`${at}.name`, name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'),
      );
    }
    if (volume === undefined) errs.push({ type: 'FieldValueNotFound', field: `${at}.name`, value: name, detail: '', hasValue: true });
    if (devicePath === '') errs.push(fieldError.required(`${at}.devicePath`));
    if (paths.has(devicePath)) errs.push(fieldError.invalid(`${at}.devicePath`, devicePath, 'must be unique'));
    if (devicePath !== '' && pathNoBacksteps(devicePath, at).length > 0) {
      errs.push(fieldError.invalid(`${at}.devicePath`, devicePath, "can not contain backsteps ('..')"));
    } else paths.add(devicePath);
    if (mounts.has(name)) errs.push(fieldError.invalid(`${at}.name`, name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(devicePath))
      errs.push(fieldError.invalid(`${at}.devicePath`, devicePath, 'must not already exist as a path in volumeMounts'));
    if (name !== '') names.add(name);
  }
  return errs;
}
