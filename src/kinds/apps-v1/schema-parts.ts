import { int32, int64, LABEL_SELECTOR, POD_TEMPLATE_SPEC, ref } from '../../openapi/builders/group-builders.js';

/** Schema pieces several apps-v1 kinds share. */

export const P = 'io.k8s.api.apps.v1.';

export const SELECTOR = (what: string) => ref(LABEL_SELECTOR, `Label query over the pods ${what}; must match the template's labels.`);
export const TEMPLATE = (what: string) => ref(POD_TEMPLATE_SPEC, `Pod template ${what}.`);
export const MIN_READY = int32('Seconds a new pod must be ready, without crashing, before it counts as available. Defaults to 0.');
export const OBSERVED_GENERATION = int64('Most recent generation observed by the controller.');
export const COLLISION_COUNT = int32('Hash collision count, used by the controller to name the newest revision.');
