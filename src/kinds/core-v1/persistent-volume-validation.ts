import { isDeepStrictEqual } from 'node:util';
import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { goQuote } from '../../util/go-quote.js';
import { validatePositiveQuantity } from '../../validation/quantity.js';
import { type GoField, goStructDiff } from './go-struct-diff.js';
import { validateNodeSelector } from './node-selector-validation.js';
import { BETA_STORAGE_CLASS_ANNOTATION } from './persistent-volume-claim-validation.js';
import { PERSISTENT_VOLUME_SOURCE_KEYS, validatePersistentVolumeSources } from './persistent-volume-source-validation.js';
import {
  validateAccessModeList,
  validateBasicResource,
  validateClassName,
  validateImmutable,
  validateVolumeMode,
} from './storage-spec-checks.js';
import { specOf } from '../../api/json-fields.js';

/**
 * PersistentVolume validation: ValidatePersistentVolume / …Update of pkg/apis/core/validation and the mount
 * options check of pkg/volume/validation, as the 1.32 strategy runs them (VolumeAttributesClass off).
 */

type Obj = Record<string, unknown>;

const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const MOUNT_OPTIONS_ANNOTATION = 'volume.beta.kubernetes.io/mount-options';
/** The sources whose plugins take mount options (checkMountOption). */
const MOUNTABLE_SOURCES = [
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'glusterfs',
  'nfs',
  'rbd',
  'quobyte',
  'iscsi',
  'cinder',
  'cephfs',
  'azureFile',
  'vsphereVolume',
  'azureDisk',
  'photonPersistentDisk',
];

/** A ResourceList as Go's %#v prints it; quantities are shown as their text (Go shows the Quantity struct). */
function resourceListLiteral(capacity: unknown): GoLiteral {
  if (!isObject(capacity)) return new GoLiteral('core.ResourceList(nil)');
  const entries = Object.keys(capacity)
    .sort()
    .map((k) => `${goQuote(k)}:${goQuote(String(capacity[k]))}`);
  return new GoLiteral(`core.ResourceList{${entries.join(', ')}}`);
}

function validateCapacity(capacity: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const list = isObject(capacity) ? capacity : {};
  const names = Object.keys(list).sort();
  if (names.length === 0) errs.push(fieldError.required('spec.capacity'));
  if (list.storage === undefined || names.length > 1)
    errs.push(fieldError.notSupported('spec.capacity', resourceListLiteral(capacity), ['storage']));
  for (const name of names) {
    errs.push(...validateBasicResource(list[name], `spec.capacity[${name}]`));
    errs.push(...validatePositiveQuantity(list[name], `spec.capacity[${name}]`));
  }
  return errs;
}

/** ValidatePersistentVolumeSpec for a PersistentVolume object (not an inline volume). */
function validateVolumeSpec(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const modes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  if (modes.length === 0) errs.push(fieldError.required('spec.accessModes'));
  errs.push(...validateAccessModeList(modes, 'spec.accessModes'));
  errs.push(...validateCapacity(spec.capacity));
  const policy = spec.persistentVolumeReclaimPolicy;
  if (typeof policy === 'string' && policy !== '' && !RECLAIM_POLICIES.includes(policy)) {
    errs.push(fieldError.notSupported('spec.persistentVolumeReclaimPolicy', policy, RECLAIM_POLICIES));
  }
  const affinity = spec.nodeAffinity;
  const affinitySet = isObject(affinity);
  if (affinitySet) {
    if (isObject(affinity.required)) errs.push(...validateNodeSelector(affinity.required, 'spec.nodeAffinity.required'));
    else errs.push(fieldError.required('spec.nodeAffinity.required', 'must specify required node constraints'));
  }
  errs.push(...validatePersistentVolumeSources(spec, affinitySet));
  const hostPath = isObject(spec.hostPath) ? spec.hostPath : undefined;
  if (hostPath !== undefined && isRoot(hostPath.path) && policy === 'Recycle') {
    errs.push(fieldError.forbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  }
  errs.push(...validateClassName(spec.storageClassName, 'spec.storageClassName'));
  errs.push(...validateVolumeMode(spec.volumeMode, 'spec.volumeMode'));
  return errs;
}

/** path.Clean(p) == "/": only slashes and "." segments. */
const isRoot = (path: unknown): boolean =>
  typeof path === 'string' && path.startsWith('/') && path.split('/').every((s) => s === '' || s === '.');

/** checkMountOption: the legacy annotation only where the source's plugin supports mount options. */
function validateMountOptionsAnnotation(pv: KubeObject): FieldError[] {
  const spec = specOf(pv);
  if (MOUNTABLE_SOURCES.some((key) => isObject(spec[key]))) return [];
  if (pv.metadata.annotations?.[MOUNT_OPTIONS_ANNOTATION] === undefined) return [];
  return [fieldError.forbidden(`metadata.annotations.${MOUNT_OPTIONS_ANNOTATION}`, 'may not specify mount options for this volume type')];
}

export function validatePersistentVolume(pv: KubeObject): FieldError[] {
  return [...validateVolumeSpec(specOf(pv)), ...validateMountOptionsAnnotation(pv)];
}

/** core.PersistentVolumeSource's fields in Go's declaration order, for the immutability diff. */
const SOURCE_FIELDS: readonly GoField[] = [
  ['gcePersistentDisk', 'GCEPersistentDisk'],
  ['awsElasticBlockStore', 'AWSElasticBlockStore'],
  ['hostPath', 'HostPath'],
  ['glusterfs', 'Glusterfs'],
  ['nfs', 'NFS'],
  ['rbd', 'RBD'],
  ['iscsi', 'ISCSI'],
  ['cinder', 'Cinder'],
  ['cephfs', 'CephFS'],
  ['fc', 'FC'],
  ['flocker', 'Flocker'],
  ['flexVolume', 'FlexVolume'],
  ['azureFile', 'AzureFile'],
  ['vsphereVolume', 'VsphereVolume'],
  ['quobyte', 'Quobyte'],
  ['azureDisk', 'AzureDisk'],
  ['photonPersistentDisk', 'PhotonPersistentDisk'],
  ['portworxVolume', 'PortworxVolume'],
  ['scaleIO', 'ScaleIO'],
  ['local', 'Local'],
  ['storageos', 'StorageOS'],
  ['csi', 'CSI'],
];

const sourcesOf = (spec: Obj): Obj =>
  Object.fromEntries(PERSISTENT_VOLUME_SOURCE_KEYS.filter((k) => spec[k] !== undefined).map((k) => [k, spec[k]]));

/** %#v of a *VolumeNodeAffinity after deref: its one field is a pointer, printed as an address. */
function nodeAffinityLiteral(affinity: unknown): GoLiteral {
  if (!isObject(affinity)) return new GoLiteral('null');
  const required = isObject(affinity.required) ? '(*core.NodeSelector)(0xc000a1e100)' : '(*core.NodeSelector)(nil)';
  return new GoLiteral(`core.VolumeNodeAffinity{Required:${required}}`);
}

/** The strategy's ValidateUpdate: the object checks, then ValidatePersistentVolumeUpdate's rules. */
export function validatePersistentVolumeUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePersistentVolume(next);
  const nextSpec = specOf(next);
  const oldSpec = specOf(old);
  const nextSources = structuredClone(sourcesOf(nextSpec));
  const oldSources = sourcesOf(oldSpec);
  // A CSI volume may gain a controllerExpandSecretRef after creation.
  const nextCsi = nextSources.csi;
  const oldCsi = oldSources.csi;
  if (isObject(oldCsi) && oldCsi.controllerExpandSecretRef === undefined && isObject(nextCsi)) delete nextCsi.controllerExpandSecretRef;
  if (!isDeepStrictEqual(nextSources, oldSources)) {
    const diff = goStructDiff('core.PersistentVolumeSource', SOURCE_FIELDS, oldSources, nextSources);
    errs.push(fieldError.forbidden('spec.persistentvolumesource', `spec.persistentvolumesource is immutable after creation\n${diff}`));
  }
  errs.push(...validateImmutable(nextSpec.volumeMode, oldSpec.volumeMode, 'volumeMode'));
  if (oldSpec.nodeAffinity !== undefined && !isDeepStrictEqual(nextSpec.nodeAffinity ?? null, oldSpec.nodeAffinity)) {
    errs.push(
      fieldError.invalid(
        'nodeAffinity',
        nodeAffinityLiteral(nextSpec.nodeAffinity),
        'field is immutable, except for updating from beta label to GA',
      ),
    );
  }
  if (!isDeepStrictEqual(nextSpec.volumeAttributesClassName ?? null, oldSpec.volumeAttributesClassName ?? null)) {
    errs.push(
      fieldError.forbidden('spec.volumeAttributesClassName', 'update is forbidden when the VolumeAttributesClass feature gate is disabled'),
    );
  }
  return errs;
}

/** GetWarningsForPersistentVolume: the deprecated annotations and the Recycle policy. */
export function persistentVolumeWarnings(pv: KubeObject): string[] {
  const warnings: string[] = [];
  const annotations = pv.metadata.annotations ?? {};
  if (annotations[BETA_STORAGE_CLASS_ANNOTATION] !== undefined) {
    warnings.push(
      `metadata.annotations[${BETA_STORAGE_CLASS_ANNOTATION}]: deprecated since v1.8; use "storageClassName" attribute instead`,
    );
  }
  if (annotations[MOUNT_OPTIONS_ANNOTATION] !== undefined) {
    warnings.push(`metadata.annotations[${MOUNT_OPTIONS_ANNOTATION}]: deprecated since v1.31; use "mountOptions" attribute instead`);
  }
  if (specOf(pv).persistentVolumeReclaimPolicy === 'Recycle') {
    warnings.push(
      'spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.',
    );
  }
  return warnings;
}
