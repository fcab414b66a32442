import { badRequest, fieldError, invalid } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { decodeTypedObject } from '../../decoding/decode-object.js';
import { definitionRef } from '../../openapi/schema.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../../selectors/label-selector-object.js';
import type { ResourceRequest } from '../api-context.js';
import { parseBody, readBody } from '../body.js';
import { send } from '../respond.js';
import { fieldValidationMode } from './decode-input.js';
import { applyPatch, patchTypeOf } from '../../patch/apply.js';

const SCALE_DEFINITION = 'io.k8s.api.autoscaling.v1.Scale';

/** The autoscaling/v1 Scale view of a workload: spec.replicas, status.replicas and the selector as a string. */
function scaleOf(obj: KubeObject): KubeObject {
  const spec = isObject(obj.spec) ? obj.spec : {};
  const status = isObject(obj.status) ? obj.status : {};
  const meta = obj.metadata;
  let selector = '';
  try {
    selector = labelSelectorAsSelector(asLabelSelectorObject(spec.selector)).toString();
  } catch {
    selector = '';
  }
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: { replicas: typeof spec.replicas === 'number' ? spec.replicas : 0 },
    status: { replicas: typeof status.replicas === 'number' ? status.replicas : 0, ...(selector === '' ? {} : { selector }) },
  };
}

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
  return { replicas, resourceVersion: typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '' ? meta.resourceVersion : undefined };
}

/** GET, PUT and PATCH on .../{name}/scale (R8.7): reads and writes spec.replicas of the parent object. */
export async function handleScale(r: ResourceRequest, verb: 'get' | 'update' | 'patch', name: string): Promise<void> {
  if (verb === 'get') {
    send(r.res, r.format, 200, scaleOf(await r.store.get(r.namespace, name)));
    return;
  }
  let body: unknown;
  let patchType: ReturnType<typeof patchTypeOf> | undefined;
  if (verb === 'patch') {
    patchType = patchTypeOf(r.req.headers['content-type']);
    body = parseBody(await readBody(r.req), 'application/json');
  } else {
    const raw = await readBody(r.req);
    if (raw.length === 0) throw badRequest('the request body is empty');
    body = parseBody(raw, r.req.headers['content-type']);
  }
  const dryRun = r.query.dryRun().includes('All');
  const updated = await r.store.guaranteedUpdate(r.namespace, name, { dryRun }, (current) => {
    const scale =
      patchType === undefined
        ? body
        : applyPatch(patchType, scaleOf(current), body, { ...r.store.info, definition: SCALE_DEFINITION, custom: false }, r.ctx.definitions);
    const { replicas, resourceVersion } = replicasFrom(r, scale, name);
    if (resourceVersion !== undefined && resourceVersion !== current.metadata.resourceVersion) throw r.store.conflictError(name);
    const spec = isObject(current.spec) ? current.spec : {};
    current.spec = { ...spec, replicas };
    return current;
  });
  send(r.res, r.format, 200, scaleOf(updated));
}
