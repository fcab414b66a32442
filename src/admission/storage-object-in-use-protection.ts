import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import type { MutatingAdmissionPlugin } from '../registry/admission/plugin.js';
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../protection/volume-finalizers.js';

/**
 * StorageObjectInUseProtection admission (R3.14): every PersistentVolumeClaim and PersistentVolume is born with its
 * protection finalizer. Only creates are touched; objects that predate the plugin get the finalizer from the
 * protection controllers (R6.1).
 */
export const storageObjectInUseProtection: MutatingAdmissionPlugin = {
  name: 'StorageObjectInUseProtection',
  handles: (operation) => operation === 'CREATE',
  admit: async ({ resource, object }) => {
    if (object !== undefined) addProtectionFinalizer(resource, object);
  },
};

function addProtectionFinalizer(info: ResourceInfo, obj: KubeObject): void {
  if (info.group !== '') return;
  const finalizer =
    info.plural === 'persistentvolumeclaims'
      ? PVC_PROTECTION_FINALIZER
      : info.plural === 'persistentvolumes'
        ? PV_PROTECTION_FINALIZER
        : undefined;
  if (finalizer === undefined) return;
  const finalizers = obj.metadata.finalizers ?? [];
  if (!finalizers.includes(finalizer)) obj.metadata.finalizers = [...finalizers, finalizer];
}
