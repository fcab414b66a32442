import { ApplyConflictError } from '../../apply/conflict.js';
import { applyConfig, type Endpoint, recordUpdate } from '../../apply/field-manager.js';
import { KUBECTL_MANAGER, refreshLastApplied, unforgivenConflicts } from '../../apply/last-applied.js';
import { decodeManagedFields, ManagedFieldsError, type ManagedFields } from '../../apply/managed-fields.js';
import { badRequest, conflict, StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { forbidden } from '../../auth/authn/forbidden.js';
import type { ResourceAttributes } from '../../auth/authorizer.js';
import { endpointOf, setManagedFields } from '../../registry/field-tracking.js';
import { nowSeconds } from '../../registry/timestamps.js';
import type { ResourceRequest } from '../api-context.js';
import { type ParsedBody, parseBodyWithStrictErrors, readBody } from '../body.js';
import { keepingWarnings, send, warningHeaders } from '../respond.js';
import { decodeObjectBody, fieldValidationMode } from './decode-input.js';
import { applyManager } from './field-manager-options.js';
import { renderObject } from './transform.js';

const BEFORE_FIRST_APPLY = 'before-first-apply';
const CREATE_ATTEMPTS = 3;

/**
 * R10.20: an apply that creates needs `create` as well as the `patch` the request was authorized for, asked once the
 * object is built (Kubernetes checks it in the create's validation), with the refusal a create would get.
 */
function authorizeApplyCreate(r: ResourceRequest, name: string): void {
  const info = r.store.info;
  const attributes: ResourceAttributes = {
    user: r.user,
    resourceRequest: true,
    verb: 'create',
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.plural,
    subresource: '',
    namespace: r.namespace ?? '',
    name,
  };
  const decision = r.ctx.authorizer.authorize(attributes);
  if (decision.decision !== 'allow') throw forbidden(attributes, decision.reason);
}

/** The body as YAML (JSON included); a parse failure is R10.3's 400. */
export async function parseApplyBody(body: Buffer): Promise<ParsedBody> {
  const text = body.toString('utf8').trimStart();
  try {
    // JSON is YAML; kubectl and client libraries send JSON, which needs no trip to the YAML worker.
    if (text.startsWith('{')) return await parseBodyWithStrictErrors(body, 'application/json');
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
  }
  try {
    return await parseBodyWithStrictErrors(body, 'application/yaml');
  } catch (err) {
    if (err instanceof StatusError && err.code === 400)
      throw badRequest(`error decoding YAML: error converting YAML to JSON: ${err.message}`);
    throw err;
  }
}

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

function metaOf(obj: Record<string, unknown>): Record<string, unknown> {
  return isObject(obj.metadata) ? obj.metadata : {};
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

/**
 * PATCH with application/apply-patch+yaml (R10.1–R10.27): merges the configuration into the live object (or the
 * empty object, creating it), records the manager's Apply entry and answers 409 on conflicts unless forced.
 */
export async function handleApply(r: ResourceRequest, name: string, dryRun: boolean): Promise<void> {
  const manager = applyManager(r);
  const force = r.query.bool('force');
  const validation = fieldValidationMode(r);
  const parsed = await parseApplyBody(await readBody(r.req));
  const config = isObject(parsed.value) ? parsed.value : {};
  const store = r.store;
  const info = store.info;
  checkConfigIdentity(config, store.apiVersion, info.kind);
  const gvk = gvkString(store.apiVersion, info.kind);
  const warnings: string[] = [];
  const configMeta = metaOf(config);

  const applyTo = (current: KubeObject | undefined): KubeObject => {
    const endpoint = endpointOf(info, store.mergeType, store.apiVersion, r.subresource, nowSeconds(store.clock));
    const live: Record<string, unknown> = current ?? { apiVersion: store.apiVersion, kind: info.kind };
    const fields: ManagedFields = current === undefined ? new Map() : liveFieldsForApply(endpoint, current);
    const objectName = `${r.namespace ?? ''}/${name}; ${gvk}`;
    let object: Record<string, unknown>;
    try {
      object = applyConfig(endpoint, live, structuredClone(config), fields, manager, force, objectName).object;
    } catch (err) {
      if (!(err instanceof ApplyConflictError) || manager !== KUBECTL_MANAGER) throw err;
      // R10.110: conflicts with what kubectl's client-side apply wrote, still live, are forgiven by forcing.
      const rest = unforgivenConflicts(err.conflicts, live, store.mergeType, store.apiVersion);
      if (rest !== undefined) throw rest;
      object = applyConfig(endpoint, live, structuredClone(config), fields, manager, true, objectName).object;
    }
    if (manager === KUBECTL_MANAGER) refreshLastApplied(object, config);
    setManagedFields(object as KubeObject, fields);
    if (parsed.strictErrors.length > 0 && validation === 'Strict')
      throw badRequest(`error strict decoding YAML: ${parsed.strictErrors.join(', ')}`);
    const uid = configMeta.uid;
    if (current === undefined && typeof uid === 'string' && uid !== '') {
      throw conflict(store.ref, name, `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`);
    }
    const mergedName = metaOf(object).name;
    if (mergedName !== name) {
      throw badRequest(
        `the name of the object (${typeof mergedName === 'string' ? mergedName : ''}) does not match the name on the URL (${name})`,
      );
    }
    const rv = configMeta.resourceVersion;
    if (current !== undefined && typeof rv === 'string' && rv !== '' && rv !== current.metadata.resourceVersion)
      throw store.conflictError(name);
    return decodeObjectBody(r, object, warnings);
  };

  const opts = { dryRun, subresource: r.subresource, warnings, user: r.user, resultDisposable: true, applied: true };
  for (let attempt = 0; ; attempt++) {
    try {
      const updated = await keepingWarnings(warnings, () => store.guaranteedUpdate(r.namespace, name, opts, applyTo));
      if (validation === 'Warn') warnings.push(...parsed.strictErrors);
      send(r.res, r.format, 200, renderObject(r, updated), warningHeaders(warnings));
      return;
    } catch (err) {
      // Only a missing object turns into a create; subresources never create (R10.19, R10.21).
      if (!(err instanceof StatusError && err.code === 404) || r.subresource !== undefined) throw err;
    }
    try {
      const toCreate = applyTo(undefined);
      authorizeApplyCreate(r, name);
      const created = await keepingWarnings(warnings, () => store.create(r.namespace, toCreate, opts));
      if (validation === 'Warn') warnings.push(...parsed.strictErrors);
      send(r.res, r.format, 201, renderObject(r, created), warningHeaders(warnings));
      return;
    } catch (err) {
      // Created meanwhile by someone else: apply to it instead.
      if (!(err instanceof StatusError && err.reason === 'AlreadyExists') || attempt + 1 >= CREATE_ATTEMPTS) throw err;
    }
  }
}
