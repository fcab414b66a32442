import { isObject, type KubeObject } from '../../api/types.js';

/**
 * What the PersistentVolumeClaim and PersistentVolume strategies do to the spec before validation
 * (pkg/api/persistentvolumeclaim and pkg/api/persistentvolume DropDisabledSpecFields, NormalizeDataSources) with
 * 1.32's default gates: VolumeAttributesClass and CrossNamespaceVolumeDataSource are off, so their fields go unless
 * the stored object already uses them; AnyVolumeDataSource is on, so a claim's dataSource and dataSourceRef are
 * filled from each other.
 */

type Obj = Record<string, unknown>;

const specOf = (obj: KubeObject | undefined): Obj => (obj !== undefined && isObject(obj.spec) ? obj.spec : {});
const refNamespace = (spec: Obj): unknown => (isObject(spec.dataSourceRef) ? spec.dataSourceRef.namespace : undefined);
const filled = (value: unknown): boolean => typeof value === 'string' && value !== '';

function dropDisabledFields(spec: Obj, oldSpec: Obj | undefined): void {
  if (oldSpec?.volumeAttributesClassName == null) delete spec.volumeAttributesClassName;
  if (!filled(refNamespace(oldSpec ?? {})) && isObject(spec.dataSourceRef)) delete spec.dataSourceRef.namespace;
}

function normalizeDataSources(spec: Obj): void {
  const source = isObject(spec.dataSource) ? spec.dataSource : undefined;
  const ref = isObject(spec.dataSourceRef) ? spec.dataSourceRef : undefined;
  const copy = (from: Obj): Obj => {
    const out: Obj = {};
    if (from.apiGroup !== undefined) out.apiGroup = from.apiGroup;
    out.kind = from.kind;
    out.name = from.name;
    return out;
  };
  if (source !== undefined && ref === undefined) spec.dataSourceRef = copy(source);
  else if (ref !== undefined && source === undefined && !filled(ref.namespace)) spec.dataSource = copy(ref);
}

export function prepareClaimForCreate(pvc: KubeObject): void {
  const spec = specOf(pvc);
  dropDisabledFields(spec, undefined);
  normalizeDataSources(spec);
}

export function prepareClaimForUpdate(next: KubeObject, old: KubeObject): void {
  const spec = specOf(next);
  dropDisabledFields(spec, specOf(old));
  normalizeDataSources(spec);
}

export function prepareVolumeForCreate(pv: KubeObject): void {
  delete specOf(pv).volumeAttributesClassName;
}

export function prepareVolumeForUpdate(next: KubeObject, old: KubeObject): void {
  if (specOf(old).volumeAttributesClassName == null) delete specOf(next).volumeAttributesClassName;
}
