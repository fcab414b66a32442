import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { ApiClient } from '../../client/interface.js';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  CONTROLLER_REVISIONS,
  createRevision,
  equalRevision,
  newRevision,
  nextRevision,
  podRevisionNames,
  revisionNumber,
  setRevisionNumber,
  sortRevisions,
  templatePatch,
  truncateHistory,
} from '../history/controller-history.js';
import { numberOr } from '../workloads/pods.js';
import { specOf } from './daemon-pods.js';

export interface DaemonHistory {
  readonly current: KubeObject;
  readonly old: KubeObject[];
  /** The collision count the current revision was named with. */
  readonly collisionCount: number;
}

/**
 * constructHistory (update.go): the revision holding the current template (created, or deduplicated and
 * renumbered to the top when it already exists) and the older ones.
 */
export async function constructHistory(client: ApiClient, ds: KubeObject, owned: readonly KubeObject[]): Promise<DaemonHistory> {
  const probe = newRevision({ owner: ds, data: templatePatch(ds), revision: 0, labels: {} }, undefined);
  const matching = sortRevisions(owned.filter((r) => equalRevision(r, probe)));
  const old = owned.filter((r) => !matching.includes(r));
  const next = nextRevision(old);
  const status = ds.status as { collisionCount?: number } | undefined;
  const collisionCount = numberOr(status?.collisionCount, 0);
  if (matching.length === 0) {
    const template = specOf(ds).template as { metadata?: { labels?: Record<string, string> } } | undefined;
    const spec = { owner: ds, data: templatePatch(ds), revision: next, labels: template?.metadata?.labels ?? {} };
    const created = await createRevision(client, spec, collisionCount);
    return { current: created.revision, old, collisionCount: created.collisionCount };
  }
  // dedupCurHistories: the highest-numbered copy stays.
  const keep = matching[matching.length - 1] as KubeObject;
  for (const duplicate of matching.slice(0, -1)) {
    try {
      await client.delete(CONTROLLER_REVISIONS, duplicate.metadata.namespace, duplicate.metadata.name ?? '');
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
  const current = revisionNumber(keep) < next ? await setRevisionNumber(client, keep, next) : keep;
  return { current, old, collisionCount };
}

export function revisionHash(revision: KubeObject): string {
  return revision.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '';
}

/** cleanupHistory: old revisions no live pod is labelled with, beyond revisionHistoryLimit, oldest first. */
export async function cleanupHistory(
  client: ApiClient,
  ds: KubeObject,
  old: readonly KubeObject[],
  pods: readonly KubeObject[],
): Promise<void> {
  const live = new Set(podRevisionNames(pods));
  await truncateHistory(client, old, (r) => live.has(revisionHash(r)), numberOr(specOf(ds).revisionHistoryLimit, 10));
}
