import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { canonicalJson, computeHash } from '../deployment/hash.js';
import { newControllerRef } from '../workloads/controller-ref.js';

/**
 * ControllerRevisions as pkg/controller/history keeps them for StatefulSets and DaemonSets (R12.73–R12.76): one
 * revision per distinct pod template, named `<owner>-<hash>`, numbered, found again by equal data, and trimmed to
 * the owner's revisionHistoryLimit.
 */

export const CONTROLLER_REVISIONS: ResourceRef = { group: 'apps', version: 'v1', resource: 'controllerrevisions' };
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';

/** Longest owner prefix kept in a revision name, so `<prefix>-<hash>` stays a valid object name. */
const MAX_PREFIX = 223;

/** The revision's data: a strategic-merge patch that puts the owner's whole pod template back (getPatch). */
export function templatePatch(owner: KubeObject): Record<string, unknown> {
  const spec = isObject(owner.spec) ? owner.spec : {};
  const template = isObject(spec.template) ? spec.template : {};
  return { spec: { template: { ...structuredClone(template), $patch: 'replace' } } };
}

/** The pod template a revision restores (ApplyRevision). */
export function templateOf(revision: KubeObject): Record<string, unknown> {
  const data = isObject(revision.data) ? revision.data : {};
  const spec = isObject(data.spec) ? data.spec : {};
  const { $patch: _replace, ...template } = isObject(spec.template) ? spec.template : {};
  return template;
}

export function revisionNumber(revision: KubeObject): number {
  return typeof revision.revision === 'number' ? revision.revision : 0;
}

/** ControllerRevisionName. */
export function revisionName(prefix: string, hash: string): string {
  return `${prefix.slice(0, MAX_PREFIX)}-${hash}`;
}

/** HashControllerRevision: the data, then the collision count when there is one. */
export function revisionHash(data: unknown, collisionCount: number | undefined): string {
  return computeHash(data, collisionCount);
}

/** Two revisions are equal when their data is (EqualRevision). */
export function equalRevision(a: KubeObject, b: KubeObject): boolean {
  return canonicalJson(a.data) === canonicalJson(b.data);
}

/** Oldest first: by revision number, then creation time, then name (SortControllerRevisions). */
export function sortRevisions(revisions: readonly KubeObject[]): KubeObject[] {
  return [...revisions].sort((a, b) => {
    const byNumber = revisionNumber(a) - revisionNumber(b);
    if (byNumber !== 0) return byNumber;
    const ca = a.metadata.creationTimestamp ?? '';
    const cb = b.metadata.creationTimestamp ?? '';
    if (ca !== cb) return ca < cb ? -1 : 1;
    const na = a.metadata.name ?? '';
    const nb = b.metadata.name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
}

/** One more than the highest revision number, 1 for an empty history. */
export function nextRevision(revisions: readonly KubeObject[]): number {
  return revisions.reduce((max, r) => Math.max(max, revisionNumber(r)), 0) + 1;
}

export interface RevisionSpec {
  readonly owner: KubeObject;
  readonly data: Record<string, unknown>;
  readonly revision: number;
  /** The labels the revision carries besides the hash label (a StatefulSet's template labels). */
  readonly labels: Readonly<Record<string, string>>;
}

/** NewControllerRevision: named and labelled by the hash of its data and the collision count. */
export function newRevision(spec: RevisionSpec, collisionCount: number | undefined): KubeObject {
  const hash = revisionHash(spec.data, collisionCount);
  const annotations = spec.owner.metadata.annotations;
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(spec.owner.metadata.name ?? '', hash),
      namespace: spec.owner.metadata.namespace,
      labels: { ...spec.labels, [CONTROLLER_REVISION_HASH_LABEL]: hash },
      ...(annotations === undefined ? {} : { annotations: { ...annotations } }),
      ownerReferences: [newControllerRef(spec.owner)],
    },
    data: spec.data,
    revision: spec.revision,
  };
}

/**
 * CreateControllerRevision: creates the revision, and on a name taken by a revision with other data raises the
 * collision count and tries the next name; a taken name holding equal data is that revision. Returns the stored
 * revision and the collision count that named it, which the owner's status must then carry.
 */
export async function createRevision(
  client: ApiClient,
  spec: RevisionSpec,
  collisionCount: number,
): Promise<{ revision: KubeObject; collisionCount: number }> {
  for (let count = collisionCount; ; count++) {
    const wanted = newRevision(spec, count);
    try {
      return { revision: await client.create(CONTROLLER_REVISIONS, wanted.metadata.namespace, wanted), collisionCount: count };
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409 && err.reason === 'AlreadyExists')) throw err;
      const existing = await client.get(CONTROLLER_REVISIONS, wanted.metadata.namespace, wanted.metadata.name ?? '');
      if (equalRevision(existing, wanted)) return { revision: existing, collisionCount: count };
    }
  }
}

/** Renumbers a revision (a rollback to an older template makes it the newest). */
export async function setRevisionNumber(client: ApiClient, revision: KubeObject, number: number): Promise<KubeObject> {
  if (revisionNumber(revision) === number) return revision;
  return client.update(CONTROLLER_REVISIONS, revision.metadata.namespace, { ...revision, revision: number });
}

/**
 * Deletes the oldest revisions not in use until at most `limit` of those remain (truncateHistory / cleanupHistory);
 * `inUse` says which revisions current pods or the owner's status still name.
 */
export async function truncateHistory(
  client: ApiClient,
  revisions: readonly KubeObject[],
  inUse: (revision: KubeObject) => boolean,
  limit: number,
): Promise<void> {
  const unused = sortRevisions(revisions).filter((r) => !inUse(r));
  for (const revision of unused.slice(0, Math.max(0, unused.length - limit))) {
    try {
      await client.delete(CONTROLLER_REVISIONS, revision.metadata.namespace, revision.metadata.name ?? '');
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
}

/** The revision labels the pods carry: a revision a live pod names is in use. */
export function podRevisionNames(pods: readonly KubeObject[]): string[] {
  return pods.flatMap((pod) => {
    const value = pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL];
    return value === undefined ? [] : [value];
  });
}
