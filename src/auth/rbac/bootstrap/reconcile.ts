import type { KubeObject } from '../../../api/types.js';
import type { LabelSelectorObject } from '../../../selectors/label-selector-object.js';
import { AUTOUPDATE_ANNOTATION } from './bootstrap-metadata.js';
import type { ClusterRole, ClusterRoleBinding, Subject } from './rbac-types.js';
import { uncoveredRules } from './rule-coverage.js';
import { semanticEqual } from './semantic-equal.js';

/**
 * What startup reconciliation does with one object (pkg/registry/rbac/reconciliation): it only ever adds, so
 * whatever users granted on top of the defaults survives; `recreate` is for a binding whose roleRef, which cannot
 * be updated, no longer matches.
 */
export type Reconciliation<T> =
  | { readonly operation: 'none' }
  | { readonly operation: 'create' | 'update' | 'recreate'; readonly object: T };

/** Objects annotated autoupdate=false are the administrator's to keep as they are. */
export const isProtected = (obj: KubeObject): boolean => obj.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false';

/** Existing values win, so a user may e.g. relabel a default object; only missing keys are added. */
function mergeMetadata(existing: KubeObject, expected: KubeObject): { object: KubeObject; changed: boolean } {
  const object = structuredClone(existing);
  const labels = { ...expected.metadata.labels, ...existing.metadata.labels };
  const annotations = { ...expected.metadata.annotations, ...existing.metadata.annotations };
  const changed = !semanticEqual(labels, existing.metadata.labels) || !semanticEqual(annotations, existing.metadata.annotations);
  object.metadata.labels = labels;
  object.metadata.annotations = annotations;
  return { object, changed };
}

export function reconcileClusterRole(existing: ClusterRole | undefined, expected: ClusterRole): Reconciliation<ClusterRole> {
  if (existing === undefined) return { operation: 'create', object: structuredClone(expected) };
  if (isProtected(existing)) return { operation: 'none' };
  const merged = mergeMetadata(existing, expected);
  const role = merged.object as ClusterRole;
  let changed = merged.changed;

  const missingRules = uncoveredRules(existing.rules ?? [], expected.rules ?? []);
  if (missingRules.length > 0) {
    role.rules = [...(existing.rules ?? []), ...missingRules];
    changed = true;
  }

  const expectedSelectors = expected.aggregationRule?.clusterRoleSelectors ?? [];
  const existingSelectors = existing.aggregationRule?.clusterRoleSelectors ?? [];
  const missingSelectors = expectedSelectors.filter((s) => !existingSelectors.some((e) => semanticEqual(e, s)));
  if (expected.aggregationRule === undefined && existing.aggregationRule !== undefined) {
    // A role Kubernetes does not aggregate must not have its rules rewritten by the aggregation controller.
    delete role.aggregationRule;
    changed = true;
  } else if (missingSelectors.length > 0) {
    role.aggregationRule = {
      ...role.aggregationRule,
      clusterRoleSelectors: [...existingSelectors, ...structuredClone(missingSelectors)] as LabelSelectorObject[],
    };
    changed = true;
  }
  return changed ? { operation: 'update', object: role } : { operation: 'none' };
}

const sameSubject = (a: Subject, b: Subject): boolean =>
  a.kind === b.kind && (a.apiGroup ?? '') === (b.apiGroup ?? '') && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');

export function reconcileClusterRoleBinding(
  existing: ClusterRoleBinding | undefined,
  expected: ClusterRoleBinding,
): Reconciliation<ClusterRoleBinding> {
  if (existing === undefined) return { operation: 'create', object: structuredClone(expected) };
  if (isProtected(existing)) return { operation: 'none' };
  const merged = mergeMetadata(existing, expected);
  const binding = merged.object as ClusterRoleBinding;
  let changed = merged.changed;

  const existingSubjects = existing.subjects ?? [];
  const missingSubjects = (expected.subjects ?? []).filter((s) => !existingSubjects.some((e) => sameSubject(e, s)));
  if (missingSubjects.length > 0) {
    binding.subjects = [...existingSubjects, ...structuredClone(missingSubjects)];
    changed = true;
  }

  const ref = existing.roleRef;
  const want = expected.roleRef;
  if (ref.apiGroup !== want.apiGroup || ref.kind !== want.kind || ref.name !== want.name) {
    binding.roleRef = { ...want };
    return { operation: 'recreate', object: binding };
  }
  return changed ? { operation: 'update', object: binding } : { operation: 'none' };
}
