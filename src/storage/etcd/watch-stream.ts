import type { WatchEvent } from '../backend.js';
import { CompactedError } from '../errors.js';
import { EventQueue } from './event-queue.js';
import { GRPC_PREFIX_BYTES, type GrpcChannel } from './grpc-channel.js';
import type { KeySpace } from './key-space.js';
import { fromEtcdKeyValue } from './key-values.js';
import { decodeWatchResponse, type EtcdEvent, encodeWatchCreateRequest } from './watch-messages.js';

export interface WatchStreamOptions {
  readonly channel: GrpcChannel;
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
 * Opens one etcd watch stream of its own, holding one watch, rather than multiplexing watches on one stream as
 * etcd client libraries do (and then swallow the compact revision, or resume from the header revision after a
 * reconnect, possibly skipping events still being replayed). A broken stream fails the watcher instead of
 * silently resuming: the caller watches again from the last revision it saw, as Kubernetes clients do.
 */
export async function openWatchStream(options: WatchStreamOptions): Promise<OpenedWatch> {
  const { keys, afterRevision } = options;
  const range = keys.range(options.prefix);
  let stopped = false;
  let created = false;
  let settle: { resolve: (opened: OpenedWatch) => void; reject: (error: Error) => void } | undefined;
  const opened = new Promise<OpenedWatch>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const queue = new EventQueue(() => {
    stopped = true;
    stream.cancel();
    options.onStop(queue);
  });
  const failed = (error: Error): void => {
    if (stopped) return;
    if (created) {
      queue.fail(error);
    } else {
      queue.stop();
      settle?.reject(error);
    }
  };

  const stream = options.channel.stream('/etcdserverpb.Watch/Watch', {
    message(message) {
      if (stopped) return;
      const response = decodeWatchResponse(message);
      if (response.compactRevision > 0) {
        options.onCompacted(response.compactRevision);
        failed(new CompactedError(afterRevision, response.compactRevision));
        return;
      }
      if (response.canceled) {
        failed(new Error(`etcd canceled the watch of ${options.prefix}: ${response.cancelReason || 'no reason given'}`));
        return;
      }
      if (response.created) {
        created = true;
        settle?.resolve({ queue, createdAtRevision: response.revision });
      }
      for (const event of response.events) {
        const mapped = toWatchEvent(keys, event);
        if (mapped instanceof Error) {
          failed(mapped);
          return;
        }
        queue.push(mapped);
      }
    },
    close(error) {
      failed(new Error(`etcd watch of ${options.prefix} ended: ${error?.message ?? 'stream closed'}`));
    },
  });
  stream.send(
    encodeWatchCreateRequest(
      { key: range.key, rangeEnd: range.range_end, startRevision: afterRevision + 1, prevKv: true },
      GRPC_PREFIX_BYTES,
    ),
  );
  return opened;
}

function toWatchEvent(keys: KeySpace, event: EtcdEvent): WatchEvent | Error {
  const kv = fromEtcdKeyValue(keys, event.kv);
  const prevKv = event.prevKv === undefined ? undefined : fromEtcdKeyValue(keys, event.prevKv);
  if (event.type === 'put') {
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
