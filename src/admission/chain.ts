import type { WriteAdmission } from '../registry/write-admission.js';

/** Runs admission plugins one after another, in order; the first refusal ends the chain (as kube-apiserver does). */
export function chainAdmission(...plugins: readonly WriteAdmission[]): WriteAdmission {
  return async (operation, info, obj, old, options) => {
    for (const plugin of plugins) await plugin(operation, info, obj, old, options);
  };
}
