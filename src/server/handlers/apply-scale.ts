import { applyConfig, typedPatchError } from '../../apply/field-manager.js';
import { kindMergeType } from '../../apply/object-type.js';
import { configFieldSet, type ValidationError } from '../../apply/typed.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { endpointOf, setManagedFields } from '../../registry/field-tracking.js';
import { nowSeconds } from '../../registry/timestamps.js';
import type { ResourceRequest } from '../api-context.js';
import { readBody } from '../body.js';
import { parseApplyBody } from './apply.js';
import { checkConfigIdentity, liveFieldsForApply } from './apply-checks.js';
import { applyManager } from './field-manager-options.js';

const SCALE_DEFINITION = 'io.k8s.api.autoscaling.v1.Scale';

/** A parent-shaped configuration holding the Scale's replicas at the parent's replicas path. */
function parentConfig(r: ResourceRequest, name: string, replicasPath: string, scale: Record<string, unknown>): Record<string, unknown> {
  const config: Record<string, unknown> = { apiVersion: r.store.apiVersion, kind: r.store.info.kind, metadata: { name } };
  const spec = isObject(scale.spec) ? scale.spec : {};
  if (!Object.hasOwn(spec, 'replicas')) return config;
  const parts = replicasPath.replace(/^\./, '').split('.');
  let node = config;
  for (const part of parts.slice(0, -1)) {
    const next: Record<string, unknown> = {};
    node[part] = next;
    node = next;
  }
  node[parts[parts.length - 1] ?? ''] = spec.replicas;
  return config;
}

/**
 * Apply to /scale (R10.109): the Scale's replicas are applied to the parent at its replicas path, recorded on the
 * parent as an Apply entry with subresource "scale", so scale appliers and appliers of the parent's replicas
 * conflict with each other. Subresources never create (R10.21).
 */
export async function applyScale(r: ResourceRequest, name: string, paths: { specReplicasPath: string }): Promise<KubeObject> {
  const manager = applyManager(r);
  const force = r.query.bool('force');
  const dryRun = r.query.dryRun().includes('All');
  const parsed = await parseApplyBody(await readBody(r.req));
  const scale = isObject(parsed.value) ? parsed.value : {};
  checkConfigIdentity(scale, 'autoscaling/v1', 'Scale');
  const errors: ValidationError[] = [];
  configFieldSet(scale, kindMergeType(SCALE_DEFINITION), errors);
  if (errors.length > 0) throw typedPatchError(`${r.namespace ?? ''}/${name}; autoscaling/v1, Kind=Scale`, errors);
  const config = parentConfig(r, name, paths.specReplicasPath, scale);
  const store = r.store;
  const opts = { dryRun, user: r.user, subresource: 'scale', applied: true };
  return store.guaranteedUpdate(r.namespace, name, opts, (current) => {
    const endpoint = endpointOf(store.info, store.mergeType, store.apiVersion, 'scale', nowSeconds(store.clock));
    const fields = liveFieldsForApply(endpoint, current);
    const objectName = `${r.namespace ?? ''}/${name}; autoscaling/v1, Kind=Scale`;
    const { object } = applyConfig(endpoint, current, config, fields, manager, force, objectName);
    setManagedFields(object as KubeObject, fields);
    return object as KubeObject;
  });
}
