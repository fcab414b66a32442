import { isObject, type KubeObject } from '../api/types.js';
import { isDefaultStorageClass } from '../kinds/storage-v1/storage-class.js';
import type { MutatingAdmissionPlugin } from '../registry/admission/plugin.js';
import { newestDefaultClass } from './newest-default-class.js';

/** A claim carrying the pre-1.6 class annotation has chosen its class already. */
const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** The default class: the newest of those annotated as default. */
export function chooseDefaultStorageClass(classes: readonly KubeObject[]): string | undefined {
  return newestDefaultClass(classes, isDefaultStorageClass);
}

/**
 * The DefaultStorageClass admission plugin, on PersistentVolumeClaim creation: a claim whose spec.storageClassName
 * is absent (an explicit "" asks for no class and stays) gets the default StorageClass. Classes are read when a claim
 * is created, which is rare, rather than kept in a cache every server would pay for.
 */
export function defaultStorageClass(listClasses: () => Promise<readonly KubeObject[]>): MutatingAdmissionPlugin {
  return {
    name: 'DefaultStorageClass',
    handles: (operation) => operation === 'CREATE',
    admit: async ({ resource, subresource, object: obj }) => {
      if (resource.group !== '' || resource.plural !== 'persistentvolumeclaims' || subresource !== '' || obj === undefined) return;
      if (!isObject(obj.spec)) obj.spec = {};
      const spec = obj.spec as Record<string, unknown>;
      if (typeof spec.storageClassName === 'string' || obj.metadata.annotations?.[BETA_CLASS_ANNOTATION] !== undefined) return;
      const chosen = chooseDefaultStorageClass(await listClasses());
      if (chosen !== undefined) spec.storageClassName = chosen;
    },
  };
}
