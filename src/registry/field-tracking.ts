import type { Endpoint } from '../apply/field-manager.js';
import { recordUpdate } from '../apply/field-manager.js';
import { createdFieldsV1 } from '../apply/created-fields.js';
import { FieldSet } from '../apply/fieldpath.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  isResetRequest,
  ManagedFieldsError,
  type ManagedFields,
} from '../apply/managed-fields.js';
import type { MergeType } from '../apply/schema.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import type { AdmissionAttributes } from './admission/attributes.js';
import type { AdmissionChain } from './admission/chain.js';

const STATUS = FieldSet.fromPaths([['f:status']]);
const SPEC = FieldSet.fromPaths([['f:spec']]);
const NONE = new FieldSet();

/**
 * Paths an endpoint's strategy overwrites (R10.80): the main resource of a kind with a status subresource drops
 * `status`, its /status endpoint drops `spec`.
 */
export function resetFieldsOf(info: ResourceInfo, subresource: string | undefined): FieldSet {
  if (subresource === 'status') return SPEC;
  if (subresource === undefined && info.subresources.some((s) => s.name === 'status')) return STATUS;
  return NONE;
}

export function endpointOf(
  info: ResourceInfo,
  type: MergeType,
  apiVersion: string,
  subresource: string | undefined,
  now: string,
): Endpoint {
  return { type, apiVersion, subresource, resetFields: resetFieldsOf(info, subresource), now };
}

/** The stored entries; undecodable ones (never written by Cascade) count as none. */
function storedFields(obj: KubeObject | undefined): ManagedFields {
  try {
    return decodeManagedFields(obj?.metadata.managedFields);
  } catch (err) {
    if (err instanceof ManagedFieldsError) return new Map();
    throw err;
  }
}

/**
 * The entries an Update operation starts from (R10.53–R10.58): a decodable non-empty list the client wrote on the
 * main resource replaces the stored one; `[]` or `[{}]` clears it and the request itself is then not recorded;
 * anything else keeps what is stored. `undefined` means: record nothing.
 */
function startingFields(old: KubeObject | undefined, next: KubeObject, subresource: string | undefined): ManagedFields | undefined {
  const written = next.metadata.managedFields;
  if (subresource === undefined && written !== undefined && written !== null) {
    if (isResetRequest(written)) return undefined;
    try {
      const decoded = decodeManagedFields(written);
      if (decoded.size > 0) return decoded;
    } catch (err) {
      if (!(err instanceof ManagedFieldsError)) throw err;
    }
  }
  const stored = storedFields(old);
  // An existing object nobody tracks stays untracked until an apply (R10.51); creates always track.
  if (old !== undefined && stored.size === 0) return undefined;
  return stored;
}

/**
 * Records an Update operation (create when `old` is undefined) in `next.metadata.managedFields` (R10.39–R10.58),
 * comparing the objects as the request wrote them, before the strategy's own changes.
 */
export function trackUpdateOperation(endpoint: Endpoint, old: KubeObject | undefined, next: KubeObject, manager: string): void {
  const fields = startingFields(old, next, endpoint.subresource);
  if (fields === undefined) {
    delete next.metadata.managedFields;
    return;
  }
  if (old === undefined && fields.size === 0) {
    // The usual create: one entry owning what the object holds, built directly (creates are the hot path).
    const fieldsV1 = createdFieldsV1(next, endpoint.type, endpoint.resetFields);
    if (fieldsV1 === undefined) delete next.metadata.managedFields;
    else
      next.metadata.managedFields = [
        { manager, operation: 'Update', apiVersion: endpoint.apiVersion, time: endpoint.now, fieldsType: 'FieldsV1', fieldsV1 },
      ];
    return;
  }
  const before = old ?? { apiVersion: next.apiVersion, kind: next.kind };
  recordUpdate(endpoint, before, next, fields, manager);
  setManagedFields(next, fields);
}

export function setManagedFields(obj: KubeObject, fields: ManagedFields): void {
  const encoded = encodeManagedFields(fields);
  if (encoded === undefined) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = encoded;
}

/**
 * R10.24: mutating admission runs with managedFields guarded. A plugin that leaves them undecodable gets them put
 * back as they were before it ran, with a warning to the client, rather than failing the write or storing them.
 */
export async function admitKeepingManagedFields(admission: AdmissionChain, attributes: AdmissionAttributes): Promise<void> {
  const object = attributes.object;
  const before = object?.metadata?.managedFields;
  await admission.admit(attributes);
  const meta = object?.metadata;
  if (meta === undefined || meta.managedFields === before) return;
  try {
    decodeManagedFields(meta.managedFields);
  } catch (err) {
    if (!(err instanceof ManagedFieldsError)) throw err;
    if (before === undefined) delete meta.managedFields;
    else meta.managedFields = before;
    attributes.warnings.push(
      `.metadata.managedFields was in an invalid state after admission; this could be caused by an outdated mutating admission controller; please fix your requests: ${err.message}`,
    );
  }
}
