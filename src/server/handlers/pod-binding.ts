import { badRequest, notFoundPath } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { bindPod } from '../../registry/pod-binding.js';
import type { ResourceStore } from '../../registry/store.js';
import type { ResourceRequest } from '../api-context.js';
import { parseBody, readBody } from '../body.js';
import { send } from '../respond.js';

async function readBinding(r: ResourceRequest): Promise<KubeObject> {
  const raw = await readBody(r.req);
  if (raw.length === 0) throw badRequest('the request body is empty');
  const body = await parseBody(raw, r.req.headers['content-type'], 'Binding');
  if (!isObject(body)) throw badRequest('the request body is not a Binding');
  return { ...body, metadata: isObject(body.metadata) ? body.metadata : {} } as KubeObject;
}

async function bindAndAnswer(r: ResourceRequest, pods: ResourceStore, name: string, binding: KubeObject): Promise<void> {
  await bindPod(pods, r.namespace ?? '', name, binding, r.user, { dryRun: r.query.dryRun().includes('All') });
  send(r.res, r.format, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
}

/** POST .../pods/{name}/binding: binds the pod (registry/pod-binding.ts) and answers BindingREST's 201 Success Status. */
export async function handlePodBinding(r: ResourceRequest, name: string): Promise<void> {
  await bindAndAnswer(r, r.store, name, await readBinding(r));
}

/**
 * POST /api/v1/namespaces/{ns}/bindings (LegacyBindingREST): the same binding of the pod the Binding's own name
 * names; without a name there is no pod to address, as the pods' key function says.
 */
export async function handleLegacyBinding(r: ResourceRequest): Promise<void> {
  const binding = await readBinding(r);
  const name = binding.metadata.name ?? '';
  if (name === '') throw badRequest('Name parameter required.');
  const pods = r.ctx.registry.lookup('', 'v1', 'pods');
  if (pods === undefined) throw notFoundPath();
  await bindAndAnswer(r, pods, name, binding);
}
