import type { DeletionCause } from '../../api/deletion-cause.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import type { KubeObject } from '../../api/types.js';
import type { UserInfo } from '../../api/user.js';
import type { PutRecord } from '../../storage/backend.js';
import { encodeObject } from '../codec.js';
import { objectKey } from '../keys.js';
import { encodeArchiveEntry } from './entry.js';
import { archiveResourceFor, isArchiveResource } from './resources.js';

/**
 * Events are removed by the thousand as they expire and say nothing a restore could use; archive entries are
 * removed only by pruning, which must not archive them again.
 */
function archived(info: ResourceInfo): boolean {
  if (info.plural === 'events' && (info.group === '' || info.group === 'events.k8s.io')) return false;
  return !isArchiveResource(info);
}

/**
 * What the registry's stores write, in the removal's own storage transaction, when an object leaves storage
 * (issue 28). Present only when the server archives.
 */
export class Archive {
  private readonly clock: () => Date;

  constructor(clock: () => Date) {
    this.clock = clock;
  }

  /**
   * The archive entry to write with the removal of `obj`, or undefined when its resource is not archived. `stored`
   * is `obj` as storage holds it, when the caller has those bytes (a DELETE of what it read).
   */
  recordFor(
    info: ResourceInfo,
    obj: KubeObject,
    stored: Uint8Array | undefined,
    cause: DeletionCause | undefined,
    fallback: 'Delete' | 'Finalized',
    user: UserInfo | undefined,
  ): PutRecord | undefined {
    if (!archived(info) || obj.metadata.uid === undefined) return undefined;
    const key = objectKey(archiveResourceFor(info), obj.metadata.namespace, obj.metadata.uid);
    return { key, value: encodeArchiveEntry(info, obj, stored ?? encodeObject(obj), cause, fallback, user, this.clock()) };
  }
}
