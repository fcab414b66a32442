import { badRequest, fieldError, invalid } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { decodeTypedObject } from '../../decoding/decode-object.js';
import { definitionRef } from '../../openapi/schema.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../../selectors/label-selector-object.js';
import type { ResourceRequest } from '../api-context.js';
import { parseBody, readBody } from '../body.js';
import { send } from '../respond.js';
import { fieldValidationMode } from './decode-input.js';
import { getResourceVersion } from './read.js';
import { applyPatch, patchTypeOf } from '../../patch/apply.js';
import { applyScale } from './apply-scale.js';
import { refuseForce, updateManager } from './field-manager-options.js';

const SCALE_DEFINITION = 'io.k8s.api.autoscaling.v1.Scale';

type ScalePaths = NonNullable<ResourceRequest['store']['strategy']['scale']>;

/** Built-in workloads keep replicas at .spec.replicas / .status.replicas and a LabelSelector at .spec.selector. */
const BUILTIN_SCALE: ScalePaths = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };

function segments(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

function getAt(obj: KubeObject, path: string): unknown {
  let current: unknown = obj;
  for (const part of segments(path)) current = isObject(current) ? current[part] : undefined;
  return current;
}

function setAt(obj: KubeObject, path: string, value: unknown): void {
  const parts = segments(path);
  let current: Record<string, unknown> = obj;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(current[part])) current[part] = {};
    current = current[part] as Record<string, unknown>;
  }
  current[parts[parts.length - 1] ?? ''] = value;
}

/**
 * The label selector as a string: custom resources point at one; apps/v1 workloads hold a LabelSelector object and
 * a ReplicationController a plain map of labels to equal.
 */
function selectorOf(obj: KubeObject, paths: ScalePaths): string {
  if (paths.labelSelectorPath !== undefined) {
    const value = getAt(obj, paths.labelSelectorPath);
    return typeof value === 'string' ? value : '';
  }
  if (paths !== BUILTIN_SCALE) return '';
  const selector = getAt(obj, '.spec.selector');
  const labelMap = obj.kind === 'ReplicationController' ? { matchLabels: selector } : selector;
  try {
    return labelSelectorAsSelector(asLabelSelectorObject(labelMap)).toString();
  } catch {
    return '';
  }
}

/** The autoscaling/v1 Scale view of an object, through its scale paths. */
function scaleOf(obj: KubeObject, paths: ScalePaths): KubeObject {
  const meta = obj.metadata;
  const specReplicas = getAt(obj, paths.specReplicasPath);
  const statusReplicas = getAt(obj, paths.statusReplicasPath);
  const selector = selectorOf(obj, paths);
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
    spec: { replicas: typeof specReplicas === 'number' ? specReplicas : 0 },
    status: { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0, ...(selector === '' ? {} : { selector }) },
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
  return {
    replicas,
    resourceVersion: typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '' ? meta.resourceVersion : undefined,
  };
}

/** GET, PUT and PATCH on .../{name}/scale (R8.7): reads and writes the parent object's replicas through its scale paths. */
export async function handleScale(r: ResourceRequest, verb: 'get' | 'update' | 'patch', name: string): Promise<void> {
  const paths = r.store.strategy.scale ?? BUILTIN_SCALE;
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
    setAt(current, paths.specReplicasPath, replicas);
    return current;
  });
  send(r.res, r.format, 200, scaleOf(updated, paths));
}
