import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { ApiClient, ResourceRef } from '../client/interface.js';
import type { Clock } from '../workqueue/clock.js';
import { type BackoffOptions, createReflector, type Reflector } from './reflector.js';
import { createStore, type Indexers, readOnlyView, type StoreReader } from './store.js';

/**
 * Callbacks for changes to an informer's cache. They run synchronously, after the cache was updated, so they must
 * be quick: hand real work to a work queue. Every handler sees every change, in the order the changes happened.
 */
export interface ResourceEventHandler {
  onAdd?(obj: KubeObject): void;
  onUpdate?(oldObj: KubeObject, newObj: KubeObject): void;
  /** Carries the object's last known state. */
  onDelete?(obj: KubeObject): void;
}

export interface HandlerRegistration {
  remove(): void;
}

export interface SharedInformerOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly pageSize?: number;
  readonly clock?: Clock;
  readonly backoff?: BackoffOptions;
  /**
   * Indices of the cache. None by default, not even client-go's namespace index (NAMESPACE_INDEX with
   * namespaceIndexFunc): every add and delete files and unfiles each object in every index, and the collector's
   * informers see every object of every resource.
   */
  readonly indexers?: Indexers;
  /** Errors the informer survives: list/watch failures it retries, and exceptions thrown by handlers. */
  readonly onError?: (err: unknown) => void;
  /**
   * What the cache keeps of each object (client-go's SetTransform; `metadataOnly` for readers of metadata alone):
   * applied before the store and the handlers see it.
   */
  readonly transform?: (obj: KubeObject) => KubeObject;
}

/**
 * One cache of one collection shared by any number of handlers (client-go's SharedIndexInformer). Eventually
 * consistent with the server; keys are "namespace/name" (or "name"). A handler added after the cache has content
 * is first told about every cached object through onAdd.
 */
export interface SharedInformer {
  readonly ref: ResourceRef;
  readonly namespace: string | undefined;
  readonly store: StoreReader;
  readonly lastSyncResourceVersion: string;
  addEventHandler(handler: ResourceEventHandler): HandlerRegistration;
  addIndexers(indexers: Indexers): void;
  start(): void;
  /** Resolves once the informer has stopped; it cannot be restarted. */
  stop(): Promise<void>;
  hasSynced(): boolean;
  /** Resolves true once synced, false if stopped first. */
  whenSynced(): Promise<boolean>;
}

export function createSharedInformer(
  client: ApiClient,
  ref: ResourceRef,
  namespace: string | undefined,
  options: SharedInformerOptions = {},
): SharedInformer {
  const what = ref.group === '' ? ref.resource : `${ref.resource}.${ref.group}`;
  // A Status (a list the server refused) is the whole story; anything else is a bug whose stack helps.
  const onError =
    options.onError ??
    ((err: unknown) => console.error(`informer for ${what}:`, err instanceof StatusError ? `${err.reason}: ${err.message}` : err));
  const store = createStore(options.indexers);
  let handlers: ResourceEventHandler[] = [];

  const call = (fn: () => void): void => {
    try {
      fn();
    } catch (err) {
      onError(err);
    }
  };
  // Handlers added or removed by a handler take effect from the next change on. No closure per handler and
  // change: every event of every informer passes here.
  const notify = (kind: 'onAdd' | 'onDelete' | 'onUpdate', obj: KubeObject, old?: KubeObject): void => {
    for (const h of handlers) {
      try {
        if (kind === 'onUpdate') h.onUpdate?.(old as KubeObject, obj);
        else h[kind]?.(obj);
      } catch (err) {
        onError(err);
      }
    }
  };

  const reflector: Reflector = createReflector({
    client,
    ref,
    namespace,
    labelSelector: options.labelSelector,
    fieldSelector: options.fieldSelector,
    store,
    pageSize: options.pageSize,
    clock: options.clock,
    backoff: options.backoff,
    onError,
    transform: options.transform,
    handler: {
      onAdd: (obj) => notify('onAdd', obj),
      onUpdate: (oldObj, newObj) => notify('onUpdate', newObj, oldObj),
      onDelete: (obj) => notify('onDelete', obj),
    },
  });

  return {
    ref,
    namespace,
    store: readOnlyView(store),
    get lastSyncResourceVersion() {
      return reflector.lastSyncResourceVersion;
    },
    addEventHandler(handler) {
      handlers = [...handlers, handler];
      for (const obj of store.list()) call(() => handler.onAdd?.(obj));
      return {
        remove() {
          handlers = handlers.filter((h) => h !== handler);
        },
      };
    },
    addIndexers: (indexers) => store.addIndexers(indexers),
    start: () => reflector.start(),
    stop: () => reflector.stop(),
    hasSynced: () => reflector.hasSynced(),
    whenSynced: () => reflector.whenSynced(),
  };
}
