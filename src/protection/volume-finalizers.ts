/** R6.1: the finalizers of Kubernetes' storage object in-use protection. */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';
