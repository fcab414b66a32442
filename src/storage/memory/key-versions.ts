import type { KeyValue } from '../backend.js';

/** Marks that the key was deleted at `revision`. */
export class Tombstone {
  readonly revision: number;

  constructor(revision: number) {
    this.revision = revision;
  }
}

/** One write to a key: the value it then held, or a tombstone for a delete. */
export type Version = KeyValue | Tombstone;

/** A key's retained versions, oldest first; revisions strictly increase. */
export type VersionList = Version[];

function revisionOf(version: Version): number {
  return version instanceof Tombstone ? version.revision : version.modRevision;
}

/** The value the key held at `revision`, or undefined when it did not exist then. */
export function valueAt(versions: VersionList, revision: number): KeyValue | undefined {
  for (let i = versions.length - 1; i >= 0; i--) {
    const version = versions[i] as Version;
    if (revisionOf(version) <= revision) return version instanceof Tombstone ? undefined : version;
  }
  return undefined;
}

/** The value the key holds now, or undefined when it is deleted. */
export function latestValue(versions: VersionList): KeyValue | undefined {
  const last = versions[versions.length - 1];
  return last === undefined || last instanceof Tombstone ? undefined : last;
}

/**
 * Drops the versions that no read at or after `compactRevision` can see: all but the newest version at or below
 * it. Returns false when nothing readable remains (the key was deleted at or before compactRevision and not
 * written since), so the caller can forget the key.
 */
export function pruneVersions(versions: VersionList, compactRevision: number): boolean {
  let keepFrom = 0;
  while (keepFrom + 1 < versions.length && revisionOf(versions[keepFrom + 1] as Version) <= compactRevision) {
    keepFrom += 1;
  }
  if (keepFrom > 0) versions.splice(0, keepFrom);
  const oldest = versions[0];
  return !(versions.length === 1 && oldest instanceof Tombstone && oldest.revision <= compactRevision);
}
