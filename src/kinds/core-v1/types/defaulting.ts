import { isObject, type KubeObject } from '../../../api/types.js';
import { defaultPodTemplate } from './pod-defaults.js';

/** Helpers of API defaulting (pkg/apis/<group>/v1/defaults.go and k8s.io/api `+default` markers) the kinds share. */

type Obj = Record<string, unknown>;

/** The object's spec, created empty when absent, for defaulting to fill in. */
export function specOf(obj: KubeObject): Obj {
  if (!isObject(obj.spec)) obj.spec = {};
  return obj.spec as Obj;
}

/** Defaults a workload's own spec fields (`extra`), then its pod template as a Pod's spec is defaulted. */
export function defaultWorkload(obj: KubeObject, extra: (s: Obj) => void): void {
  const s = specOf(obj);
  extra(s);
  defaultPodTemplate(s.template);
}
