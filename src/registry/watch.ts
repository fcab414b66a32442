import { StatusError } from '../api/errors.js';
import type { KubeObject, ObjectEvent, Status } from '../api/types.js';
import type { KeyValue, WatchEvent, Watcher } from '../storage/backend.js';
import { CompactedError } from '../storage/errors.js';
import { collectionPrefix } from './keys.js';
import { parseResourceVersion, tooLargeResourceVersion } from './resource-version.js';
import type { Selection } from './selection.js';
import type { ResourceStore } from './store.js';

export interface StoreWatchOptions {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  labelSelector?: string;
  fieldSelector?: string;
  sendInitialEvents?: boolean;
}

export interface ObjectWatch extends AsyncIterable<ObjectEvent> {
  stop(): void;
  /** The next event if it is ready without waiting (see Watcher.poll); never called while a `next()` is pending. */
  poll(): ObjectEvent | undefined;
  /** The revision of the newest event delivered (or the start revision): safe to put in a BOOKMARK. */
  readonly progressRevision: number;
}

const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/**
 * Watch of one collection with kube-apiserver's start semantics: no resourceVersion (or "0") first replays the
 * current state as ADDED events, unless sendInitialEvents=false asks to start from now; sendInitialEvents=true
 * replays it whatever the resourceVersion and ends it with an initial-events-end BOOKMARK; a given resourceVersion
 * otherwise streams every change after it, or one 410 ERROR event when that revision has been compacted. Objects
 * moving in or out of the selectors appear as ADDED/DELETED.
 */
export async function watchCollection(store: ResourceStore, namespace: string | undefined, opts: StoreWatchOptions): Promise<ObjectWatch> {
  const selection = store.selection(opts.labelSelector, opts.fieldSelector);
  const requested = parseResourceVersion(opts.resourceVersion);
  const initial: ObjectEvent[] = [];
  let startRevision: number;
  if (opts.sendInitialEvents === true || (opts.sendInitialEvents === undefined && requested === 0n)) {
    // The replayed state must be at least as new as the requested version, which storage cannot promise of a future one.
    if (opts.sendInitialEvents === true && requested > 0n) {
      const current = await store.backend.currentRevision();
      if (requested > BigInt(current)) throw tooLargeResourceVersion(requested, current);
    }
    const list = await store.list(namespace, { labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector });
    startRevision = Number(list.metadata.resourceVersion);
    for (const item of list.items)
      initial.push({ type: 'ADDED', object: { apiVersion: store.apiVersion, kind: store.info.kind, ...item } });
    if (opts.sendInitialEvents === true) initial.push(bookmark(store, startRevision, true));
  } else if (requested === 0n) {
    startRevision = await store.backend.currentRevision();
  } else {
    // A watch may start in the future: it waits for that revision's successors like any other.
    startRevision = Number(requested);
  }
  let watcher: Watcher | undefined;
  try {
    watcher = await store.backend.watch(collectionPrefix(store.info, namespace), startRevision);
  } catch (err) {
    if (!(err instanceof CompactedError)) throw err;
    initial.push({ type: 'ERROR', object: tooOld(startRevision, err.compactedRevision) });
  }
  return objectWatch(initial, watcher, selection, startRevision, store);
}

function bookmark(store: ResourceStore, revision: number, initialEventsEnd: boolean): ObjectEvent {
  const metadata: KubeObject['metadata'] = { resourceVersion: String(revision) };
  if (initialEventsEnd) metadata.annotations = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
  return { type: 'BOOKMARK', object: { apiVersion: store.apiVersion, kind: store.info.kind, metadata } };
}

function tooOld(requested: number, compacted: number): Status {
  return new StatusError(410, 'Expired', `too old resource version: ${requested} (${compacted})`).toStatus();
}

/** kube-apiserver's etcd watcher's words when etcd compacts past a running watch. */
function watchTooOld(): Status {
  return new StatusError(410, 'Expired', 'The resourceVersion for the provided watch is too old.').toStatus();
}

export function bookmarkEvent(store: ResourceStore, revision: number): ObjectEvent {
  return bookmark(store, revision, false);
}

/** Whether a storage key (".../<namespace>/<name>" or ".../<name>") is of an object named `name`. */
function keyNames(key: string, name: string): boolean {
  return key.length > name.length && key.endsWith(name) && key.charCodeAt(key.length - name.length - 1) === 0x2f;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

function objectWatch(
  initial: ObjectEvent[],
  watcher: Watcher | undefined,
  selection: Selection,
  startRevision: number,
  store: ResourceStore,
): ObjectWatch {
  const decode = (kv: KeyValue): KubeObject => store.decode(kv);
  let progress = startRevision;
  let stopped = false;
  let replayed = 0;
  const source = watcher?.[Symbol.asyncIterator]();
  const requiredName = selection.requiredName;
  // An event whose value cannot be decoded ends the watch with the error, as kube-apiserver's watcher sends it.
  const convert = (e: WatchEvent): ObjectEvent | undefined => {
    try {
      return convertEvent(e);
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      stopped = true;
      watcher?.stop();
      return { type: 'ERROR', object: err.toStatus() };
    }
  };
  const convertEvent = (e: WatchEvent): ObjectEvent | undefined => {
    // A watch of one name (the root CA publisher's of kube-root-ca.crt) skips every other object's events by key,
    // rather than decoding both versions of each to find out: a 100,000-object cascade is 200,000 decodes.
    if (requiredName !== undefined && !keyNames(e.kv.key, requiredName)) return undefined;
    if (selection.everything) {
      // Every object matches, so the previous value decides nothing and is not decoded.
      if (e.type === 'delete') return e.prevKv === undefined ? undefined : { type: 'DELETED', object: store.deletedObject(e.prevKv, e.kv) };
      return { type: e.prevKv === undefined ? 'ADDED' : 'MODIFIED', object: store.writtenObject(e.kv) };
    }
    const current = e.type === 'put' ? store.writtenObject(e.kv) : decode(e.kv);
    const previous = e.prevKv === undefined ? undefined : decode(e.prevKv);
    const was = previous !== undefined && selection.matches(previous);
    if (e.type === 'delete') return was ? { type: 'DELETED', object: current } : undefined;
    const is = selection.matches(current);
    if (is) return { type: was ? 'MODIFIED' : 'ADDED', object: current };
    if (was && previous !== undefined) {
      previous.metadata.resourceVersion = String(e.revision);
      return { type: 'DELETED', object: previous };
    }
    return undefined;
  };
  const end = async (): Promise<IteratorResult<ObjectEvent, undefined>> => {
    stopped = true;
    await source?.return?.();
    return DONE;
  };
  // A plain iterator rather than an async generator: every live event passes through here, and a generator adds
  // several promise hops per event.
  const iterator: AsyncIterator<ObjectEvent, undefined> = {
    async next() {
      if (!stopped && replayed < initial.length) return { done: false, value: initial[replayed++] as ObjectEvent };
      while (!stopped && source !== undefined) {
        let next: IteratorResult<WatchEvent>;
        try {
          next = await source.next();
        } catch (err) {
          // Storage compacted past a running watch: end it with the 410 that makes clients relist.
          if (!(err instanceof CompactedError) || stopped) throw err;
          stopped = true;
          return { done: false, value: { type: 'ERROR', object: watchTooOld() } };
        }
        if (next.done === true || stopped) break;
        progress = next.value.revision;
        const out = convert(next.value);
        if (out === undefined) continue;
        if (!store.convertsAsynchronously) return { done: false, value: out };
        try {
          return {
            done: false,
            value: { type: out.type, object: await store.readConverted(out.object as KubeObject, 'read') } as ObjectEvent,
          };
        } catch {
          // R11.98: a conversion failure ends the watch without an ERROR event.
          return end();
        }
      }
      return end();
    },
    return: end,
  };
  return {
    [Symbol.asyncIterator]: () => iterator,
    poll() {
      if (!stopped && replayed < initial.length) return initial[replayed++] as ObjectEvent;
      // A conversion webhook is never ready without waiting: next() converts.
      if (store.convertsAsynchronously) return undefined;
      for (;;) {
        const event = stopped ? undefined : watcher?.poll?.();
        if (event === undefined) return undefined;
        progress = event.revision;
        const out = convert(event);
        if (out !== undefined) return out;
      }
    },
    stop() {
      stopped = true;
      watcher?.stop();
    },
    get progressRevision() {
      return progress;
    },
  };
}
