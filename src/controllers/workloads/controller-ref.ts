import { StatusError } from '../../api/errors.js';
import type { KubeObject, OwnerReference } from '../../api/types.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';

/** The reference with `controller: true`, if any (metav1.GetControllerOf). */
export function controllerRefOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((ref) => ref.controller === true);
}

/** What a controller writes on what it creates or adopts (metav1.NewControllerRef). */
export function newControllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion ?? '',
    kind: owner.kind ?? '',
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

export interface ClaimOptions {
  readonly client: ApiClient;
  /** The dependents' resource (pods, replicasets). */
  readonly dependents: ResourceRef;
  /** The owner's resource, for the live re-check before adopting. */
  readonly ownerResource: ResourceRef;
  readonly owner: KubeObject;
  /** The owner's selector plus any kind-specific filter. */
  readonly matches: (dependent: KubeObject) => boolean;
  /** A finalizer adoption adds and release removes (the Job controller's tracking finalizer, R12.21, R12.22). */
  readonly finalizer?: string;
}

/**
 * BaseControllerRefManager.ClaimObject over a list of candidates (R12.17–R12.22): keeps what the owner controls and
 * still matches, releases what it controls that stopped matching (unless the owner is being deleted), adopts
 * matching orphans after one live read of the owner per claim. Returns the claimed objects (adopted ones in their
 * patched form); a failed adoption or release makes the whole claim throw after the others were tried, so the sync
 * is retried, as upstream aggregates those errors.
 */
export async function claimObjects(candidates: readonly KubeObject[], options: ClaimOptions): Promise<KubeObject[]> {
  const { owner } = options;
  const ownerUid = owner.metadata.uid;
  const ownerDeleting = owner.metadata.deletionTimestamp !== undefined;
  const claimed: KubeObject[] = [];
  const errors: unknown[] = [];
  let liveCheck: Promise<void> | undefined;

  for (const candidate of candidates) {
    const ref = controllerRefOf(candidate);
    if (ref !== undefined) {
      if (ref.uid !== ownerUid) continue;
      if (options.matches(candidate)) {
        claimed.push(candidate);
      } else if (!ownerDeleting) {
        try {
          await release(candidate, options);
        } catch (err) {
          errors.push(err);
        }
      }
      continue;
    }
    if (ownerDeleting || !options.matches(candidate)) continue;
    if (candidate.metadata.deletionTimestamp !== undefined) continue;
    if (candidate.metadata.namespace !== owner.metadata.namespace) continue;
    try {
      liveCheck ??= recheckOwner(options);
      await liveCheck;
      claimed.push(await adopt(candidate, options));
    } catch (err) {
      // An orphan deleted meanwhile is simply not ours.
      if (err instanceof StatusError && err.code === 404) continue;
      errors.push(err);
    }
  }
  if (errors.length > 0) throw errors[0];
  return claimed;
}

/**
 * RecheckDeletionTimestamp: the cache may show an owner that an orphaning delete already removed or marked; a
 * quorum read closes that race (kubernetes/kubernetes#42639) before anything is adopted.
 */
async function recheckOwner(options: ClaimOptions): Promise<void> {
  const { owner } = options;
  const fresh = await options.client.get(options.ownerResource, owner.metadata.namespace, owner.metadata.name ?? '');
  const what = `${owner.kind} ${owner.metadata.namespace}/${owner.metadata.name}`;
  if (fresh.metadata.uid !== owner.metadata.uid) {
    throw new Error(`original ${what} is gone: got uid ${fresh.metadata.uid}, wanted ${owner.metadata.uid}`);
  }
  if (fresh.metadata.deletionTimestamp !== undefined)
    throw new Error(`${what} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
}

/** The uid in the patch is a precondition: a recreated object of the same name is left alone. */
async function adopt(candidate: KubeObject, options: ClaimOptions): Promise<KubeObject> {
  const metadata: Record<string, unknown> = { ownerReferences: [newControllerRef(options.owner)], uid: candidate.metadata.uid };
  if (options.finalizer !== undefined) metadata.finalizers = [options.finalizer];
  return options.client.patch(options.dependents, candidate.metadata.namespace, candidate.metadata.name ?? '', 'strategic', { metadata });
}

async function release(candidate: KubeObject, options: ClaimOptions): Promise<void> {
  try {
    const metadata: Record<string, unknown> = {
      ownerReferences: [{ $patch: 'delete', uid: options.owner.metadata.uid }],
      uid: candidate.metadata.uid,
    };
    if (options.finalizer !== undefined) metadata['$deleteFromPrimitiveList/finalizers'] = [options.finalizer];
    await options.client.patch(options.dependents, candidate.metadata.namespace, candidate.metadata.name ?? '', 'strategic', { metadata });
  } catch (err) {
    // Gone, or no longer carrying the reference in a form the patch applies to: nothing left to release.
    if (err instanceof StatusError && (err.code === 404 || err.code === 422)) return;
    throw err;
  }
}
