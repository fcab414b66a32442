import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLUSTER_ROLES, ensureBootstrapPolicy } from '../../auth/rbac/bootstrap/ensure.js';
import type { ClusterRole, PolicyRule } from '../../auth/rbac/bootstrap/rbac-types.js';
import { createTestClient, recordingWrites } from '../../auth/rbac/bootstrap/testing/registry-client.js';
import type { ApiClient } from '../../client/interface.js';
import { ClusterRoleAggregationController } from './controller.js';

/** Polls until `check` holds; bounded by `timeoutMs`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const rulesOf = async (client: ApiClient, name: string): Promise<PolicyRule[]> =>
  ((await client.get(CLUSTER_ROLES, undefined, name)) as ClusterRole).rules ?? [];

const sameRules = async (client: ApiClient, name: string, expected: readonly PolicyRule[]): Promise<boolean> =>
  JSON.stringify(await rulesOf(client, name)) === JSON.stringify(expected);

/** Ordered union with duplicates dropped, as the controller builds it. */
const union = (...lists: PolicyRule[][]): PolicyRule[] => {
  const out: PolicyRule[] = [];
  for (const rule of lists.flat()) if (!out.some((r) => JSON.stringify(r) === JSON.stringify(rule))) out.push(rule);
  return out;
};

test('admin, edit and view aggregate the default rules, and follow roles labelled aggregate-to-view', async () => {
  const base = createTestClient();
  await ensureBootstrapPolicy(base);
  const { client, writes } = recordingWrites(base);
  const controller = new ClusterRoleAggregationController({ client });
  await controller.start();
  try {
    const toView = await rulesOf(base, 'system:aggregate-to-view');
    const toEdit = await rulesOf(base, 'system:aggregate-to-edit');
    const toAdmin = await rulesOf(base, 'system:aggregate-to-admin');
    // edit matches "system:aggregate-to-edit" and "view" (name order); admin matches "edit" and "system:aggregate-to-admin".
    const edit = union(toEdit, toView);
    await until(async () => sameRules(base, 'view', toView), 'view to aggregate');
    await until(async () => sameRules(base, 'edit', edit), 'edit to aggregate');
    await until(async () => sameRules(base, 'admin', union(edit, toAdmin)), 'admin to aggregate');

    // A CRD author's role: its name sorts before system:aggregate-to-view, so its rules come first in view.
    const crontabs: PolicyRule = { verbs: ['get', 'list', 'watch'], apiGroups: ['stable.example.com'], resources: ['crontabs'] };
    await base.create(CLUSTER_ROLES, undefined, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'aggregate-cron-tabs-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [crontabs],
    });
    const view = union([crontabs], toView);
    await until(async () => sameRules(base, 'view', view), 'view to gain the crontab rule');
    await until(async () => sameRules(base, 'admin', union(union(toEdit, view), toAdmin)), 'admin to gain it through edit');

    // Dropping the label takes the rule out again, all the way up.
    const labelled = await base.get(CLUSTER_ROLES, undefined, 'aggregate-cron-tabs-view');
    await base.update(CLUSTER_ROLES, undefined, { ...labelled, metadata: { ...labelled.metadata, labels: {} } });
    await until(async () => sameRules(base, 'view', toView), 'view to lose the crontab rule');
    await until(async () => sameRules(base, 'admin', union(edit, toAdmin)), 'admin to lose it');

    // A change that alters no union writes nothing: once settled, an unrelated role comes and goes unnoticed.
    const settled = writes.length;
    await base.create(CLUSTER_ROLES, undefined, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'unrelated' },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
    });
    await base.delete(CLUSTER_ROLES, undefined, 'unrelated');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(writes.slice(settled), []);
    assert.ok(
      writes.every((w) => /^patch clusterroles (admin|edit|view)$/.test(w)),
      writes.join(', '),
    );
  } finally {
    await controller.stop();
  }
});

test('a role that matches nothing is emptied, and stop() returns promptly', async () => {
  const client = createTestClient();
  await client.create(CLUSTER_ROLES, undefined, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'lonely' },
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { nobody: 'true' } }] },
    rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
  });
  const controller = new ClusterRoleAggregationController({ client });
  await controller.start();
  try {
    await until(async () => (await rulesOf(client, 'lonely')).length === 0, 'the stale rule to go');
  } finally {
    await controller.stop();
  }
});
