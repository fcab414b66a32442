import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject } from '../../api/types.js';
import { isDns1123Label, isDns1123Subdomain } from '../../validation/names.js';
import { text } from '../../api/json-fields.js';

/**
 * The volume source part of ValidatePersistentVolumeSpec (pkg/apis/core/validation): exactly one source, and
 * the required fields of the sources people still create by hand (hostPath, local, nfs, csi) and of the simple
 * legacy ones (gcePersistentDisk, awsElasticBlockStore, glusterfs, flocker, cinder, fc, flexVolume, quobyte). The
 * other legacy in-tree sources (rbd, iscsi, cephfs, azure*, vsphere, photon, portworx, scaleIO, storageos) are
 * counted but their fields are not checked.
 */

type Obj = Record<string, unknown>;
type SourceCheck = (source: Obj, path: string) => FieldError[];

/** sets.List order of supportedHostPathTypes. */
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
/** pdPartitionErrorMsg: Kubernetes checks 0..255 but words the range from 1. */
const PARTITION_ERROR = 'must be between 1 and 255, inclusive';

/** validatePathNoBacksteps: one error however many ".." the path has. */
function validateNoBacksteps(path: string, field: string): FieldError[] {
  return path.split('/').includes('..') ? [fieldError.invalid(field, path, "must not contain '..'")] : [];
}

const validateHostPath: SourceCheck = (source, path) => {
  const p = text(source.path);
  if (p === '') return [fieldError.required(`${path}.path`)];
  const errs = validateNoBacksteps(p, `${path}.path`);
  const type = source.type;
  if (type !== undefined && type !== null && !HOST_PATH_TYPES.includes(String(type))) {
    errs.push(fieldError.notSupported(`${path}.type`, type, HOST_PATH_TYPES));
  }
  return errs;
};

const validateLocal: SourceCheck = (source, path) => {
  const p = text(source.path);
  return p === '' ? [fieldError.required(`${path}.path`)] : validateNoBacksteps(p, `${path}.path`);
};

const validateNfs: SourceCheck = (source, path) => {
  const errs: FieldError[] = [];
  const p = text(source.path);
  if (text(source.server) === '') errs.push(fieldError.required(`${path}.server`));
  if (p === '') errs.push(fieldError.required(`${path}.path`));
  if (!p.startsWith('/')) errs.push(fieldError.invalid(`${path}.path`, p, 'must be an absolute path'));
  return errs;
};

/** ValidateCSIDriverName: required, at most 63 characters, a DNS subdomain once lower-cased. */
export function validateCsiDriverName(driver: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (driver === '') errs.push(fieldError.required(path));
  if (driver.length > 63) errs.push(fieldError.tooLong(path, 63));
  for (const msg of isDns1123Subdomain(driver.toLowerCase())) errs.push(fieldError.invalid(path, driver, msg));
  return errs;
}

/** validatePVSecretReference: a secret reference of a persistent volume names its namespace too. */
function validateSecretReference(ref: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(ref.name);
  const namespace = text(ref.namespace);
  if (name === '') errs.push(fieldError.required(`${path}.name`));
  else for (const msg of isDns1123Subdomain(name)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
  if (namespace === '') errs.push(fieldError.required(`${path}.namespace`));
  else for (const msg of isDns1123Label(namespace)) errs.push(fieldError.invalid(`${path}.namespace`, namespace, msg));
  return errs;
}

const CSI_SECRET_REFS = ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef'];

const validateCsi: SourceCheck = (source, path) => {
  const errs = validateCsiDriverName(text(source.driver), `${path}.driver`);
  if (text(source.volumeHandle) === '') errs.push(fieldError.required(`${path}.volumeHandle`));
  for (const key of CSI_SECRET_REFS) {
    const ref = source[key];
    if (isObject(ref)) errs.push(...validateSecretReference(ref, `${path}.${key}`));
  }
  return errs;
};

const partition = (source: Obj, path: string): FieldError[] => {
  const value = typeof source.partition === 'number' ? source.partition : 0;
  return value < 0 || value > 255 ? [fieldError.invalid(`${path}.partition`, value, PARTITION_ERROR)] : [];
};

const validateGcePersistentDisk: SourceCheck = (source, path) => [
  ...(text(source.pdName) === '' ? [fieldError.required(`${path}.pdName`)] : []),
  ...partition(source, path),
];

const validateAwsElasticBlockStore: SourceCheck = (source, path) => [
  ...(text(source.volumeID) === '' ? [fieldError.required(`${path}.volumeID`)] : []),
  ...partition(source, path),
];

const validateGlusterfs: SourceCheck = (source, path) => {
  const errs: FieldError[] = [];
  if (text(source.endpoints) === '') errs.push(fieldError.required(`${path}.endpoints`));
  if (text(source.path) === '') errs.push(fieldError.required(`${path}.path`));
  const namespace = source.endpointsNamespace;
  if (typeof namespace === 'string') {
    if (namespace === '') {
      errs.push(
        fieldError.invalid(`${path}.endpointsNamespace`, namespace, 'if the endpointnamespace is set, it must be a valid namespace name'),
      );
    } else {
      for (const msg of isDns1123Label(namespace)) errs.push(fieldError.invalid(`${path}.endpointsNamespace`, namespace, msg));
    }
  }
  return errs;
};

const validateCinder: SourceCheck = (source, path) => {
  const errs = text(source.volumeID) === '' ? [fieldError.required(`${path}.volumeID`)] : [];
  const ref = source.secretRef;
  if (isObject(ref)) {
    if (text(ref.name) === '') errs.push(fieldError.required(`${path}.secretRef.name`));
    if (text(ref.namespace) === '') errs.push(fieldError.required(`${path}.secretRef.namespace`));
  }
  return errs;
};

const validateFlocker: SourceCheck = (source, path) => {
  const errs: FieldError[] = [];
  const name = text(source.datasetName);
  const uuid = text(source.datasetUUID);
  if (name === '' && uuid === '') errs.push(fieldError.required(path, 'one of datasetName and datasetUUID is required'));
  // Kubernetes shows the word "resource" as the value here.
  if (name !== '' && uuid !== '')
    errs.push(fieldError.invalid(path, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) errs.push(fieldError.invalid(`${path}.datasetName`, name, "must not contain '/'"));
  return errs;
};

const validateFc: SourceCheck = (source, path) => {
  const errs: FieldError[] = [];
  const wwns = Array.isArray(source.targetWWNs) ? source.targetWWNs.map(text) : [];
  const wwids = Array.isArray(source.wwids) ? source.wwids : [];
  if (wwns.length === 0 && wwids.length === 0)
    errs.push(fieldError.required(`${path}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length > 0 && wwids.length > 0)
    errs.push(fieldError.invalid(`${path}.targetWWNs`, wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length > 0) {
    const lun = source.lun;
    if (typeof lun !== 'number') errs.push(fieldError.required(`${path}.lun`, 'lun is required if targetWWNs is specified'));
    else if (lun < 0 || lun > 255) errs.push(fieldError.invalid(`${path}.lun`, lun, 'must be between 0 and 255, inclusive'));
  }
  return errs;
};

/** net.SplitHostPort's acceptance: "host:port", or "[host]:port" for IPv6. */
function isHostPort(pair: string): boolean {
  if (pair.startsWith('[')) return /^\[[^[\]]*\]:[^[\]:]*$/.test(pair);
  return /^[^[\]:]*:[^[\]:]*$/.test(pair);
}

const QUOBYTE_REGISTRY = 'must be a host:port pair or multiple pairs separated by commas';

const validateQuobyte: SourceCheck = (source, path) => {
  const errs: FieldError[] = [];
  const registry = text(source.registry);
  if (registry === '') errs.push(fieldError.required(`${path}.registry`, QUOBYTE_REGISTRY));
  else if (text(source.tenant).length >= 65) {
    errs.push(fieldError.required(`${path}.tenant`, 'must be a UUID and may not exceed a length of 64 characters'));
  } else {
    for (const pair of registry.split(','))
      if (!isHostPort(pair)) errs.push(fieldError.invalid(`${path}.registry`, registry, QUOBYTE_REGISTRY));
  }
  if (text(source.volume) === '') errs.push(fieldError.required(`${path}.volume`));
  return errs;
};

const validateFlexVolume: SourceCheck = (source, path) => (text(source.driver) === '' ? [fieldError.required(`${path}.driver`)] : []);

interface SourceRule {
  /** The spec field. */
  readonly key: string;
  /** The path of "may not specify more than 1 volume type" (Kubernetes spells cephfs "cephFS" there). */
  readonly forbiddenAt: string;
  /** The path the source's own checks report under (gcePersistentDisk reports as "persistentDisk"). */
  readonly checkedAt: string;
  readonly check?: SourceCheck;
  /** flexVolume is counted without the "more than 1" check, as Kubernetes does. */
  readonly alwaysCounted?: boolean;
}

const rule = (key: string, check?: SourceCheck, forbiddenAt = key, checkedAt = key): SourceRule => ({ key, forbiddenAt, checkedAt, check });

/** In ValidatePersistentVolumeSpec's order: the second source found is the one reported. */
const SOURCE_RULES: readonly SourceRule[] = [
  rule('hostPath', validateHostPath),
  rule('gcePersistentDisk', validateGcePersistentDisk, 'gcePersistentDisk', 'persistentDisk'),
  rule('awsElasticBlockStore', validateAwsElasticBlockStore),
  rule('glusterfs', validateGlusterfs),
  rule('flocker', validateFlocker),
  rule('nfs', validateNfs),
  rule('rbd'),
  rule('quobyte', validateQuobyte),
  rule('cephfs', undefined, 'cephFS', 'cephfs'),
  rule('iscsi'),
  rule('cinder', validateCinder),
  rule('fc', validateFc),
  { ...rule('flexVolume', validateFlexVolume), alwaysCounted: true },
  rule('azureFile'),
  rule('vsphereVolume'),
  rule('photonPersistentDisk'),
  rule('portworxVolume'),
  rule('azureDisk'),
  rule('scaleIO'),
  rule('local', validateLocal),
  rule('storageos'),
  rule('csi', validateCsi),
];

/** The PV spec fields that hold a volume source (spec.persistentvolumesource in Kubernetes' errors). */
export const PERSISTENT_VOLUME_SOURCE_KEYS: readonly string[] = SOURCE_RULES.map((r) => r.key);

/** The sources' checks; `nodeAffinitySet` because a local volume requires node affinity. */
export function validatePersistentVolumeSources(spec: Obj, nodeAffinitySet: boolean): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const r of SOURCE_RULES) {
    const source = spec[r.key];
    if (!isObject(source)) continue;
    if (count > 0 && r.alwaysCounted !== true) {
      errs.push(fieldError.forbidden(`spec.${r.forbiddenAt}`, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    if (r.check !== undefined) errs.push(...r.check(source, `spec.${r.checkedAt}`));
    if (r.key === 'local' && !nodeAffinitySet) errs.push(fieldError.required('spec.nodeAffinity', 'Local volume requires node affinity'));
  }
  if (count === 0) errs.push(fieldError.required('spec', 'must specify a volume type'));
  return errs;
}
