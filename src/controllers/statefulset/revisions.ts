import type { KubeObject } from '../../api/types.js';
import type { ApiClient } from '../../client/interface.js';
import {
  createRevision,
  equalRevision,
  newRevision,
  nextRevision,
  setRevisionNumber,
  sortRevisions,
  templatePatch,
} from '../history/controller-history.js';
import type { Revisions } from './control.js';
import { specOf, statusOf } from './identity.js';

/**
 * getStatefulSetRevisions (R12.75): the update revision is the newest revision if it holds the current template,
 * an older one holding it renumbered to the top (a rollback), or a new one; the current revision is the one the
 * status names, or the update revision for a new set.
 */
export async function statefulSetRevisions(
  client: ApiClient,
  set: KubeObject,
  owned: readonly KubeObject[],
): Promise<Revisions & { all: KubeObject[] }> {
  const revisions = sortRevisions(owned);
  const status = statusOf(set);
  let collisionCount = typeof status.collisionCount === 'number' ? status.collisionCount : 0;
  const template = specOf(set).template as { metadata?: { labels?: Record<string, string> } } | undefined;
  const spec = { owner: set, data: templatePatch(set), revision: nextRevision(revisions), labels: template?.metadata?.labels ?? {} };
  const candidate = newRevision(spec, collisionCount);
  const equal = revisions.filter((r) => equalRevision(r, candidate));
  const latest = revisions[revisions.length - 1];
  const lastEqual = equal[equal.length - 1];
  let update: KubeObject;
  let all = revisions;
  if (latest !== undefined && lastEqual !== undefined && equalRevision(latest, lastEqual)) update = latest;
  else if (lastEqual !== undefined) {
    update = await setRevisionNumber(client, lastEqual, spec.revision);
    all = revisions.map((r) => (r === lastEqual ? update : r));
  } else {
    const created = await createRevision(client, spec, collisionCount);
    update = created.revision;
    collisionCount = created.collisionCount;
    all = [...revisions, update];
  }
  const current = all.find((r) => r.metadata.name === status.currentRevision) ?? update;
  return { current, update, collisionCount, all };
}
