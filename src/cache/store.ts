import type { KubeObject } from '../api/types.js';
import { objectKey, objectKeyOf } from './object-key.js';

/** The values an object is filed under in one index (client-go's IndexFunc); an object may be filed under several. */
export type IndexFunc = (obj: KubeObject) => readonly string[];
export type Indexers = Readonly<Record<string, IndexFunc>>;

export const NAMESPACE_INDEX = 'namespace';

/** Files objects by namespace (client-go's MetaNamespaceIndexFunc); cluster-scoped objects under "". */
export const namespaceIndexFunc: IndexFunc = (obj) => [obj.metadata.namespace ?? ''];

/**
 * What controllers may read from an informer's cache (client-go's Indexer, reading half). Objects are the cache's
 * own: treat them as immutable.
 */
export interface StoreReader {
  get(namespace: string | undefined, name: string): KubeObject | undefined;
  getByKey(key: string): KubeObject | undefined;
  list(): KubeObject[];
  listKeys(): string[];
  readonly size: number;
  /** Objects filed under `value` in index `indexName`; throws if there is no such index. */
  byIndex(indexName: string, value: string): KubeObject[];
  indexKeys(indexName: string, value: string): string[];
  /** The values objects are currently filed under in `indexName`. */
  listIndexFuncValues(indexName: string): string[];
}

/**
 * A keyed object cache with named indices. Keys are objectKey(obj). Mutators return the previous state so the caller
 * (the reflector) can tell adds from updates and report what was deleted.
 */
export interface Store extends StoreReader {
  /** Adds indices; existing objects are filed at once. A name already in use throws. */
  addIndexers(indexers: Indexers): void;
  /** Inserts or replaces; returns the object it replaced. */
  upsert(obj: KubeObject): KubeObject | undefined;
  /** Removes by key; returns the removed object. */
  deleteByKey(key: string): KubeObject | undefined;
}

export function createStore(indexers: Indexers = {}): Store {
  const items = new Map<string, KubeObject>();
  const indexFuncs = new Map<string, IndexFunc>();
  // index name → indexed value → keys
  const indices = new Map<string, Map<string, Set<string>>>();

  const indexOf = (name: string): Map<string, Set<string>> => {
    const index = indices.get(name);
    if (index === undefined) throw new Error(`index "${name}" does not exist`);
    return index;
  };
  const file = (key: string, obj: KubeObject, name: string, fn: IndexFunc): void => {
    const index = indexOf(name);
    for (const value of new Set(fn(obj))) {
      const keys = index.get(value);
      if (keys === undefined) index.set(value, new Set([key]));
      else keys.add(key);
    }
  };
  const unfile = (key: string, obj: KubeObject): void => {
    for (const [name, fn] of indexFuncs) {
      const index = indexOf(name);
      for (const value of fn(obj)) {
        const keys = index.get(value);
        if (keys === undefined) continue;
        keys.delete(key);
        if (keys.size === 0) index.delete(value);
      }
    }
  };
  const indexKeys = (indexName: string, value: string): string[] => [...(indexOf(indexName).get(value) ?? [])];

  const store: Store = {
    get: (namespace, name) => items.get(objectKeyOf(namespace, name)),
    getByKey: (key) => items.get(key),
    list: () => [...items.values()],
    listKeys: () => [...items.keys()],
    get size() {
      return items.size;
    },
    byIndex: (indexName, value) => indexKeys(indexName, value).map((key) => items.get(key) as KubeObject),
    indexKeys,
    listIndexFuncValues: (indexName) => [...indexOf(indexName).keys()],
    addIndexers(added) {
      for (const name of Object.keys(added)) {
        if (indexFuncs.has(name)) throw new Error(`index "${name}" already exists`);
      }
      for (const [name, fn] of Object.entries(added)) {
        indexFuncs.set(name, fn);
        indices.set(name, new Map());
        for (const [key, obj] of items) file(key, obj, name, fn);
      }
    },
    upsert(obj) {
      const key = objectKey(obj);
      const previous = items.get(key);
      if (previous !== undefined) unfile(key, previous);
      items.set(key, obj);
      for (const [name, fn] of indexFuncs) file(key, obj, name, fn);
      return previous;
    },
    deleteByKey(key) {
      const previous = items.get(key);
      if (previous === undefined) return undefined;
      unfile(key, previous);
      items.delete(key);
      return previous;
    },
  };
  store.addIndexers(indexers);
  return store;
}

/** The reading half of a store, without a way back to the mutators. */
export function readOnlyView(store: StoreReader): StoreReader {
  return {
    get: (namespace, name) => store.get(namespace, name),
    getByKey: (key) => store.getByKey(key),
    list: () => store.list(),
    listKeys: () => store.listKeys(),
    get size() {
      return store.size;
    },
    byIndex: (indexName, value) => store.byIndex(indexName, value),
    indexKeys: (indexName, value) => store.indexKeys(indexName, value),
    listIndexFuncValues: (indexName) => store.listIndexFuncValues(indexName),
  };
}
