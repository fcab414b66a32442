import type { ResourceInfo } from '../api/resource-info.js';
import { isObject, type KubeObject } from '../api/types.js';
import type { AdmissionOptions } from '../registry/write-admission.js';

/** The annotations marking a StorageClass as the default; the beta one is still honoured. */
const IS_DEFAULT_CLASS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];
/** A claim carrying the pre-1.6 class annotation has chosen its class already. */
const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The default class: among those annotated as default, the newest, ties going to the first name. */
export function chooseDefaultStorageClass(classes: readonly KubeObject[]): string | undefined {
  const candidates = classes
    .filter((c) => IS_DEFAULT_CLASS.some((key) => c.metadata.annotations?.[key] === 'true'))
    .map((c) => ({ name: c.metadata.name ?? '', created: Date.parse(c.metadata.creationTimestamp ?? '') || 0 }));
  candidates.sort((a, b) => b.created - a.created || byCodeUnit(a.name, b.name));
  return candidates[0]?.name;
}

/**
 * The DefaultStorageClass admission plugin, on PersistentVolumeClaim creation: a claim whose spec.storageClassName
 * is absent (an explicit "" asks for no class and stays) gets the default StorageClass. Classes are read when a claim
 * is created, which is rare, rather than kept in a cache every server would pay for.
 */
export function defaultStorageClass(listClasses: () => Promise<readonly KubeObject[]>) {
  return async (
    operation: 'CREATE' | 'UPDATE' | 'DELETE',
    info: ResourceInfo,
    obj: KubeObject,
    _old?: KubeObject,
    options?: AdmissionOptions,
  ): Promise<void> => {
    if (operation !== 'CREATE' || info.group !== '' || info.plural !== 'persistentvolumeclaims' || options?.subresource !== undefined) return;
    if (!isObject(obj.spec)) obj.spec = {};
    const spec = obj.spec as Record<string, unknown>;
    if (typeof spec.storageClassName === 'string' || obj.metadata.annotations?.[BETA_CLASS_ANNOTATION] !== undefined) return;
    const chosen = chooseDefaultStorageClass(await listClasses());
    if (chosen !== undefined) spec.storageClassName = chosen;
  };
}
