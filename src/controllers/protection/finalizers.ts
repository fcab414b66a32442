import type { KubeObject } from '../../api/types.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';

const has = (obj: KubeObject, finalizer: string): boolean => (obj.metadata.finalizers ?? []).includes(finalizer);

/** protectionutil.NeedToAddFinalizer: not being deleted and without the finalizer. */
export function needsFinalizer(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata.deletionTimestamp === undefined && !has(obj, finalizer);
}

/** protectionutil.IsDeletionCandidate: being deleted and still holding the finalizer. */
export function isDeletionCandidate(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata.deletionTimestamp !== undefined && has(obj, finalizer);
}

/**
 * R6.7: a full PUT of the cached object with the finalizer added or removed. The cached resourceVersion goes with
 * it, so a stale cache yields a 409 and the caller retries from fresher state.
 */
export async function putFinalizers(
  client: ApiClient,
  ref: ResourceRef,
  cached: KubeObject,
  change: 'add' | 'remove',
  finalizer: string,
): Promise<void> {
  const copy = structuredClone(cached);
  const finalizers = copy.metadata.finalizers ?? [];
  copy.metadata.finalizers = change === 'add' ? [...finalizers, finalizer] : finalizers.filter((f) => f !== finalizer);
  await client.update(ref, copy.metadata.namespace, copy);
}
