import { StatusError } from '../api/errors.js';
import type { KubeList, KubeObject, Status } from '../api/types.js';
import type { ApiClient, ResourceRef, WatchStream } from '../client/interface.js';
import type { ObjectEvent } from '../api/types.js';
import { type Clock, realClock } from '../workqueue/clock.js';
import { objectKey } from './object-key.js';
import type { Store } from './store.js';
import { maybeYield } from '../util/yield-to-event-loop.js';

/** Told about every change the reflector applies to the store, after applying it. */
export interface ReflectorHandler {
  onAdd(obj: KubeObject): void;
  onUpdate(oldObj: KubeObject, newObj: KubeObject): void;
  /** The object's last known state: the DELETED event's object, or the cached one when a relist found it gone. */
  onDelete(obj: KubeObject): void;
}

export interface BackoffOptions {
  /** Default 1 s. */
  readonly initialMs?: number;
  /** Default 30 s. */
  readonly maxMs?: number;
}

export interface ReflectorOptions {
  readonly client: ApiClient;
  readonly ref: ResourceRef;
  /** Undefined watches all namespaces (or a cluster-scoped resource). */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly store: Store;
  readonly handler: ReflectorHandler;
  /** List page size; default 500 (client-go's pager). */
  readonly pageSize?: number;
  readonly clock?: Clock;
  readonly backoff?: BackoffOptions;
  /** Failures the reflector recovers from by retrying (default: logged to stderr). */
  readonly onError?: (err: unknown) => void;
  /**
   * Applied to every listed or watched object before the store and the handler see it (client-go's
   * SetTransform), so a cache keeps only what its readers use. It must keep metadata.namespace, name and
   * resourceVersion, and must not modify its argument: the object may be shared with other watchers.
   */
  readonly transform?: (obj: KubeObject) => KubeObject;
}

/**
 * Keeps a Store equal to one collection on the server (client-go's Reflector, client-node's ListWatch):
 * - lists in pages, replaces the store, then watches from the list's resourceVersion with bookmarks;
 * - when a watch ends it watches again from the last resourceVersion seen (event or bookmark);
 * - when the server answers 410 (an ERROR event or a StatusError on list/watch) that resourceVersion is gone: it
 *   relists at once and reconciles the store, reporting deletes for objects that vanished in the gap and
 *   adds/updates for the rest (unchanged resourceVersions are not reported);
 * - on any other failure, or a watch that ends within a second without events, it waits (1 s doubling to 30 s,
 *   reset by the next event) and retries; a second 410 in a row waits too, so a server stuck on 410 is not hammered.
 */
export interface Reflector {
  start(): void;
  /** Ends the current watch or wait; resolves once the reflector has fully stopped. It cannot be restarted. */
  stop(): Promise<void>;
  /** True once the first list has been applied to the store. */
  hasSynced(): boolean;
  /** Resolves true when synced, or false if stopped first. */
  whenSynced(): Promise<boolean>;
  /** The resourceVersion of the newest list, event or bookmark applied. */
  readonly lastSyncResourceVersion: string;
}

const SHORT_WATCH_MS = 1000;

type WatchOutcome = { readonly kind: 'ended'; readonly events: number; readonly durationMs: number } | { readonly kind: 'expired' };

export function createReflector(options: ReflectorOptions): Reflector {
  const { client, ref, namespace, store, handler } = options;
  const clock = options.clock ?? realClock;
  const initialBackoffMs = options.backoff?.initialMs ?? 1000;
  const maxBackoffMs = options.backoff?.maxMs ?? 30_000;
  const pageSize = options.pageSize ?? 500;
  const what = ref.group === '' ? ref.resource : `${ref.resource}.${ref.group}`;
  const onError = options.onError ?? ((err: unknown) => console.error(`reflector for ${what}:`, err));
  const transform = options.transform;

  let state: 'new' | 'running' | 'stopped' = 'new';
  let lastResourceVersion = '';
  let synced = false;
  let settleSynced: (synced: boolean) => void = () => {};
  const syncedPromise = new Promise<boolean>((resolve) => {
    settleSynced = resolve;
  });
  let consecutiveFailures = 0;
  let currentWatch: WatchStream | undefined;
  let interruptSleep: (() => void) | undefined;
  let loop: Promise<void> | undefined;

  const running = (): boolean => state === 'running';

  const sleep = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const finish = (): void => {
        cancel();
        interruptSleep = undefined;
        resolve();
      };
      const cancel = clock.setTimeout(finish, ms);
      interruptSleep = finish;
    });

  const backoffMs = (): number => Math.min(maxBackoffMs, initialBackoffMs * 2 ** Math.max(0, consecutiveFailures - 1));

  async function listAll(): Promise<KubeList | undefined> {
    const items: KubeObject[] = [];
    let page: KubeList;
    let cont: string | undefined;
    do {
      page = await client.list(ref, namespace, {
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        limit: pageSize,
        continue: cont,
      });
      if (!running()) return undefined;
      // Typed lists leave apiVersion/kind off their items; fill them in as the dynamic client does. Transformed
      // page by page, so a relist of a large collection never holds every full object at once.
      const itemKind = page.kind.endsWith('List') ? page.kind.slice(0, -'List'.length) : undefined;
      // A loop, not push(...items): a server that ignores `limit` could send more items than fit in an argument list.
      for (const item of page.items) {
        const typed = item.kind !== undefined || itemKind === undefined ? item : { apiVersion: page.apiVersion, kind: itemKind, ...item };
        items.push(transform === undefined ? typed : transform(typed));
      }
      cont = page.metadata.continue === undefined || page.metadata.continue === '' ? undefined : page.metadata.continue;
    } while (cont !== undefined);
    return { ...page, items };
  }

  async function listAndReplace(): Promise<void> {
    const list = await listAll();
    if (list === undefined) return;
    const items = list.items;
    const listed = new Set(items.map(objectKey));
    const gone: KubeObject[] = [];
    for (const key of store.listKeys()) {
      if (listed.has(key)) continue;
      const removed = store.deleteByKey(key);
      if (removed !== undefined) gone.push(removed);
    }
    const changes: Array<[KubeObject | undefined, KubeObject]> = [];
    for (const obj of items) {
      const previous = store.getByKey(objectKey(obj));
      if (
        previous !== undefined &&
        previous.metadata.resourceVersion !== undefined &&
        previous.metadata.resourceVersion === obj.metadata.resourceVersion
      )
        continue;
      store.upsert(obj);
      changes.push([previous, obj]);
    }
    lastResourceVersion = list.metadata.resourceVersion ?? '';
    if (!synced) {
      synced = true;
      settleSynced(true);
    }
    for (const obj of gone) handler.onDelete(obj);
    for (const [previous, obj] of changes) {
      if (previous === undefined) handler.onAdd(obj);
      else handler.onUpdate(previous, obj);
    }
  }

  function apply(event: ObjectEvent): void {
    const obj = transform === undefined ? (event.object as KubeObject) : transform(event.object as KubeObject);
    const rv = obj.metadata?.resourceVersion;
    if (rv !== undefined && rv !== '') lastResourceVersion = rv;
    consecutiveFailures = 0;
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED': {
        const previous = store.upsert(obj);
        if (previous === undefined) handler.onAdd(obj);
        else handler.onUpdate(previous, obj);
        return;
      }
      case 'DELETED':
        store.deleteByKey(objectKey(obj));
        handler.onDelete(obj);
        return;
      default:
        return;
    }
  }

  async function watchOnce(): Promise<WatchOutcome> {
    const started = clock.now();
    const watch = await client.watch(ref, namespace, {
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
      resourceVersion: lastResourceVersion,
      allowWatchBookmarks: true,
    });
    let events = 0;
    currentWatch = watch;
    try {
      if (!running()) return { kind: 'ended', events, durationMs: 0 };
      const iterator = watch[Symbol.asyncIterator]();
      while (running()) {
        // A backlog (events that arrived while this informer's turn waited) is taken without a promise per event.
        let event = watch.poll?.();
        if (event === undefined) {
          const next = await iterator.next();
          if (next.done === true || !running()) break;
          event = next.value;
        }
        if (event.type === 'ERROR') {
          const status = event.object as Status;
          if (status.code === 410) return { kind: 'expired' };
          throw new StatusError(status.code ?? 500, status.reason ?? 'InternalError', status.message ?? 'watch error event');
        }
        events++;
        apply(event);
        const turn = maybeYield();
        if (turn !== undefined) await turn;
      }
    } finally {
      currentWatch = undefined;
      watch.stop();
    }
    return { kind: 'ended', events, durationMs: clock.now() - started };
  }

  async function run(): Promise<void> {
    let needList = true;
    while (running()) {
      let failure: unknown;
      let expired = false;
      try {
        if (needList) {
          await listAndReplace();
          if (!running()) return;
          needList = false;
        }
        const outcome = await watchOnce();
        if (outcome.kind === 'expired') expired = true;
        else if (outcome.events === 0 && outcome.durationMs < SHORT_WATCH_MS) {
          failure = new Error(`very short watch of ${what}: ended after ${Math.round(outcome.durationMs)} ms without events`);
        }
      } catch (err) {
        if (err instanceof StatusError && err.code === 410) expired = true;
        else failure = err;
      }
      if (!running()) return;
      if (expired) {
        needList = true;
        consecutiveFailures++;
        if (consecutiveFailures === 1) continue;
      } else if (failure !== undefined) {
        consecutiveFailures++;
        onError(failure);
      } else {
        continue;
      }
      await sleep(backoffMs());
    }
  }

  return {
    start() {
      if (state === 'stopped') throw new Error(`reflector for ${what} was stopped and cannot be restarted`);
      if (state === 'running') return;
      state = 'running';
      loop = run().catch(onError);
    },
    async stop() {
      state = 'stopped';
      currentWatch?.stop();
      interruptSleep?.();
      settleSynced(false);
      await loop;
    },
    hasSynced: () => synced,
    whenSynced: () => syncedPromise,
    get lastSyncResourceVersion() {
      return lastResourceVersion;
    },
  };
}
