import { badRequest } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { bindPod } from '../../registry/pod-binding.js';
import type { ResourceRequest } from '../api-context.js';
import { parseBody, readBody } from '../body.js';
import { send } from '../respond.js';

/** POST .../pods/{name}/binding: binds the pod (registry/pod-binding.ts) and answers BindingREST's 201 Success Status. */
export async function handlePodBinding(r: ResourceRequest, name: string): Promise<void> {
  const raw = await readBody(r.req);
  if (raw.length === 0) throw badRequest('the request body is empty');
  const body = await parseBody(raw, r.req.headers['content-type'], 'Binding');
  if (!isObject(body)) throw badRequest('the request body is not a Binding');
  const binding = { ...body, metadata: isObject(body.metadata) ? body.metadata : {} } as KubeObject;
  await bindPod(r.store, r.namespace ?? '', name, binding, r.user, { dryRun: r.query.dryRun().includes('All') });
  send(r.res, r.format, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
}
