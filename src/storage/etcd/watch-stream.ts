import type { WatchEvent } from '../backend.js';
import { CompactedError } from '../errors.js';
import { EventQueue } from './event-queue.js';
import { GRPC_PREFIX_BYTES, GRPC_UNAVAILABLE, type GrpcChannel, GrpcStatusError, type GrpcStream } from './grpc-channel.js';
import type { KeySpace } from './key-space.js';
import { fromEtcdKeyValue } from './key-values.js';
import { decodeWatchResponse, type EtcdEvent, encodeWatchCreateRequest } from './watch-messages.js';

export interface WatchStreamOptions {
  readonly channel: GrpcChannel;
  readonly keys: KeySpace;
  readonly prefix: string;
  readonly afterRevision: number;
  /** How long a broken watch may take to be re-established (on another member, say) before it fails. */
  readonly resumeTimeoutMs: number;
  /** etcd refused the start revision as compacted and told us its compact revision. */
  readonly onCompacted: (compactRevision: number) => void;
  readonly onStop: (queue: EventQueue) => void;
}

export interface OpenedWatch {
  readonly queue: EventQueue;
  /** etcd's revision when it registered the watch. */
  readonly createdAtRevision: number;
}

/** Pauses between attempts to re-establish a broken watch: at once, then growing. */
const RESUME_BACKOFF_MS = [0, 50, 100, 200, 400, 800, 1000];

/** A watch failure that re-watching cannot fix. */
class TerminalWatchError extends Error {}

/**
 * Opens one etcd watch stream of its own, holding one watch, rather than multiplexing watches on one stream as
 * etcd client libraries do (and then swallow the compact revision, or resume from the header revision after a
 * reconnect, possibly skipping events still being replayed). When the stream breaks (its member died, froze, or
 * lost its leader), a new one is opened, on the channel's next connection, from the revision after the last
 * event delivered: every revision's events come in one response, so nothing is missed or repeated. A watch that
 * cannot be re-established within resumeTimeoutMs, or whose history was compacted meanwhile, fails, and the
 * caller watches again from the last revision it saw, as Kubernetes clients do.
 */
export async function openWatchStream(options: WatchStreamOptions): Promise<OpenedWatch> {
  const { keys, afterRevision } = options;
  const range = keys.range(options.prefix);
  let stopped = false;
  let created = false;
  /** The revision of the last event delivered: a new stream starts after it. */
  let lastRevision = afterRevision;
  let brokenSince: number | undefined;
  let resumes = 0;
  let resumeTimer: NodeJS.Timeout | undefined;
  let stream: GrpcStream | undefined;
  let settle: { resolve: (opened: OpenedWatch) => void; reject: (error: Error) => void } | undefined;
  const opened = new Promise<OpenedWatch>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const queue = new EventQueue(() => {
    stopped = true;
    clearTimeout(resumeTimer);
    stream?.cancel();
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
  const broken = (error: Error): void => {
    if (stopped) return;
    const now = Date.now();
    brokenSince ??= now;
    if (error instanceof TerminalWatchError || now - brokenSince >= options.resumeTimeoutMs) {
      failed(new Error(`etcd watch of ${options.prefix} ended: ${error.message}`));
      return;
    }
    const delay = RESUME_BACKOFF_MS[Math.min(resumes, RESUME_BACKOFF_MS.length - 1)] as number;
    resumes++;
    resumeTimer = setTimeout(() => {
      if (!stopped) stream = open();
    }, delay);
  };

  const open = (): GrpcStream | undefined => {
    let current: GrpcStream | undefined;
    let ended = false;
    const end = (error: Error): void => {
      if (ended) return;
      ended = true;
      current?.cancel();
      broken(error);
    };
    try {
      current = options.channel.stream('/etcdserverpb.Watch/Watch', {
        message(message) {
          if (stopped || ended) return;
          const response = decodeWatchResponse(message);
          if (response.compactRevision > 0) {
            options.onCompacted(response.compactRevision);
            ended = true;
            failed(new CompactedError(lastRevision, response.compactRevision));
            return;
          }
          if (response.canceled) {
            end(new TerminalWatchError(`etcd canceled the watch: ${response.cancelReason || 'no reason given'}`));
            return;
          }
          if (response.created) {
            brokenSince = undefined;
            resumes = 0;
            if (!created) {
              created = true;
              settle?.resolve({ queue, createdAtRevision: response.revision });
            }
          }
          for (const event of response.events) {
            const mapped = toWatchEvent(keys, event);
            if (mapped instanceof Error) {
              ended = true;
              failed(mapped);
              return;
            }
            queue.push(mapped);
            lastRevision = mapped.revision;
          }
        },
        close(error) {
          if (stopped || ended) return;
          ended = true;
          const why = error ?? new Error('stream closed');
          // A gRPC refusal other than "unavailable" (permissions, a bad request) recurs on any member.
          broken(why instanceof GrpcStatusError && why.code !== GRPC_UNAVAILABLE ? new TerminalWatchError(why.message) : why);
        },
      });
      current.send(
        encodeWatchCreateRequest(
          { key: range.key, rangeEnd: range.range_end, startRevision: lastRevision + 1, prevKv: true },
          GRPC_PREFIX_BYTES,
        ),
      );
    } catch (error) {
      // The channel refuses new streams only once it is closed.
      end(new TerminalWatchError(error instanceof Error ? error.message : String(error)));
    }
    return current;
  };
  stream = open();
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
