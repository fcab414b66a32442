import { badRequest } from '../../api/errors.js';
import type { DeleteOptions } from '../../api/delete-options.js';
import { isObject } from '../../api/types.js';
import { evictPod } from '../../registry/pod-eviction.js';
import type { ResourceRequest } from '../api-context.js';
import { parseBody, readBody } from '../body.js';
import { send } from '../respond.js';

/** POST .../pods/{name}/eviction with a policy/v1 Eviction: evicts the pod (registry/pod-eviction.ts), 201 Success. */
export async function handlePodEviction(r: ResourceRequest, name: string): Promise<void> {
  const raw = await readBody(r.req);
  if (raw.length === 0) throw badRequest('the request body is empty');
  const body = await parseBody(raw, r.req.headers['content-type'], 'Eviction');
  if (!isObject(body)) throw badRequest('the request body is not an Eviction');
  const metadata = isObject(body.metadata) ? body.metadata : {};
  if ((metadata.name ?? '') !== name) throw badRequest('name in URL does not match name in Eviction object');
  const deleteOptions = (isObject(body.deleteOptions) ? body.deleteOptions : {}) as DeleteOptions;
  const dryRun = r.query.dryRun().includes('All') || (deleteOptions.dryRun ?? []).includes('All');
  const budgets = r.ctx.registry.lookup('policy', 'v1', 'poddisruptionbudgets');
  await evictPod(r.store, budgets, r.namespace ?? '', name, deleteOptions, { user: r.user, dryRun });
  send(r.res, r.format, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
}
