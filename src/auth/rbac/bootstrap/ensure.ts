import { StatusError } from '../../../api/errors.js';
import type { KubeObject } from '../../../api/types.js';
import { getIfPresent } from '../../../client/get-if-present.js';
import type { ApiClient, ResourceRef } from '../../../client/interface.js';
import { bootstrapPolicy } from './policy.js';
import type { ClusterRole, ClusterRoleBinding } from './rbac-types.js';
import { type Reconciliation, reconcileClusterRole, reconcileClusterRoleBinding } from './reconcile.js';

export const CLUSTER_ROLES: ResourceRef = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };
export const CLUSTER_ROLE_BINDINGS: ResourceRef = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings' };

/** Attempts per object when someone else writes it at the same time (client-go's retry.DefaultBackoff has 4 steps). */
const ATTEMPTS = 5;

/**
 * kube-apiserver's RBAC post-start hook: creates the default roles and bindings that are missing and adds to
 * existing ones what they lack (rules, aggregation selectors, subjects, labels, annotations), without removing
 * anything and without touching objects annotated autoupdate=false. Running it again writes nothing.
 * Throws after trying every object if some could not be reconciled.
 */
export async function ensureBootstrapPolicy(client: ApiClient): Promise<void> {
  const policy = bootstrapPolicy();
  const failures: string[] = [];
  const attempt = async <T extends KubeObject>(
    ref: ResourceRef,
    expected: T,
    reconcile: (existing: T | undefined, expected: T) => Reconciliation<T>,
  ) => {
    try {
      await reconcileOne(client, ref, expected, reconcile);
    } catch (err) {
      failures.push(`${ref.resource} ${expected.metadata.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  // Roles first, so no binding points at a role that does not exist yet; objects of one kind are independent, so
  // they go out together (on etcd this is one round trip's wait instead of one per object).
  await Promise.all(policy.clusterRoles.map((role) => attempt<ClusterRole>(CLUSTER_ROLES, role, reconcileClusterRole)));
  await Promise.all(
    policy.clusterRoleBindings.map((binding) => attempt<ClusterRoleBinding>(CLUSTER_ROLE_BINDINGS, binding, reconcileClusterRoleBinding)),
  );
  if (failures.length > 0) throw new Error(`unable to reconcile the bootstrap RBAC policy: ${failures.join('; ')}`);
}

async function reconcileOne<T extends KubeObject>(
  client: ApiClient,
  ref: ResourceRef,
  expected: T,
  reconcile: (existing: T | undefined, expected: T) => Reconciliation<T>,
): Promise<void> {
  const name = expected.metadata.name ?? '';
  for (let i = 1; ; i++) {
    try {
      const existing = await getIfPresent(client, ref, undefined, name);
      const result = reconcile(existing as T | undefined, expected);
      switch (result.operation) {
        case 'none':
          return;
        case 'create':
          await client.create(ref, undefined, result.object);
          return;
        case 'update':
          await client.update(ref, undefined, result.object);
          return;
        case 'recreate':
          await client.delete(ref, undefined, name, { preconditions: { uid: existing?.metadata.uid } });
          await client.create(ref, undefined, withoutServerFields(result.object));
          return;
      }
    } catch (err) {
      // 409: changed or created meanwhile; 404: deleted meanwhile. Either way, start over from what is there now.
      const raced = err instanceof StatusError && (err.code === 409 || err.code === 404);
      if (!raced || i >= ATTEMPTS) throw err;
    }
  }
}

function withoutServerFields<T extends KubeObject>(obj: T): T {
  const copy = structuredClone(obj);
  const { resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, managedFields: _mf, generation: _g, ...metadata } = copy.metadata;
  copy.metadata = metadata;
  return copy;
}
