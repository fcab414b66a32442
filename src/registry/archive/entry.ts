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
  /** Its resourceVersion when it was removed (the archived object itself is kept as stored, without one). */
  readonly resourceVersion?: string;
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

/** Controllers delete with one UserInfo object each: its record is built once, not once per removal. */
const userRecords = new WeakMap<UserInfo, DeletionRecord['user']>();

function userRecord(user: UserInfo | undefined): DeletionRecord['user'] {
  if (user === undefined) return SERVER_USER;
  let record = userRecords.get(user);
  if (record === undefined) {
    record = { username: user.name, groups: [...user.groups], ...(user.uid === undefined ? {} : { uid: user.uid }) };
    userRecords.set(user, record);
  }
  return record;
}

function recordOf(
  cause: DeletionCause | undefined,
  fallback: 'Delete' | 'Finalized',
  user: UserInfo | undefined,
  time: string,
): DeletionRecord {
  const who = userRecord(user);
  if (cause === undefined) return { time, reason: fallback, user: who };
  switch (cause.reason) {
    case 'Cascade': {
      const ownerUIDs: string[] = [];
      for (const o of cause.owners) if (o.controller === true) ownerUIDs.push(o.uid);
      for (const o of cause.owners) if (o.controller !== true) ownerUIDs.push(o.uid);
      return { time, reason: 'Cascade', user: who, ownerUIDs };
    }
    case 'NamespaceTerminating':
      return { time, reason: 'NamespaceTerminating', user: who, namespace: cause.namespace };
    case 'CRDRemoval':
      return { time, reason: 'CRDRemoval', user: who, crd: cause.crd };
  }
}

const CLOSE = 0x7d; // '}'

/** The JSON of an archive kind's apiVersion and kind, and of the original's resource, once per resource. */
const fragments = new WeakMap<ResourceInfo, { readonly kind: string; readonly resource: string }>();

function fragmentsOf(info: ResourceInfo): { readonly kind: string; readonly resource: string } {
  let found = fragments.get(info);
  if (found === undefined) {
    const archive = archiveResourceFor(info);
    found = {
      kind: `{"apiVersion":"${ARCHIVE_GROUP}/${ARCHIVE_VERSION}","kind":"${archive.kind}","metadata":{"name":`,
      resource: JSON.stringify(qualifiedResource(info)),
    };
    fragments.set(info, found);
  }
  return found;
}

const userJson = new WeakMap<DeletionRecord['user'], string>();

/** The deletion record's JSON, the user's part once per user. */
function deletionJson(record: DeletionRecord): string {
  let user = userJson.get(record.user);
  if (user === undefined) {
    user = JSON.stringify(record.user);
    userJson.set(record.user, user);
  }
  const base = `{"time":"${record.time}","reason":"${record.reason}","user":${user}`;
  if (record.ownerUIDs !== undefined) return `${base},"ownerUIDs":${JSON.stringify(record.ownerUIDs)}}`;
  if (record.namespace !== undefined) return `${base},"namespace":${JSON.stringify(record.namespace)}}`;
  if (record.crd !== undefined) return `${base},"crd":${JSON.stringify(record.crd)}}`;
  return `${base}}`;
}

/** Removals of one cascade fall in few milliseconds: each formats the time once. */
let lastTime = { ms: Number.NaN, iso: '' };

function isoTime(now: Date): string {
  const ms = now.getTime();
  if (ms !== lastTime.ms) lastTime = { ms, iso: now.toISOString() };
  return lastTime.iso;
}

/**
 * The stored bytes of the archive entry of an object leaving storage: an ArchivedObject (namespaced originals, in
 * the original's namespace) or a ClusterArchivedObject, holding `objectBytes` (the object as storage held it) as
 * `object`. The entry is the original's afterlife: named after its uid, it keeps that uid too (the original is
 * gone, so no live object shares it). Every object a cascade removes goes through here inside its removal, so the
 * JSON is put together from pieces computed once per resource and user, and the object is not encoded again.
 */
export function encodeArchiveEntry(
  info: ResourceInfo,
  obj: KubeObject,
  objectBytes: Uint8Array,
  cause: DeletionCause | undefined,
  fallback: 'Delete' | 'Finalized',
  user: UserInfo | undefined,
  now: Date,
): Uint8Array {
  const meta = obj.metadata;
  const { kind, resource } = fragmentsOf(info);
  // Milliseconds: a restore's asOf and a namespace's removal window compare finer than creationTimestamp's seconds.
  const time = isoTime(now);
  const uid = JSON.stringify(meta.uid ?? '');
  const namespace = info.namespaced ? `,"namespace":${JSON.stringify(meta.namespace ?? '')}` : '';
  const version = meta.resourceVersion === undefined ? '' : `,"resourceVersion":${JSON.stringify(meta.resourceVersion)}`;
  const head = [
    kind,
    uid,
    namespace,
    ',"uid":',
    uid,
    ',"creationTimestamp":"',
    time.slice(0, 19),
    'Z"},"original":{"apiVersion":',
    JSON.stringify(obj.apiVersion ?? ''),
    ',"kind":',
    JSON.stringify(obj.kind ?? info.kind),
    ',"resource":',
    resource,
    ',"name":',
    JSON.stringify(meta.name ?? ''),
    namespace,
    ',"uid":',
    uid,
    version,
    '},"deletion":',
    deletionJson(recordOf(cause, fallback, user, time)),
    ',"object":',
  ].join('');
  const headLength = Buffer.byteLength(head);
  const bytes = Buffer.allocUnsafe(headLength + objectBytes.length + 1);
  bytes.write(head, 0);
  bytes.set(objectBytes, headLength);
  bytes[bytes.length - 1] = CLOSE;
  return bytes;
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
