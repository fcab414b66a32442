import { expired, StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeList, KubeObject } from '../api/types.js';
import type { Backend, KeyValue } from '../storage/backend.js';
import { CompactedError } from '../storage/errors.js';
import { decodeContinue, encodeContinue } from './continue-token.js';
import { collectionPrefix } from './keys.js';
import { parseResourceVersion, tooLargeResourceVersion } from './resource-version.js';
import type { Selection } from './selection.js';

/** Paged, selector-aware list of one resource's collection (the list half of registry/store.go). */

export interface StoreListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

/** What a list reads through: the resource's store (structurally; the store delegates its `list` here). */
export interface ListSource {
  readonly info: ResourceInfo;
  readonly backend: Backend;
  readonly apiVersion: string;
  selection(labelSelector: string | undefined, fieldSelector: string | undefined): Selection;
  decode(kv: KeyValue): KubeObject;
  /** The page's items as the list serves them (a conversion webhook converts them in one review, R11.89). */
  servedItems(items: KubeObject[], path: 'read', listKind: string): Promise<KubeObject[]>;
}

/**
 * A list's limit may be any int64; past what a collection can hold it only means "all", and the backends take
 * page sizes as integers they can bind (SQLite refused 2^63-1 as a float with a 500).
 */
const MAX_LIST_LIMIT = 2 ** 31 - 1;

export async function listObjects(store: ListSource, namespace: string | undefined, opts: StoreListOptions): Promise<KubeList> {
  const prefix = collectionPrefix(store.info, namespace);
  const selection = store.selection(opts.labelSelector, opts.fieldSelector);
  const limit = opts.limit !== undefined && opts.limit > 0 ? Math.min(opts.limit, MAX_LIST_LIMIT) : 0;
  let revision: number | undefined;
  let startKey: string | undefined;
  if (opts.continue !== undefined && opts.continue !== '') {
    if (opts.resourceVersion !== undefined && opts.resourceVersion !== '' && opts.resourceVersion !== '0') {
      throw new StatusError(400, 'BadRequest', 'specifying resource version is not allowed when using continue');
    }
    const token = decodeContinue(opts.continue);
    revision = token.revision;
    startKey = prefix + token.start;
  } else {
    revision = await listRevision(store, opts, limit);
  }
  const items: KubeObject[] = [];
  let more = false;
  let remaining = 0;
  let lastKey = '';
  let readRevision = revision;
  try {
    for (;;) {
      // With a selector most keys may not match, so read ahead in larger pages (as the etcd3 store does).
      const pageSize = limit === 0 ? 0 : Math.max(limit - items.length, selection.everything ? 0 : 100);
      // remainingItemCount is reported only for lists without a selector, as the etcd3 store does.
      const page = await store.backend.list(prefix, {
        revision: readRevision,
        startKey,
        limit: pageSize,
        countRemaining: selection.everything,
      });
      readRevision = page.revision;
      remaining = page.remaining;
      for (const kv of page.kvs) {
        if (limit > 0 && items.length >= limit) {
          more = true;
          break;
        }
        lastKey = kv.key;
        const obj = store.decode(kv);
        if (selection.matches(obj)) items.push(obj);
      }
      if (more || !page.more) break;
      if (limit > 0 && items.length >= limit) {
        more = true;
        break;
      }
      startKey = `${lastKey}\u0000`;
    }
  } catch (err) {
    if (err instanceof CompactedError && opts.continue) {
      throw expired(
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
      );
    }
    if (err instanceof CompactedError) throw expired(`The resourceVersion for the provided list is too old.`);
    throw err;
  }
  const served = await store.servedItems(items, 'read', store.info.listKind);
  const list: KubeList = {
    apiVersion: store.apiVersion,
    kind: store.info.listKind,
    metadata: { resourceVersion: String(readRevision) },
    items: store.info.custom === true ? served : served.map(stripTypeMeta),
  };
  if (more) {
    list.metadata.continue = encodeContinue(readRevision ?? 0, `${lastKey.slice(prefix.length)}\u0000`);
    if (selection.everything && remaining > 0) list.metadata.remainingItemCount = remaining;
  }
  return list;
}

/**
 * The revision a fresh list reads at, from resourceVersion/resourceVersionMatch (already validated as
 * ValidateListOptions does). Reads kube-apiserver sends to etcd rather than its watch cache (a limit, or Exact)
 * word a malformed resourceVersion as the etcd store does.
 */
async function listRevision(store: ListSource, opts: StoreListOptions, limit: number): Promise<number | undefined> {
  const rv = opts.resourceVersion;
  const match = opts.resourceVersionMatch;
  const exact = match === 'Exact' || ((match === undefined || match === '') && limit > 0);
  const requested = parseResourceVersion(rv, match === 'Exact' || limit > 0);
  if (requested === 0n) return undefined;
  const current = await checkNotFuture(store.backend, requested);
  if (!exact) return undefined;
  const compacted = await store.backend.compactedRevision();
  if (requested < BigInt(compacted)) throw expired(`The resourceVersion for the provided list is too old.`);
  // At most the current revision, so a safe integer.
  return Math.min(Number(requested), current);
}

/** A requested resourceVersion may not lie in the future ("Too large resource version"); returns the current revision. */
export async function checkNotFuture(backend: Backend, requested: bigint): Promise<number> {
  const current = await backend.currentRevision();
  if (requested > BigInt(current)) throw tooLargeResourceVersion(requested, current);
  return current;
}

/** Typed lists carry kind/apiVersion on the list, not on each item. */
function stripTypeMeta(obj: KubeObject): KubeObject {
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return rest as KubeObject;
}
