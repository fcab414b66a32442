import { ApplyConflictError } from '../../apply/conflict.js';
import { applyConfig } from '../../apply/field-manager.js';
import { KUBECTL_MANAGER, refreshLastApplied, unforgivenConflicts } from '../../apply/last-applied.js';
import type { ManagedFields } from '../../apply/managed-fields.js';
import { badRequest, conflict, StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import type { UserInfo } from '../../api/user.js';
import type { FieldValidation } from '../../decoding/decode-object.js';
import { endpointOf, setManagedFields } from '../../registry/field-tracking.js';
import type { ResourceStore } from '../../registry/store.js';
import { nowSeconds } from '../../registry/timestamps.js';
import { keepingWarnings } from '../respond.js';
import { checkConfigIdentity, gvkString, liveFieldsForApply } from './apply-checks.js';

const CREATE_ATTEMPTS = 3;

/** Where an apply goes and how its result becomes an object of the resource; the HTTP handler and the in-process client differ only here. */
export interface ApplyTarget {
  readonly store: ResourceStore;
  readonly namespace: string | undefined;
  readonly subresource: string | undefined;
  readonly user: UserInfo | undefined;
  /** The merged object as an object of this resource (typed decoding, the request's namespace). */
  decode(object: Record<string, unknown>, warnings: string[]): KubeObject;
  /** R10.20: an apply that creates needs `create` as well; throws the 403 a create gets. */
  authorizeCreate(name: string): void;
}

export interface ApplyCall {
  readonly manager: string;
  readonly force: boolean;
  readonly dryRun: boolean;
  readonly config: Record<string, unknown>;
  /** Duplicate keys and the like found while parsing the body (R10.4). */
  readonly strictErrors: readonly string[];
  readonly validation: FieldValidation;
}

export interface ApplyResult {
  readonly code: 200 | 201;
  readonly object: KubeObject;
  readonly warnings: string[];
}

function metaOf(obj: Record<string, unknown>): Record<string, unknown> {
  return isObject(obj.metadata) ? obj.metadata : {};
}

/**
 * Server-side apply (R10.11–R10.27): merges the configuration into the live object (or the empty object, creating
 * it), records the manager's Apply entry and fails with 409 on conflicts unless forced.
 */
export async function applyObject(target: ApplyTarget, name: string, call: ApplyCall): Promise<ApplyResult> {
  const { store, namespace, subresource } = target;
  const { manager, force, config, strictErrors, validation } = call;
  const info = store.info;
  checkConfigIdentity(config, store.apiVersion, info.kind);
  const gvk = gvkString(store.apiVersion, info.kind);
  const warnings: string[] = [];
  const configMeta = metaOf(config);

  const applyTo = (current: KubeObject | undefined): KubeObject => {
    const endpoint = endpointOf(info, store.mergeType, store.apiVersion, subresource, nowSeconds(store.clock));
    const live: Record<string, unknown> = current ?? { apiVersion: store.apiVersion, kind: info.kind };
    const fields: ManagedFields = current === undefined ? new Map() : liveFieldsForApply(endpoint, current);
    const objectName = `${namespace ?? ''}/${name}; ${gvk}`;
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
    if (strictErrors.length > 0 && validation === 'Strict') throw badRequest(`error strict decoding YAML: ${strictErrors.join(', ')}`);
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
    return target.decode(object, warnings);
  };

  const opts = { dryRun: call.dryRun, subresource, warnings, user: target.user, resultDisposable: true, applied: true };
  for (let attempt = 0; ; attempt++) {
    try {
      const updated = await keepingWarnings(warnings, () => store.guaranteedUpdate(namespace, name, opts, applyTo));
      if (validation === 'Warn') warnings.push(...strictErrors);
      return { code: 200, object: updated, warnings };
    } catch (err) {
      // Only a missing object turns into a create; subresources never create (R10.19, R10.21).
      if (!(err instanceof StatusError && err.code === 404) || subresource !== undefined) throw err;
    }
    try {
      const toCreate = applyTo(undefined);
      target.authorizeCreate(name);
      const created = await keepingWarnings(warnings, () => store.create(namespace, toCreate, opts));
      if (validation === 'Warn') warnings.push(...strictErrors);
      return { code: 201, object: created, warnings };
    } catch (err) {
      // Created meanwhile by someone else: apply to it instead.
      if (!(err instanceof StatusError && err.reason === 'AlreadyExists') || attempt + 1 >= CREATE_ATTEMPTS) throw err;
    }
  }
}
