import type { Etcd3, IEvent, IWatchResponse } from 'etcd3';
import type { WatchEvent } from '../backend.js';
import { CompactedError } from '../errors.js';
import { EventQueue } from './event-queue.js';
import type { KeySpace } from './key-space.js';
import { revisionOf, toKeyValue } from './key-values.js';

export interface WatchStreamOptions {
  readonly client: Etcd3;
  readonly keys: KeySpace;
  readonly prefix: string;
  readonly afterRevision: number;
  /** etcd refused the start revision as compacted and told us its compact revision. */
  readonly onCompacted: (compactRevision: number) => void;
  readonly onStop: (queue: EventQueue) => void;
}

export interface OpenedWatch {
  readonly queue: EventQueue;
  /** etcd's revision when it registered the watch. */
  readonly createdAtRevision: number;
}

/**
 * Opens one etcd watch stream of its own (rather than sharing the client library's multiplexed watcher, which
 * swallows the compact revision and resumes from the header revision after a reconnect, possibly skipping
 * events still being replayed). A broken stream fails the watcher instead of silently resuming: the caller
 * watches again from the last revision it saw, as Kubernetes clients do.
 */
export async function openWatchStream(options: WatchStreamOptions): Promise<OpenedWatch> {
  const { keys, afterRevision } = options;
  const range = keys.range(options.prefix);
  const stream = await options.client.watchClient.watch();
  let stopped = false;
  const queue = new EventQueue(() => {
    stopped = true;
    // Half-close first: the client library treats an error on a still-writable stream (our own CANCELLED
    // included) as a broken connection and resets it, which would break every other call on it.
    stream.end();
    stream.cancel();
    options.onStop(queue);
  });

  return new Promise<OpenedWatch>((resolve, reject) => {
    let created = false;
    const failed = (error: Error): void => {
      if (stopped) return;
      if (created) {
        queue.fail(error);
      } else {
        queue.stop();
        reject(error);
      }
    };

    stream.on('data', (response: IWatchResponse) => {
      if (stopped) return;
      const compactRevision = revisionOf(response.compact_revision);
      if (compactRevision > 0) {
        options.onCompacted(compactRevision);
        failed(new CompactedError(afterRevision, compactRevision));
        return;
      }
      if (response.canceled) {
        failed(new Error(`etcd canceled the watch of ${options.prefix}: ${response.cancel_reason || 'no reason given'}`));
        return;
      }
      if (response.created) {
        created = true;
        resolve({ queue, createdAtRevision: revisionOf(response.header.revision) });
      }
      for (const event of response.events) {
        const mapped = toWatchEvent(keys, event);
        if (mapped instanceof Error) {
          failed(mapped);
          return;
        }
        queue.push(mapped);
      }
    });
    stream.on('error', (error: Error) => failed(new Error(`etcd watch of ${options.prefix} failed: ${error.message}`)));
    stream.on('end', () => failed(new Error(`etcd ended the watch stream of ${options.prefix}`)));

    stream.write({
      create_request: { key: range.key, range_end: range.range_end, start_revision: afterRevision + 1, prev_kv: true },
    });
  });
}

function toWatchEvent(keys: KeySpace, event: IEvent): WatchEvent | Error {
  const kv = toKeyValue(keys, event.kv);
  const prevKv = event.prev_kv ? toKeyValue(keys, event.prev_kv) : undefined;
  if (event.type === 'Put') {
    return prevKv === undefined ? { type: 'put', kv, revision: kv.modRevision } : { type: 'put', kv, prevKv, revision: kv.modRevision };
  }
  // etcd reads prevKv at revision - 1; when that was compacted it sends none, and a delete without its last
  // value cannot be reported (kube-apiserver fails its watch the same way).
  if (prevKv === undefined) {
    return new Error(`etcd sent the deletion of ${kv.key} at revision ${kv.modRevision} without its previous value`);
  }
  return {
    type: 'delete',
    kv: { key: kv.key, value: prevKv.value, createRevision: prevKv.createRevision, modRevision: kv.modRevision },
    prevKv,
    revision: kv.modRevision,
  };
}
