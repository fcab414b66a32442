import type { ApplyOptions, ListOptions, PatchType, WatchOptions } from './interface.js';

/** The Content-Type each patch type is sent with. */
export const PATCH_CONTENT_TYPES: Readonly<Record<PatchType, string>> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

export const APPLY_CONTENT_TYPE = 'application/apply-patch+yaml';

/** An apply's query: the manager, force and dryRun. */
export function applyQuery(opts: ApplyOptions): URLSearchParams {
  const query = new URLSearchParams({ fieldManager: opts.fieldManager });
  if (opts.force === true) query.set('force', 'true');
  if (opts.dryRun === true) query.set('dryRun', 'All');
  return query;
}

/** Selector and resourceVersion parameters shared by list and watch requests. */
export function selectorQuery(opts: ListOptions | WatchOptions): URLSearchParams {
  const query = new URLSearchParams();
  if (opts.labelSelector !== undefined) query.set('labelSelector', opts.labelSelector);
  if (opts.fieldSelector !== undefined) query.set('fieldSelector', opts.fieldSelector);
  if (opts.resourceVersion !== undefined) query.set('resourceVersion', opts.resourceVersion);
  return query;
}

/** A list request's parameters: the selectors plus paging. */
export function listQuery(opts: ListOptions): URLSearchParams {
  const query = selectorQuery(opts);
  if (opts.limit !== undefined) query.set('limit', String(opts.limit));
  if (opts.continue !== undefined) query.set('continue', opts.continue);
  return query;
}
