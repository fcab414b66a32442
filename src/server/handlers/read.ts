import type { ResourceRequest } from '../api-context.js';
import { send } from '../respond.js';
import { listOptions } from './list-options.js';
import { renderList, renderObject } from './transform.js';

export async function handleGet(r: ResourceRequest, name: string): Promise<void> {
  const obj = await r.store.get(r.namespace, name);
  send(r.res, r.format, 200, renderObject(r, obj));
}

export async function handleList(r: ResourceRequest): Promise<void> {
  const list = await r.store.list(r.namespace, listOptions(r));
  send(r.res, r.format, 200, renderList(r, list));
}
