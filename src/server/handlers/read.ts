import { badRequest } from '../../api/errors.js';
import type { ResourceRequest } from '../api-context.js';
import { send } from '../respond.js';
import { decodeListOptions } from './list-options.js';
import { renderList, renderObject } from './transform.js';

/** GetResource: `?export` is refused once set to anything but false, then the GetOptions (a resourceVersion). */
export function getResourceVersion(r: ResourceRequest): string | undefined {
  if (r.query.bool('export')) {
    throw badRequest('the export parameter, deprecated since v1.14, is no longer supported');
  }
  return r.query.string('resourceVersion');
}

export async function handleGet(r: ResourceRequest, name: string): Promise<void> {
  const obj = await r.store.get(r.namespace, name, getResourceVersion(r));
  const refusal = r.ctx.objectReadCheck?.(r.store.info, r.user)?.(obj);
  if (refusal !== undefined) throw refusal;
  send(r.res, r.format, 200, renderObject(r, obj));
}

export async function handleList(r: ResourceRequest): Promise<void> {
  const list = await r.store.list(r.namespace, decodeListOptions(r.query, false));
  const check = r.ctx.objectReadCheck?.(r.store.info, r.user);
  if (check !== undefined) list.items = list.items.filter((item) => check(item) === undefined);
  send(r.res, r.format, 200, renderList(r, list));
}
