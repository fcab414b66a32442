import { type FieldError, fieldError, invalid } from '../../api/errors.js';
import type { StoreListOptions } from '../../registry/list.js';
import type { Query } from '../query.js';

/** metav1.ListOptions as kube-apiserver decodes it from the query of a list, watch or deletecollection. */
export interface ListQuery extends StoreListOptions {
  readonly watch: boolean;
  readonly allowWatchBookmarks: boolean;
  readonly timeoutSeconds: number | undefined;
  readonly sendInitialEvents: boolean | undefined;
}

/**
 * Decodes the fields in the order of their conversion (so the first malformed number is the one reported), then
 * validates them as ValidateListOptions does; `watch` is given by the caller, which routed on it already.
 */
export function decodeListOptions(q: Query, watch: boolean): ListQuery {
  const opts: ListQuery = {
    labelSelector: q.string('labelSelector'),
    fieldSelector: q.string('fieldSelector'),
    watch,
    allowWatchBookmarks: q.bool('allowWatchBookmarks'),
    resourceVersion: q.string('resourceVersion'),
    resourceVersionMatch: q.string('resourceVersionMatch'),
    timeoutSeconds: q.int('timeoutSeconds'),
    limit: q.int('limit'),
    continue: q.string('continue'),
    sendInitialEvents: q.optionalBool('sendInitialEvents'),
  };
  const errs = watch ? validateWatchOptions(opts) : validateListOptions(opts);
  if (errs.length > 0) throw invalid('ListOptions.meta.k8s.io', 'meta.k8s.io', 'ListOptions', '', errs);
  return opts;
}

const NOT_OLDER_THAN = 'NotOlderThan';

/** ValidateListOptions for a list (and a deletecollection's list). */
export function validateListOptions(opts: ListQuery): FieldError[] {
  const errs: FieldError[] = [];
  const match = opts.resourceVersionMatch ?? '';
  if (match !== '') {
    if ((opts.resourceVersion ?? '') === '') {
      errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    }
    if ((opts.continue ?? '') !== '') {
      errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    }
    if (match !== 'Exact' && match !== NOT_OLDER_THAN) {
      errs.push(fieldError.notSupported('resourceVersionMatch', match, ['Exact', NOT_OLDER_THAN, '']));
    }
    if (match === 'Exact' && opts.resourceVersion === '0') {
      errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (opts.sendInitialEvents !== undefined) errs.push(fieldError.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errs;
}

/** The watch half of ValidateListOptions, with the WatchList feature on (its 1.32 default). */
export function validateWatchOptions(opts: ListQuery): FieldError[] {
  const errs: FieldError[] = [];
  const match = opts.resourceVersionMatch ?? '';
  if (opts.sendInitialEvents !== undefined && match !== NOT_OLDER_THAN) {
    errs.push(fieldError.forbidden('resourceVersionMatch', `sendInitialEvents requires setting resourceVersionMatch to ${NOT_OLDER_THAN}`));
  }
  if (match !== '') {
    if (opts.sendInitialEvents === undefined) {
      errs.push(
        fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'),
      );
    }
    if (match !== NOT_OLDER_THAN) errs.push(fieldError.notSupported('resourceVersionMatch', match, [NOT_OLDER_THAN]));
    if ((opts.continue ?? '') !== '') {
      errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    }
  }
  return errs;
}
