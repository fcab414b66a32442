import { isObject } from '../api/types.js';
import type { MutatingAdmissionPlugin } from '../registry/admission/plugin.js';

/** kube-apiserver's --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds. */
const DEFAULT_TOLERATION_SECONDS = 300;
const NODE_TAINTS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

/**
 * The DefaultTolerationSeconds admission plugin, on pod creation: a pod that does not already tolerate a node
 * becoming not-ready or unreachable (NoExecute) tolerates each for 300 s, so it is evicted after that, not at once.
 */
export const defaultTolerationSeconds: MutatingAdmissionPlugin = {
  name: 'DefaultTolerationSeconds',
  handles: (operation) => operation === 'CREATE',
  admit: async ({ resource, subresource, object }) => {
    if (resource.group === '' && resource.plural === 'pods' && subresource === '' && isObject(object?.spec))
      tolerateNodeProblems(object.spec);
  },
};

function tolerateNodeProblems(spec: Record<string, unknown>): void {
  const tolerations = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  const added = NODE_TAINTS.filter((key) => !tolerations.some((t) => toleratesNoExecute(t, key))).map((key) => ({
    key,
    operator: 'Exists',
    effect: 'NoExecute',
    tolerationSeconds: DEFAULT_TOLERATION_SECONDS,
  }));
  if (added.length > 0) spec.tolerations = [...tolerations, ...added];
}

/** A toleration for this key (or every key) and the NoExecute effect (or every effect). */
function toleratesNoExecute(toleration: unknown, key: string): boolean {
  if (!isObject(toleration)) return false;
  const tolKey = toleration.key ?? '';
  const effect = toleration.effect ?? '';
  return (tolKey === key || tolKey === '') && (effect === 'NoExecute' || effect === '');
}
