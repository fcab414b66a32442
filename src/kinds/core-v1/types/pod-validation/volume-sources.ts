import { type FieldError, fieldError } from '../../../../api/errors.js';
import { isObject } from '../../../../api/types.js';
import { isDns1123Subdomain } from '../../../../validation/names.js';
import { validateLabelSelector } from '../../../../selectors/label-selector-object.js';
import { dnsLabel, indexed, localDescendingPath, localNonReservedPath, type Obj, pathNoBacksteps } from './common.js';
import { VOLUME_FIELD_PATHS, validateObjectFieldSelector, validateResourceFieldSelector } from './downward-api.js';
import { asObject, isInt, text } from '../../../../api/json-fields.js';

/** The per-source checks of validateVolumeSource for the volume types pods use today. */

export type SourceValidator = (source: Obj, path: string) => FieldError[];

const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

const required = (source: Obj, key: string, path: string): FieldError[] =>
  text(source[key]) === '' ? [fieldError.required(`${path}.${key}`)] : [];

function fileMode(value: unknown, path: string): FieldError[] {
  return isInt(value) && (value > 0o777 || value < 0) ? [fieldError.invalid(path, value, FILE_MODE_ERROR)] : [];
}

/** validateKeyToPath. */
function keyToPath(item: Obj, path: string): FieldError[] {
  const errs = [...required(item, 'key', path), ...required(item, 'path', path)];
  errs.push(...localNonReservedPath(text(item.path), `${path}.path`), ...fileMode(item.mode, `${path}.mode`));
  return errs;
}

const items = (source: Obj, path: string): FieldError[] =>
  indexed(source.items).flatMap(([item, i]) => keyToPath(item, `${path}.items[${i}]`));

export const hostPath: SourceValidator = (source, path) => {
  if (text(source.path) === '') return [fieldError.required(`${path}.path`)];
  const errs = pathNoBacksteps(text(source.path), `${path}.path`);
  const type = source.type;
  if (type != null && (typeof type !== 'string' || !HOST_PATH_TYPES.includes(type))) {
    errs.push(fieldError.notSupported(`${path}.type`, type, HOST_PATH_TYPES));
  }
  return errs;
};

export const gitRepo: SourceValidator = (source, path) => [
  ...required(source, 'repository', path),
  ...localDescendingPath(text(source.directory), `${path}.directory`),
];

function partition(source: Obj, path: string): FieldError[] {
  const p = source.partition;
  return isInt(p) && (p < 0 || p > 255) ? [fieldError.invalid(`${path}.partition`, p, 'must be between 1 and 255, inclusive')] : [];
}

export const gcePersistentDisk: SourceValidator = (source, path) => [...required(source, 'pdName', path), ...partition(source, path)];
export const awsElasticBlockStore: SourceValidator = (source, path) => [...required(source, 'volumeID', path), ...partition(source, path)];

export const secret: SourceValidator = (source, path) => [
  ...required(source, 'secretName', path),
  ...fileMode(source.defaultMode, `${path}.defaultMode`),
  ...items(source, path),
];

export const configMap: SourceValidator = (source, path) => [
  ...required(source, 'name', path),
  ...fileMode(source.defaultMode, `${path}.defaultMode`),
  ...items(source, path),
];

export const nfs: SourceValidator = (source, path) => {
  const errs = [...required(source, 'server', path), ...required(source, 'path', path)];
  if (!text(source.path).startsWith('/')) errs.push(fieldError.invalid(`${path}.path`, text(source.path), 'must be an absolute path'));
  return errs;
};

export const iscsi: SourceValidator = (source, path) => {
  const errs = [...required(source, 'targetPortal', path), ...required(source, 'iqn', path)];
  const lun = source.lun;
  if (isInt(lun) && (lun < 0 || lun > 255)) errs.push(fieldError.invalid(`${path}.lun`, lun, 'must be between 0 and 255, inclusive'));
  if ((source.chapAuthDiscovery === true || source.chapAuthSession === true) && !isObject(source.secretRef))
    errs.push(fieldError.required(`${path}.secretRef`));
  return errs;
};

export const glusterfs: SourceValidator = (source, path) => [...required(source, 'endpoints', path), ...required(source, 'path', path)];
export const persistentVolumeClaim: SourceValidator = (source, path) => required(source, 'claimName', path);

export const rbd: SourceValidator = (source, path) => [
  ...(Array.isArray(source.monitors) && source.monitors.length > 0 ? [] : [fieldError.required(`${path}.monitors`)]),
  ...required(source, 'image', path),
];

function secretRefName(source: Obj, path: string): FieldError[] {
  const ref = asObject(source.secretRef);
  return ref !== undefined && text(ref.name) === '' ? [fieldError.required(`${path}.secretRef.name`)] : [];
}

export const cinder: SourceValidator = (source, path) => [...required(source, 'volumeID', path), ...secretRefName(source, path)];
export const cephfs: SourceValidator = (source, path) =>
  Array.isArray(source.monitors) && source.monitors.length > 0 ? [] : [fieldError.required(`${path}.monitors`)];
export const flexVolume: SourceValidator = (source, path) => required(source, 'driver', path);
export const azureFile: SourceValidator = (source, path) => [
  ...required(source, 'secretName', path),
  ...required(source, 'shareName', path),
];
export const vsphereVolume: SourceValidator = (source, path) => required(source, 'volumePath', path);
export const photonPersistentDisk: SourceValidator = (source, path) => required(source, 'pdID', path);
export const portworxVolume: SourceValidator = (source, path) => required(source, 'volumeID', path);
export const azureDisk: SourceValidator = (source, path) => [...required(source, 'diskName', path), ...required(source, 'diskURI', path)];
export const scaleIO: SourceValidator = (source, path) => [
  ...required(source, 'gateway', path),
  ...required(source, 'system', path),
  ...required(source, 'volumeName', path),
];

export const storageos: SourceValidator = (source, path) => {
  const errs =
    text(source.volumeName) === '' ? [fieldError.required(`${path}.volumeName`)] : dnsLabel(text(source.volumeName), `${path}.volumeName`);
  if (text(source.volumeNamespace) !== '') errs.push(...dnsLabel(text(source.volumeNamespace), `${path}.volumeNamespace`));
  return [...errs, ...secretRefName(source, path)];
};

export const flocker: SourceValidator = (source, path) => {
  const name = text(source.datasetName);
  const uuid = text(source.datasetUUID);
  const errs: FieldError[] = [];
  if (name === '' && uuid === '') errs.push(fieldError.required(path, 'one of datasetName and datasetUUID is required'));
  if (name !== '' && uuid !== '')
    errs.push(fieldError.invalid(path, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) errs.push(fieldError.invalid(`${path}.datasetName`, name, "must not contain '/'"));
  return errs;
};

export const fc: SourceValidator = (source, path) => {
  const wwns = Array.isArray(source.targetWWNs) ? source.targetWWNs : [];
  const wwids = Array.isArray(source.wwids) ? source.wwids : [];
  const errs: FieldError[] = [];
  if (wwns.length === 0 && wwids.length === 0)
    errs.push(fieldError.required(`${path}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length !== 0 && wwids.length !== 0)
    errs.push(fieldError.invalid(`${path}.targetWWNs`, wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length !== 0) {
    if (source.lun === undefined) errs.push(fieldError.required(`${path}.lun`, 'lun is required if targetWWNs is specified'));
    else if (isInt(source.lun) && (source.lun < 0 || source.lun > 255))
      errs.push(fieldError.invalid(`${path}.lun`, source.lun, 'must be between 0 and 255, inclusive'));
  }
  return errs;
};

export const csi: SourceValidator = (source, path) => {
  const driver = text(source.driver);
  const errs: FieldError[] = [];
  if (driver === '') errs.push(fieldError.required(`${path}.driver`));
  if (driver.length > 63) errs.push(fieldError.tooLong(`${path}.driver`, 63));
  errs.push(...isDns1123Subdomain(driver.toLowerCase()).map((msg) => fieldError.invalid(`${path}.driver`, driver, msg)));
  const ref = asObject(source.nodePublishSecretRef);
  if (ref !== undefined) {
    const name = text(ref.name);
    if (name === '') errs.push(fieldError.required(`${path}.nodePublishSecretRef.name`));
    else errs.push(...isDns1123Subdomain(name).map((msg) => fieldError.invalid(`${path}.name`, name, msg)));
  }
  return errs;
};

/** validateDownwardAPIVolumeFile. */
function downwardFile(file: Obj, path: string): FieldError[] {
  const errs = [...required(file, 'path', path), ...localNonReservedPath(text(file.path), `${path}.path`)];
  const fieldRef = asObject(file.fieldRef);
  const resourceRef = asObject(file.resourceFieldRef);
  if (fieldRef !== undefined) {
    errs.push(...validateObjectFieldSelector(fieldRef, VOLUME_FIELD_PATHS, `${path}.fieldRef`));
    if (resourceRef !== undefined)
      errs.push(fieldError.invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (resourceRef !== undefined) {
    errs.push(...validateResourceFieldSelector(resourceRef, `${path}.resourceFieldRef`, true));
  } else {
    errs.push(fieldError.required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  return [...errs, ...fileMode(file.mode, `${path}.mode`)];
}

// Kubernetes validates each downwardAPI item at the source's own path, without the item index.
export const downwardAPI: SourceValidator = (source, path) => [
  ...fileMode(source.defaultMode, `${path}.defaultMode`),
  ...indexed(source.items).flatMap(([file]) => downwardFile(file, path)),
];

/** validateProjectionSources: one source per entry, no two files at the same path. */
export const projected: SourceValidator = (source, path) => {
  const errs = fileMode(source.defaultMode, `${path}.defaultMode`);
  const paths = new Set<string>();
  const claimPath = (p: string, bad: unknown): void => {
    if (paths.has(p)) errs.push(fieldError.invalid(path, bad, 'conflicting duplicate paths'));
    else paths.add(p);
  };
  for (const [entry, i] of indexed(source.sources)) {
    const at = `${path}.sources[${i}]`;
    let count = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const ref = asObject(entry[kind]);
      if (ref === undefined) continue;
      count++;
      if (text(ref.name) === '') errs.push(fieldError.required(`${at}.${kind}.name`));
      for (const [item, j] of indexed(ref.items)) {
        errs.push(...keyToPath(item, `${at}.${kind}.items[${j}]`));
        if (text(item.path) !== '') claimPath(text(item.path), text(ref.name));
      }
    }
    const downward = asObject(entry.downwardAPI);
    if (downward !== undefined) {
      count++;
      for (const [file] of indexed(downward.items)) {
        errs.push(...downwardFile(file, `${at}.downwardAPI`));
        if (text(file.path) !== '') claimPath(text(file.path), text(file.path));
      }
    }
    const token = asObject(entry.serviceAccountToken);
    if (token !== undefined) {
      count++;
      const seconds = token.expirationSeconds;
      if (isInt(seconds) && seconds < 600)
        errs.push(
          fieldError.invalid(`${at}.serviceAccountToken.expirationSeconds`, seconds, 'may not specify a duration less than 10 minutes'),
        );
      if (isInt(seconds) && seconds > 2 ** 32)
        errs.push(
          fieldError.invalid(`${at}.serviceAccountToken.expirationSeconds`, seconds, 'may not specify a duration larger than 2^32 seconds'),
        );
      if (text(token.path) === '') errs.push(fieldError.required(`${path}.path`));
      else errs.push(...localNonReservedPath(text(token.path), `${path}.path`));
    }
    const bundle = asObject(entry.clusterTrustBundle);
    if (bundle !== undefined) {
      count++;
      errs.push(...clusterTrustBundle(bundle, `${at}.clusterTrustBundle`));
      claimPath(text(bundle.path), text(bundle.path));
    }
    if (count > 1) errs.push(fieldError.forbidden(at, 'may not specify more than 1 volume type per source'));
  }
  return errs;
};

/** The name-or-signer rule of a clusterTrustBundle projection (name formats themselves are left to the signer). */
function clusterTrustBundle(bundle: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const hasName = typeof bundle.name === 'string';
  const hasSigner = typeof bundle.signerName === 'string';
  if (hasName && hasSigner) errs.push(fieldError.invalid(path, bundle, 'only one of name and signerName may be used'));
  else if (hasName) {
    if (bundle.name === '') errs.push(fieldError.required(`${path}.name`, 'must be a valid object name'));
    if (bundle.labelSelector !== undefined)
      errs.push(fieldError.invalid(`${path}.labelSelector`, bundle.labelSelector, 'labelSelector must be unset if name is specified'));
  } else if (hasSigner) {
    if (bundle.signerName === '') errs.push(fieldError.required(`${path}.signerName`, 'must be a valid signer name'));
    const selector = asObject(bundle.labelSelector);
    if (selector !== undefined) errs.push(...validateLabelSelector(selector, `${path}.labelSelector`));
  } else errs.push(fieldError.required(path, 'either name or signerName must be specified'));
  if (text(bundle.path) === '') errs.push(fieldError.required(`${path}.path`));
  errs.push(...localNonReservedPath(text(bundle.path), `${path}.path`));
  return errs;
}

/** validateEphemeralVolumeSource: a claim template is required (its PVC spec is the PVC kind's to validate). */
export const ephemeral: SourceValidator = (source, path) =>
  isObject(source.volumeClaimTemplate) ? [] : [fieldError.required(`${path}.volumeClaimTemplate`)];

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

/** validateImageVolumeSource (reference required for pods only: see volumes.ts). */
export function image(source: Obj, path: string, isPod: boolean): FieldError[] {
  const errs = isPod && text(source.reference) === '' ? [fieldError.required(`${path}.reference`)] : [];
  const policy = source.pullPolicy;
  if (policy === undefined || policy === '') errs.push(fieldError.required(`${path}.pullPolicy`));
  else if (typeof policy !== 'string' || !PULL_POLICIES.includes(policy))
    errs.push(fieldError.notSupported(`${path}.pullPolicy`, policy, PULL_POLICIES));
  return errs;
}
