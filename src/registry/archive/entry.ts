import { randomUUID } from 'node:crypto';
import type { DeletionCause, DeletionReason } from '../../api/deletion-cause.js';
import { qualifiedResource, type ResourceInfo } from '../../api/resource-info.js';
import type { KubeObject } from '../../api/types.js';
import type { UserInfo } from '../../api/user.js';
import { ARCHIVE_GROUP, ARCHIVE_VERSION, archiveResourceFor } from './resources.js';

/** Which object an archive entry keeps. */
export interface OriginalIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  /** The plural resource qualified by its group: "deployments.apps", "pods". */
  readonly resource: string;
  readonly name: string;
  readonly namespace?: string;
  readonly uid: string;
}

/** When, by whom and why the object left storage. */
export interface DeletionRecord {
  readonly time: string;
  readonly reason: DeletionReason;
  readonly user: { readonly username: string; readonly uid?: string; readonly groups: readonly string[] };
  /** Cascade: the owners whose deletion removed it, the controller first. */
  readonly ownerUIDs?: readonly string[];
  /** NamespaceTerminating: the namespace. */
  readonly namespace?: string;
  /** CRDRemoval: the CustomResourceDefinition's name. */
  readonly crd?: string;
}

/** The server itself (no requester): storage removals it makes on its own behalf. */
const SERVER_USER = { username: 'system:apiserver', groups: ['system:masters'] } as const;

function recordOf(
  cause: DeletionCause | undefined,
  fallback: 'Delete' | 'Finalized',
  user: UserInfo | undefined,
  time: string,
): DeletionRecord {
  const who =
    user === undefined
      ? SERVER_USER
      : { username: user.name, groups: [...user.groups], ...(user.uid === undefined ? {} : { uid: user.uid }) };
  if (cause === undefined) return { time, reason: fallback, user: who };
  switch (cause.reason) {
    case 'Cascade': {
      const controller = cause.owners.filter((o) => o.controller === true).map((o) => o.uid);
      const others = cause.owners.filter((o) => o.controller !== true).map((o) => o.uid);
      return { time, reason: 'Cascade', user: who, ownerUIDs: [...controller, ...others] };
    }
    case 'NamespaceTerminating':
      return { time, reason: 'NamespaceTerminating', user: who, namespace: cause.namespace };
    case 'CRDRemoval':
      return { time, reason: 'CRDRemoval', user: who, crd: cause.crd };
  }
}

/**
 * The archive entry of an object leaving storage: an ArchivedObject (namespaced originals, in the original's
 * namespace) or a ClusterArchivedObject, named after the original's uid, holding its last state as stored.
 */
export function archiveEntry(
  info: ResourceInfo,
  obj: KubeObject,
  cause: DeletionCause | undefined,
  fallback: 'Delete' | 'Finalized',
  user: UserInfo | undefined,
  now: Date,
): KubeObject {
  const archive = archiveResourceFor(info);
  const meta = obj.metadata;
  // Milliseconds: a restore's asOf and a namespace's removal window compare finer than creationTimestamp's seconds.
  const time = now.toISOString();
  const uid = meta.uid ?? '';
  const original: OriginalIdentity = {
    apiVersion: obj.apiVersion ?? '',
    kind: obj.kind ?? info.kind,
    resource: qualifiedResource(info),
    name: meta.name ?? '',
    ...(info.namespaced ? { namespace: meta.namespace ?? '' } : {}),
    uid,
  };
  return {
    apiVersion: `${ARCHIVE_GROUP}/${ARCHIVE_VERSION}`,
    kind: archive.kind,
    metadata: {
      name: uid,
      ...(info.namespaced ? { namespace: meta.namespace ?? '' } : {}),
      uid: randomUUID(),
      creationTimestamp: time.replace(/\.\d{3}Z$/, 'Z'),
    },
    original,
    deletion: recordOf(cause, fallback, user, time),
    object: obj,
  };
}

/** The archive entry's parts, read back from an ArchivedObject or ClusterArchivedObject. */
export function entryParts(entry: KubeObject): { original: OriginalIdentity; deletion: DeletionRecord; object: KubeObject } {
  return {
    original: entry.original as OriginalIdentity,
    deletion: entry.deletion as DeletionRecord,
    object: entry.object as KubeObject,
  };
}

/** The REASON column: the reason, with the cascade's owner, the namespace or the CRD it names. */
export function reasonText(deletion: DeletionRecord): string {
  switch (deletion.reason) {
    case 'Cascade':
      return `Cascade(owner=${deletion.ownerUIDs?.[0] ?? '<unknown>'})`;
    case 'NamespaceTerminating':
      return `NamespaceTerminating(${deletion.namespace ?? ''})`;
    case 'CRDRemoval':
      return `CRDRemoval(${deletion.crd ?? ''})`;
    default:
      return deletion.reason;
  }
}
