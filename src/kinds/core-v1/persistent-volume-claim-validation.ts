import { isDeepStrictEqual } from 'node:util';
import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { asLabelSelectorObject, validateLabelSelector } from '../../selectors/label-selector-object.js';
import { isDns1123Label, isDns1123Subdomain, isQualifiedName } from '../../validation/names.js';
import { quantityValue, validatePositiveQuantity } from '../../validation/quantity.js';
import { type GoField, goStructDiff } from './go-struct-diff.js';
import {
  validateAccessModeList,
  validateBasicResource,
  validateClassName,
  validateImmutable,
  validateVolumeMode,
} from './storage-spec-checks.js';
import { text, specOf } from '../../api/json-fields.js';

/**
 * PersistentVolumeClaim validation of pkg/apis/core/validation (ValidatePersistentVolumeClaim, …Update,
 * …StatusUpdate) with the options kube-apiserver 1.32 runs it with: RecoverVolumeExpansionFailure on (beta),
 * VolumeAttributesClass off (its field is dropped by the strategy, see persistent-volume-fields.ts).
 */

type Obj = Record<string, unknown>;

export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';
const RESIZE_STATUSES = [
  'ControllerResizeFailed',
  'ControllerResizeInProgress',
  'NodeResizeFailed',
  'NodeResizeInProgress',
  'NodeResizePending',
];

/** core.PersistentVolumeClaimSpec's fields in Go's declaration order, for the immutability diff. */
const SPEC_FIELDS: readonly GoField[] = [
  ['accessModes', 'AccessModes'],
  ['selector', 'Selector'],
  ['resources', 'Resources'],
  ['volumeName', 'VolumeName'],
  ['storageClassName', 'StorageClassName'],
  ['volumeMode', 'VolumeMode'],
  ['dataSource', 'DataSource'],
  ['dataSourceRef', 'DataSourceRef'],
  ['volumeAttributesClassName', 'VolumeAttributesClassName'],
];

interface ClaimOptions {
  /** Kept from the stored claim: a selector already invalid stays acceptable. */
  readonly allowInvalidLabelValueInSelector: boolean;
  /** Kept from the stored claim: an apiGroup already set is not re-checked. */
  readonly allowInvalidApiGroup: boolean;
}

const CREATE_OPTIONS: ClaimOptions = { allowInvalidLabelValueInSelector: false, allowInvalidApiGroup: false };

const statusOf = (obj: KubeObject): Obj => (isObject(obj.status) ? obj.status : {});
const mapAt = (holder: Obj, key: string): Obj => (isObject(holder[key]) ? holder[key] : {});
const sortedEntries = (map: Obj): [string, unknown][] => Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** ValidationOptionsForPersistentVolumeClaim: what an update tolerates because the stored claim had it already. */
function updateOptions(old: KubeObject): ClaimOptions {
  const spec = specOf(old);
  const hasGroup = (ref: unknown): boolean => isObject(ref) && typeof ref.apiGroup === 'string';
  const selector = asLabelSelectorObject(spec.selector);
  return {
    allowInvalidLabelValueInSelector: validateLabelSelector(selector, 'spec.selector').length > 0,
    allowInvalidApiGroup: hasGroup(spec.dataSource) || hasGroup(spec.dataSourceRef),
  };
}

/** validateDataSource / validateDataSourceRef: the two share every rule but the ref's namespace. */
function validateDataSource(ref: Obj, path: string, opts: ClaimOptions, withNamespace: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (text(ref.name) === '') errs.push(fieldError.required(`${path}.name`));
  if (text(ref.kind) === '') errs.push(fieldError.required(`${path}.kind`));
  const group = text(ref.apiGroup);
  if (group === '' && ref.kind !== 'PersistentVolumeClaim') {
    errs.push(fieldError.invalid(path, text(ref.kind), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  }
  if (group !== '' && !opts.allowInvalidApiGroup) {
    for (const msg of isDns1123Subdomain(group)) errs.push(fieldError.invalid(`${path}.apiGroup`, group, msg));
  }
  const namespace = text(ref.namespace);
  if (withNamespace && namespace !== '') {
    for (const msg of isDns1123Label(namespace)) errs.push(fieldError.invalid(`${path}.namespace`, namespace, msg));
  }
  return errs;
}

/** field.Invalid(spec, spec.dataSource, …) prints the *field.Path through %#v, a struct with a pointer. */
const DATA_SOURCE_PATH = new GoLiteral('field.Path{name:"dataSource", index:"", parent:(*field.Path)(0xc000a1e0c0)}');

function validateDataSources(spec: Obj, opts: ClaimOptions): FieldError[] {
  const errs: FieldError[] = [];
  const source = isObject(spec.dataSource) ? spec.dataSource : undefined;
  const ref = isObject(spec.dataSourceRef) ? spec.dataSourceRef : undefined;
  if (source !== undefined) errs.push(...validateDataSource(source, 'spec.dataSource', opts, false));
  if (ref !== undefined) errs.push(...validateDataSource(ref, 'spec.dataSourceRef', opts, true));
  if (ref !== undefined && text(ref.namespace) !== '') {
    if (source !== undefined)
      errs.push(fieldError.invalid('spec', DATA_SOURCE_PATH, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (source !== undefined && ref !== undefined) {
    const same = (source.apiGroup ?? null) === (ref.apiGroup ?? null) && source.kind === ref.kind && source.name === ref.name;
    if (!same) errs.push(fieldError.invalid('spec', DATA_SOURCE_PATH, 'must match dataSourceRef'));
  }
  return errs;
}

/** ValidatePersistentVolumeClaimSpec at "spec". */
function validateClaimSpec(spec: Obj, opts: ClaimOptions): FieldError[] {
  const errs: FieldError[] = [];
  const modes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  if (modes.length === 0) errs.push(fieldError.required('spec.accessModes', 'at least 1 access mode is required'));
  const selector = asLabelSelectorObject(spec.selector);
  errs.push(
    ...validateLabelSelector(selector, 'spec.selector', { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector }),
  );
  errs.push(...validateAccessModeList(modes, 'spec.accessModes'));
  const requests = mapAt(mapAt(spec, 'resources'), 'requests');
  // Kubernetes keys the path on "resources", not "resources.requests".
  if (requests.storage === undefined || requests.storage === null) errs.push(fieldError.required('spec.resources[storage]'));
  else errs.push(...validatePositiveQuantity(requests.storage, 'spec.resources[storage]'));
  errs.push(...validateClassName(spec.storageClassName, 'spec.storageClassName'));
  errs.push(...validateVolumeMode(spec.volumeMode, 'spec.volumeMode'));
  errs.push(...validateDataSources(spec, opts));
  return errs;
}

/** The strategy's Validate: ObjectMeta is the store's; the spec is this kind's. */
export function validatePersistentVolumeClaim(pvc: KubeObject): FieldError[] {
  return validateClaimSpec(specOf(pvc), CREATE_OPTIONS);
}

/** validateStorageClassUpgradeFromAnnotation: a class named by the beta annotation may move to the field. */
function upgradesFromAnnotation(next: KubeObject, old: KubeObject): boolean {
  const oldAnnotation = old.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  const newAnnotation = next.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  const newClass = specOf(next).storageClassName;
  return (
    oldAnnotation !== undefined &&
    specOf(old).storageClassName == null &&
    typeof newClass === 'string' &&
    newClass === oldAnnotation &&
    (newAnnotation === undefined || newAnnotation === oldAnnotation)
  );
}

/** validateStorageClassUpgradeFromNil: a claim without class may get one (the retroactive default class). */
function upgradesFromNil(next: KubeObject, old: KubeObject): boolean {
  const oldAnnotation = old.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  const newClass = specOf(next).storageClassName;
  return (
    typeof newClass === 'string' && specOf(old).storageClassName == null && (oldAnnotation === undefined || newClass === oldAnnotation)
  );
}

/** The immutability rules of ValidatePersistentVolumeClaimUpdate (the object checks run beside them). */
function validateClaimSpecChange(next: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const nextSpec = specOf(next);
  const oldSpec = specOf(old);
  const nextClone: Obj = structuredClone(nextSpec);
  const oldClone: Obj = structuredClone(oldSpec);
  // The binder sets volumeName once.
  if (text(oldSpec.volumeName) === '') oldClone.volumeName = nextClone.volumeName;
  if (upgradesFromAnnotation(next, old)) {
    delete nextClone.storageClassName;
  } else {
    const nextAnnotation = next.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? '';
    const oldAnnotation = old.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? '';
    if (nextAnnotation !== oldAnnotation) {
      errs.push(fieldError.invalid(`metadata.annotations.${BETA_STORAGE_CLASS_ANNOTATION}`, nextAnnotation, 'field is immutable'));
    }
    if (upgradesFromNil(next, old)) delete nextClone.storageClassName;
  }
  // A bound claim may be resized; the status strategy keeps status, so the phase is the stored one.
  const nextResources = isObject(nextClone.resources) ? nextClone.resources : undefined;
  if (statusOf(next).phase === 'Bound' && nextResources !== undefined && isObject(nextResources.requests)) {
    const oldStorage = mapAt(mapAt(oldSpec, 'resources'), 'requests').storage;
    if (oldStorage === undefined) delete nextResources.requests.storage;
    else nextResources.requests.storage = oldStorage;
  }
  if (oldClone.volumeAttributesClassName === undefined) delete nextClone.volumeAttributesClassName;
  else nextClone.volumeAttributesClassName = oldClone.volumeAttributesClassName;
  if (!sameSpec(nextClone, oldClone)) {
    const diff = goStructDiff('core.PersistentVolumeClaimSpec', SPEC_FIELDS, oldClone, nextClone);
    errs.push(
      fieldError.forbidden(
        'spec',
        `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${diff}`,
      ),
    );
  }
  const newSize = quantityValue(mapAt(mapAt(nextSpec, 'resources'), 'requests').storage);
  const oldSize = quantityValue(mapAt(mapAt(oldSpec, 'resources'), 'requests').storage);
  const statusSize = quantityValue(mapAt(statusOf(old), 'capacity').storage);
  // RecoverVolumeExpansionFailure lets a failed expansion be walked back, down to the size the volume has.
  if (newSize < oldSize && newSize <= statusSize) {
    errs.push(fieldError.forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  }
  errs.push(...validateImmutable(nextSpec.volumeMode, oldSpec.volumeMode, 'volumeMode'));
  if (!isDeepStrictEqual(oldSpec.volumeAttributesClassName ?? null, nextSpec.volumeAttributesClassName ?? null)) {
    errs.push(
      fieldError.forbidden('spec.volumeAttributesClassName', 'update is forbidden when the VolumeAttributesClass feature gate is disabled'),
    );
  }
  return errs;
}

/** Semantic equality: quantities compare by value, as apiequality.Semantic does; unset and absent are alike. */
function sameSpec(a: Obj, b: Obj): boolean {
  const normalise = (spec: Obj): Obj => {
    const copy = JSON.parse(JSON.stringify(spec)) as Obj;
    const resources = isObject(copy.resources) ? copy.resources : undefined;
    for (const list of ['requests', 'limits']) {
      const quantities = resources?.[list];
      if (isObject(quantities)) for (const key of Object.keys(quantities)) quantities[key] = quantityValue(quantities[key]);
    }
    return copy;
  };
  return isDeepStrictEqual(normalise(a), normalise(b));
}

/** The strategy's ValidateUpdate: the object checks with the stored claim's leniencies, then the update rules. */
export function validatePersistentVolumeClaimUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  return [...validateClaimSpec(specOf(next), updateOptions(old)), ...validateClaimSpecChange(next, old)];
}

/** validatePersistentVolumeClaimResourceKey: a qualified name, and "storage" among the native resources. */
function validateResourceKey(key: string, path: string): FieldError[] {
  const errs = isQualifiedName(key).map((msg) => fieldError.invalid(path, key, msg));
  if (errs.length > 0) return errs;
  const native = !key.includes('/') || key.includes('kubernetes.io/');
  return native && key !== 'storage' ? [fieldError.notSupported(path, key, ['storage'])] : [];
}

/** ValidatePersistentVolumeClaimStatusUpdate (map keys visited sorted; Go's order is random). */
export function validatePersistentVolumeClaimStatusUpdate(next: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const modes = specOf(next).accessModes;
  // Kubernetes capitalises this path.
  if (!Array.isArray(modes) || modes.length === 0) errs.push(fieldError.required('Spec.accessModes'));
  const status = statusOf(next);
  for (const [name, quantity] of sortedEntries(mapAt(status, 'capacity'))) {
    errs.push(...validateBasicResource(quantity, `status.capacity[${name}]`));
  }
  const resizePath = 'status.allocatedResourceStatus';
  for (const [name, state] of sortedEntries(mapAt(status, 'allocatedResourceStatuses'))) {
    errs.push(...validateResourceKey(name, resizePath));
    // Kubernetes names the key, not the state, as the unsupported value.
    if (typeof state !== 'string' || !RESIZE_STATUSES.includes(state))
      errs.push(fieldError.notSupported(resizePath, name, RESIZE_STATUSES));
  }
  const allocatedPath = 'status.allocatedResources';
  for (const [name, quantity] of sortedEntries(mapAt(status, 'allocatedResources'))) {
    const keyErrs = validateResourceKey(name, allocatedPath);
    if (keyErrs.length > 0) errs.push(...keyErrs);
    else errs.push(...validateBasicResource(quantity, `${allocatedPath}[${name}]`));
  }
  return errs;
}

/** GetWarningsForPersistentVolumeClaim: the beta class annotation and fractional byte sizes. */
export function persistentVolumeClaimWarnings(pvc: KubeObject): string[] {
  const warnings: string[] = [];
  if (pvc.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] !== undefined) {
    warnings.push(
      `metadata.annotations[${BETA_STORAGE_CLASS_ANNOTATION}]: deprecated since v1.8; use "storageClassName" attribute instead`,
    );
  }
  const resources = mapAt(specOf(pvc), 'resources');
  for (const list of ['requests', 'limits']) {
    const storage = mapAt(resources, list).storage;
    if (storage !== undefined && !Number.isInteger(Math.round(quantityValue(storage) * 1000) / 1000)) {
      warnings.push(
        `spec.resources.${list}[storage]: fractional byte value ${JSON.stringify(String(storage))} is invalid, must be an integer`,
      );
    }
  }
  return warnings;
}
