import { type FieldError, fieldError } from '../../api/errors.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject } from '../../api/types.js';
import type { UserInfo } from '../../api/user.js';
import type { StrategyOptions } from '../../kinds/define/strategy-options.js';
import { ARCHIVE_GROUP, ARCHIVE_VERSION } from './resources.js';

/**
 * Restore (cascade.dev/v1alpha1) is cluster-scoped: one restore may recreate a namespace with its content, a
 * CustomResourceDefinition's instances across namespaces, or cluster-scoped objects, and it grants nothing by its
 * scope, since everything it writes is checked against, and written as, the user who created it.
 */
export const RESTORES: ResourceInfo = {
  group: ARCHIVE_GROUP,
  version: ARCHIVE_VERSION,
  kind: 'Restore',
  listKind: 'RestoreList',
  plural: 'restores',
  singular: 'restore',
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  shortNames: [],
  categories: [],
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  nameFormat: 'dns1123-subdomain',
  definition: `dev.cascade.${ARCHIVE_VERSION}.Restore`,
  // Decoded as custom resources are (see resources.ts).
  custom: true,
};

/** What a Restore names. */
export interface RestoreTarget {
  /** The plural resource, qualified by its group unless core: "deployments.apps", "namespaces", "widgets.example.com". */
  readonly resource: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly uid?: string;
  /** RFC 3339: the object as it was last removed at or before this time (default: its latest removal). */
  readonly asOf?: string;
}

export interface RestoreSpec {
  readonly target: RestoreTarget;
  readonly withDependents?: boolean;
  /**
   * Restore only what the target's removal took with it, the target itself having been re-created (a CRD's
   * instances after the CRD is applied again): references to the target are rewritten to the live one's uid.
   */
  readonly dependentsOnly?: boolean;
  /** Check and report, write nothing. */
  readonly dryRun?: boolean;
  /** Who created the Restore: set by the server, never by the client. */
  readonly requester?: { readonly username: string; readonly uid?: string; readonly groups: readonly string[] };
}

export function restoreSpec(obj: KubeObject): RestoreSpec {
  return obj.spec as RestoreSpec;
}

/** The requester as the authorizer sees a user. */
export function requesterUser(spec: RestoreSpec): UserInfo | undefined {
  const r = spec.requester;
  if (r === undefined) return undefined;
  return { name: r.username, groups: [...r.groups], ...(r.uid === undefined ? {} : { uid: r.uid }) };
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function validateRestore(obj: KubeObject): FieldError[] {
  const spec = obj.spec;
  if (!isObject(spec)) return [fieldError.required('spec')];
  const target = spec.target;
  if (!isObject(target)) return [fieldError.required('spec.target')];
  const errs: FieldError[] = [];
  if (typeof target.resource !== 'string' || target.resource === '') errs.push(fieldError.required('spec.target.resource'));
  const named = (field: string): boolean => typeof target[field] === 'string' && target[field] !== '';
  if (!named('name') && !named('uid')) errs.push(fieldError.required('spec.target.name', 'name or uid is required'));
  if (target.asOf !== undefined && (typeof target.asOf !== 'string' || !RFC3339.test(target.asOf))) {
    errs.push(fieldError.invalid('spec.target.asOf', target.asOf, 'must be an RFC 3339 time, e.g. 2026-01-02T15:04:05Z'));
  }
  for (const flag of ['withDependents', 'dependentsOnly', 'dryRun']) {
    if (spec[flag] !== undefined && typeof spec[flag] !== 'boolean')
      errs.push(fieldError.invalid(`spec.${flag}`, spec[flag], 'must be a boolean'));
  }
  return errs;
}

function validateRestoreUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  if (JSON.stringify(next.spec) !== JSON.stringify(old.spec)) return [fieldError.forbidden('spec', 'field is immutable')];
  return [];
}

/** The store's hooks for Restores: the requester recorded at create, the spec immutable afterwards. */
export const RESTORE_STRATEGY: StrategyOptions = {
  prepareForCreate(obj, user) {
    const spec: Record<string, unknown> = isObject(obj.spec) ? obj.spec : {};
    if (user === undefined) delete spec.requester;
    else spec.requester = { username: user.name, groups: [...user.groups], ...(user.uid === undefined ? {} : { uid: user.uid }) };
    obj.spec = spec;
  },
  prepareForUpdate(next, old) {
    if (isObject(next.spec) && isObject(old.spec)) {
      if (old.spec.requester === undefined) delete next.spec.requester;
      else next.spec.requester = old.spec.requester;
    }
  },
  validate: validateRestore,
  validateUpdate: validateRestoreUpdate,
};
