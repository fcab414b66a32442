import { StatusError } from '../api/errors.js';
import type { JsonMap } from '../util/json-value.js';
import { type Comparison, compare, isUnchanged } from './compare.js';
import { type Conflict, conflictError } from './conflict.js';
import type { FieldSet } from './fieldpath.js';
import { capUpdateManagers, type ManagedEntry, type ManagedFields, managerKey, STRIPPED_PATHS } from './managed-fields.js';
import { ensureNamedFieldsAreMembers, merge, removeItems } from './merge.js';
import type { MergeType } from './schema.js';
import { configFieldSet, formatValidationErrors, type ValidationError } from './typed.js';

/** What one endpoint's operations are recorded against. */
export interface Endpoint {
  /** The merge type of the whole object. */
  readonly type: MergeType;
  /** `group/version` of the request (R10.119). */
  readonly apiVersion: string;
  readonly subresource: string | undefined;
  /** Paths the endpoint's strategy overwrites: never owned, never in conflict (R10.80). */
  readonly resetFields: FieldSet;
  /** RFC 3339 second-precision "now" for entry times. */
  readonly now: string;
}

function owned(set: FieldSet, endpoint: Endpoint): FieldSet {
  return set.recursiveDifference(endpoint.resetFields).difference(STRIPPED_PATHS);
}

function filtered(c: Comparison, endpoint: Endpoint): Comparison {
  return { added: owned(c.added, endpoint), modified: owned(c.modified, endpoint), removed: c.removed.recursiveDifference(endpoint.resetFields) };
}

/**
 * SMD's Updater.update: paths the new object added or changed are in conflict with every other manager owning
 * them (R10.84); with `force` (Update operations always) they move to the writer, and removed paths leave every
 * entry (R10.42, R10.43, R10.90). Throws the 409 when conflicts remain.
 */
function transfer(live: unknown, next: unknown, endpoint: Endpoint, fields: ManagedFields, writer: string, force: boolean): Comparison {
  const comparison = filtered(compare(live, next, endpoint.type), endpoint);
  const changed = comparison.modified.union(comparison.added);
  const conflicts: Conflict[] = [];
  for (const [key, entry] of fields) {
    if (key === writer) continue;
    const paths = entry.set.intersection(changed);
    if (!paths.isEmpty()) conflicts.push({ key, entry, paths });
  }
  if (!force && conflicts.length > 0) throw conflictError(conflicts);
  for (const [key, entry] of fields) {
    if (key === writer) continue;
    entry.set = entry.set.difference(changed).difference(comparison.removed);
    if (entry.set.isEmpty()) fields.delete(key);
  }
  return comparison;
}

/** A 400 for a configuration the schema rejects (R10.14; Kubernetes answers 500 there, D10.1). */
export function typedPatchError(object: string, errors: readonly ValidationError[]): StatusError {
  return new StatusError(400, 'BadRequest', `failed to create typed patch object (${object}): ${formatValidationErrors(errors)}`);
}

export interface ApplyResult {
  readonly object: JsonMap;
  /** Whether any value changed (an apply that only changes ownership still rewrites managedFields). */
  readonly changed: boolean;
}

/**
 * Server-side apply of `config` by `manager` onto `live` (SMD Updater.Apply): merge, removal of what the manager
 * stopped applying (R10.93–R10.100), conflicts against every other entry (R10.84–R10.90). `fields` is updated in
 * place; `objectName` names the object in schema errors (`<ns>/<name>; <GVK>`).
 */
export function applyConfig(
  endpoint: Endpoint,
  live: JsonMap,
  config: JsonMap,
  fields: ManagedFields,
  manager: string,
  force: boolean,
  objectName: string,
): ApplyResult {
  const errors: ValidationError[] = [];
  const configSet = configFieldSet(config, endpoint.type, errors);
  if (errors.length > 0) throw typedPatchError(objectName, errors);
  const key = managerKey(manager, 'Apply', endpoint.apiVersion, endpoint.subresource);
  const previous = fields.get(key);
  const entry: ManagedEntry = {
    manager,
    operation: 'Apply',
    apiVersion: endpoint.apiVersion,
    // Stripped metadata stays in the set until the end, so pruning sees the applier keep the name (R10.36).
    set: configSet.recursiveDifference(endpoint.resetFields),
    ...(previous?.time === undefined ? {} : { time: previous.time }),
    ...(endpoint.subresource === undefined ? {} : { subresource: endpoint.subresource }),
  };
  let object = merge(live, config, endpoint.type) as JsonMap;
  if (previous !== undefined && !previous.set.isEmpty()) object = prune(object, endpoint.type, fields, key, entry.set, previous.set);
  // Throws before anything in `fields` changed; the applier's own entry is not compared with itself.
  transfer(live, object, endpoint, fields, key, force);
  fields.delete(key);
  fields.set(key, entry);
  // Changes to reset fields are undone by the strategy, so they do not count (the timestamp revert of R10.47).
  const changed = !isUnchanged(filtered(compare(live, object, endpoint.type), endpoint));
  if (changed) entry.time = endpoint.now;
  entry.set = entry.set.difference(STRIPPED_PATHS);
  if (entry.set.isEmpty()) fields.delete(key);
  return { object, changed };
}

/**
 * Removes what the applier owned before and owns no longer, unless another entry owns it (SMD prune,
 * addBackOwnedItems, addBackDanglingItems). Named struct fields count as owned when anything inside them is.
 */
function prune(merged: JsonMap, type: MergeType, fields: ManagedFields, applier: string, newSet: FieldSet, lastSet: FieldSet): JsonMap {
  const named = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(s, type);
  const last = named(lastSet);
  let pruned = removeItems(merged, last, type);
  let managed = newSet;
  for (const [key, entry] of fields) if (key !== applier) managed = managed.union(entry.set);
  const mergedSet = named(configFieldSet(merged, type));
  const prunedSet = named(configFieldSet(pruned, type));
  pruned = removeItems(merged, mergedSet.difference(prunedSet.union(named(managed))), type);
  const stillThere = named(configFieldSet(pruned, type));
  return removeItems(merged, mergedSet.difference(stillThere).intersection(last), type) as JsonMap;
}

/**
 * Records an Update operation (create, update, non-apply patch) by `manager` (R10.41–R10.45, R10.52): the paths
 * it added or changed become its own, taken from every other entry; removed paths leave every entry.
 */
export function recordUpdate(endpoint: Endpoint, live: unknown, next: unknown, fields: ManagedFields, manager: string): void {
  const key = managerKey(manager, 'Update', endpoint.apiVersion, endpoint.subresource);
  const comparison = transfer(live, next, endpoint, fields, key, true);
  const taken = comparison.modified.union(comparison.added);
  const previous = fields.get(key);
  const set = (previous?.set.difference(comparison.removed) ?? taken).union(taken);
  if (set.isEmpty()) {
    fields.delete(key);
  } else {
    const time = taken.isEmpty() ? previous?.time : endpoint.now;
    fields.set(key, {
      manager,
      operation: 'Update',
      apiVersion: endpoint.apiVersion,
      set,
      ...(time === undefined ? {} : { time }),
      ...(endpoint.subresource === undefined ? {} : { subresource: endpoint.subresource }),
    });
  }
  capUpdateManagers(fields);
}
