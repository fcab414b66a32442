import { badRequest, fieldError, invalid } from '../../api/errors.js';
import { isObject } from '../../api/types.js';
import { decodeTypedObject } from '../../decoding/decode-object.js';
import { definitionRef } from '../../openapi/schema.js';
import { scaleOf, scalePathsOf, setScaleReplicas } from '../../registry/scale.js';
import type { ResourceRequest } from '../api-context.js';
import { parseBody, readBody } from '../body.js';
import { send } from '../respond.js';
import { fieldValidationMode } from './decode-input.js';
import { getResourceVersion } from './read.js';
import { applyPatch, patchTypeOf } from '../../patch/apply.js';
import { applyScale } from './apply-scale.js';
import { refuseForce, updateManager } from './field-manager-options.js';

const SCALE_DEFINITION = 'io.k8s.api.autoscaling.v1.Scale';

function replicasFrom(r: ResourceRequest, scale: unknown, name: string): { replicas: number; resourceVersion: string | undefined } {
  const decoded = decodeTypedObject(scale, definitionRef(SCALE_DEFINITION), r.ctx.definitions, fieldValidationMode(r), {
    kind: 'Scale',
    version: 'v1',
  }).object;
  const spec = isObject(decoded.spec) ? decoded.spec : {};
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : 0;
  if (replicas < 0) {
    throw invalid('Scale.autoscaling', 'autoscaling', 'Scale', name, [
      fieldError.invalid('spec.replicas', replicas, 'must be greater than or equal to 0'),
    ]);
  }
  const meta = isObject(decoded.metadata) ? decoded.metadata : {};
  return {
    replicas,
    resourceVersion: typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '' ? meta.resourceVersion : undefined,
  };
}

/** GET, PUT and PATCH on .../{name}/scale (R8.7): reads and writes the parent object's replicas through its scale paths. */
export async function handleScale(r: ResourceRequest, verb: 'get' | 'update' | 'patch', name: string): Promise<void> {
  const paths = scalePathsOf(r.store);
  if (verb === 'get') {
    send(r.res, r.format, 200, scaleOf(await r.store.get(r.namespace, name, getResourceVersion(r)), paths));
    return;
  }
  let body: unknown;
  let patchType: ReturnType<typeof patchTypeOf> | undefined;
  if (verb === 'patch') {
    patchType = patchTypeOf(r.req.headers['content-type']);
    if (patchType === 'apply') {
      send(r.res, r.format, 200, scaleOf(await applyScale(r, name, paths), paths));
      return;
    }
    refuseForce(r);
    body = await parseBody(await readBody(r.req), 'application/json');
  } else {
    const raw = await readBody(r.req);
    if (raw.length === 0) throw badRequest('the request body is empty');
    body = await parseBody(raw, r.req.headers['content-type']);
  }
  const dryRun = r.query.dryRun().includes('All');
  const fieldManager = updateManager(r, verb === 'patch' ? 'PatchOptions' : 'UpdateOptions');
  const opts = { dryRun, user: r.user, subresource: 'scale', fieldManager };
  const updated = await r.store.guaranteedUpdate(r.namespace, name, opts, (current) => {
    const scale =
      patchType === undefined
        ? body
        : applyPatch(
            patchType,
            scaleOf(current, paths),
            body,
            { ...r.store.info, definition: SCALE_DEFINITION, custom: false },
            r.ctx.definitions,
          );
    const { replicas, resourceVersion } = replicasFrom(r, scale, name);
    if (resourceVersion !== undefined && resourceVersion !== current.metadata.resourceVersion) throw r.store.conflictError(name);
    setScaleReplicas(current, paths, replicas);
    return current;
  });
  send(r.res, r.format, 200, scaleOf(updated, paths));
}
