import { isObject, type KubeObject } from '../api/types.js';
import type { MutatingAdmissionPlugin } from '../registry/admission/plugin.js';
import { newestDefaultClass } from './newest-default-class.js';

const IS_DEFAULT_CLASS = 'ingressclass.kubernetes.io/is-default-class';
const LEGACY_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

/** The default class: the newest of those annotated as default. */
export function chooseDefaultIngressClass(classes: readonly KubeObject[]): string | undefined {
  return newestDefaultClass(classes, (c) => c.metadata.annotations?.[IS_DEFAULT_CLASS] === 'true');
}

/**
 * The DefaultIngressClass admission plugin, on Ingress creation: an Ingress naming no class (neither
 * spec.ingressClassName nor the legacy kubernetes.io/ingress.class annotation) gets the default IngressClass.
 * Classes are read when an Ingress is created, which is rare, rather than kept in a cache every server would pay for.
 */
export function defaultIngressClass(listClasses: () => Promise<readonly KubeObject[]>): MutatingAdmissionPlugin {
  return {
    name: 'DefaultIngressClass',
    handles: (operation) => operation === 'CREATE',
    admit: async ({ resource, subresource, object: obj }) => {
      if (resource.group !== 'networking.k8s.io' || resource.plural !== 'ingresses' || subresource !== '' || obj === undefined) return;
      if (!isObject(obj.spec)) obj.spec = {};
      const spec = obj.spec as Record<string, unknown>;
      if (typeof spec.ingressClassName === 'string' || obj.metadata.annotations?.[LEGACY_CLASS_ANNOTATION] !== undefined) return;
      const chosen = chooseDefaultIngressClass(await listClasses());
      if (chosen !== undefined) spec.ingressClassName = chosen;
    },
  };
}
