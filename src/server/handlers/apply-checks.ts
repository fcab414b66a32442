import { type Endpoint, recordUpdate } from '../../apply/field-manager.js';
import { decodeManagedFields, ManagedFieldsError, type ManagedFields } from '../../apply/managed-fields.js';
import { badRequest, StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';

const BEFORE_FIRST_APPLY = 'before-first-apply';

/** A GroupVersionKind printed the Go way: `apps/v1, Kind=Deployment`, `/v1, Kind=ConfigMap`. */
export function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const gv = slash < 0 ? `/${av}` : av;
  return `${gv}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/** R10.11, R10.12: the configuration describes this kind and brings no managedFields. */
export function checkConfigIdentity(config: Record<string, unknown>, apiVersion: string, kind: string): void {
  if (config.apiVersion !== apiVersion || config.kind !== kind)
    throw badRequest(`invalid object type: ${gvkString(config.apiVersion, config.kind)}`);
  const meta = config.metadata;
  if (isObject(meta) && meta.managedFields !== undefined && meta.managedFields !== null)
    throw badRequest('metadata.managedFields must be nil');
}

/**
 * The entries an apply starts from (R10.26 step 6, R10.50): undecodable ones fail the apply; an untracked object is
 * first owned by a synthetic Update entry, so the apply conflicts instead of pruning. The stale list stays in the
 * object (stripped paths are neither compared nor owned), so its key keeps its position when rewritten.
 */
export function liveFieldsForApply(endpoint: Endpoint, current: KubeObject): ManagedFields {
  let fields: ManagedFields;
  try {
    fields = decodeManagedFields(current.metadata.managedFields);
  } catch (err) {
    if (err instanceof ManagedFieldsError) throw new StatusError(500, 'InternalError', `failed to decode managed fields: ${err.message}`);
    throw err;
  }
  if (fields.size === 0)
    recordUpdate(endpoint, { apiVersion: current.apiVersion, kind: current.kind }, current, fields, BEFORE_FIRST_APPLY);
  return fields;
}
