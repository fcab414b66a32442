import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../../api/errors.js';
import { SYSTEM_AUTHENTICATED, SYSTEM_MASTERS, SYSTEM_UNAUTHENTICATED } from '../../../api/user.js';
import { AUTOUPDATE_ANNOTATION, BOOTSTRAPPING_LABEL } from './bootstrap-metadata.js';
import { CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, ensureBootstrapPolicy } from './ensure.js';
import { CONTROLLER_IDENTITIES } from './identities.js';
import { bootstrapPolicy } from './policy.js';
import type { ClusterRole, ClusterRoleBinding } from './rbac-types.js';
import { createTestClient, recordingWrites } from './testing/registry-client.js';

const getRole = async (client: ReturnType<typeof createTestClient>, name: string) =>
  (await client.get(CLUSTER_ROLES, undefined, name)) as ClusterRole;
const getBinding = async (client: ReturnType<typeof createTestClient>, name: string) =>
  (await client.get(CLUSTER_ROLE_BINDINGS, undefined, name)) as ClusterRoleBinding;

test('bootstrap creates every default role and binding, labelled and annotated as Kubernetes does', async () => {
  const client = createTestClient();
  await ensureBootstrapPolicy(client);

  const roles = new Map((await client.list(CLUSTER_ROLES, undefined)).items.map((r) => [r.metadata.name, r as ClusterRole]));
  for (const name of [
    'cluster-admin',
    'admin',
    'edit',
    'view',
    'system:aggregate-to-admin',
    'system:aggregate-to-edit',
    'system:aggregate-to-view',
    'system:basic-user',
    'system:discovery',
    'system:public-info-viewer',
    'system:monitoring',
    'system:kube-controller-manager',
    'system:controller:generic-garbage-collector',
    'system:controller:namespace-controller',
    'system:controller:clusterrole-aggregation-controller',
    'system:controller:service-account-controller',
    'system:controller:pvc-protection-controller',
    'system:controller:pv-protection-controller',
    'cascade:controller:protection-rule-controller',
  ]) {
    const role = roles.get(name);
    assert.ok(role, `cluster role ${name}`);
    assert.equal(role.metadata.labels?.[BOOTSTRAPPING_LABEL], 'rbac-defaults', name);
    assert.equal(role.metadata.annotations?.[AUTOUPDATE_ANNOTATION], 'true', name);
  }
  assert.deepEqual(roles.get('cluster-admin')?.rules, [
    { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    { verbs: ['*'], nonResourceURLs: ['*'] },
  ]);
  assert.deepEqual(roles.get('view')?.aggregationRule, {
    clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }],
  });
  assert.equal(roles.get('view')?.metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-edit'], 'true');
  assert.equal(roles.get('edit')?.metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-admin'], 'true');
  assert.deepEqual(roles.get('system:controller:clusterrole-aggregation-controller')?.rules, [
    {
      verbs: ['escalate', 'get', 'list', 'patch', 'update', 'watch'],
      apiGroups: ['rbac.authorization.k8s.io'],
      resources: ['clusterroles'],
    },
  ]);
  assert.deepEqual(
    roles.get('system:kube-controller-manager')?.rules?.filter((r) => r.resources?.includes('leases')),
    [
      { verbs: ['create'], apiGroups: ['coordination.k8s.io'], resources: ['leases'] },
      { verbs: ['get', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['kube-controller-manager'] },
    ],
  );

  const subjects = async (name: string) => (await getBinding(client, name)).subjects;
  const group = (name: string) => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name });
  assert.deepEqual(await subjects('cluster-admin'), [group(SYSTEM_MASTERS)]);
  assert.deepEqual(await subjects('system:basic-user'), [group(SYSTEM_AUTHENTICATED)]);
  assert.deepEqual(await subjects('system:discovery'), [group(SYSTEM_AUTHENTICATED)]);
  assert.deepEqual(await subjects('system:public-info-viewer'), [group(SYSTEM_AUTHENTICATED), group(SYSTEM_UNAUTHENTICATED)]);
  assert.deepEqual(await subjects('system:monitoring'), [group('system:monitoring')]);
  assert.deepEqual(await subjects('system:kube-controller-manager'), [
    { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'system:kube-controller-manager' },
  ]);
  assert.deepEqual(await subjects('system:controller:generic-garbage-collector'), [
    { kind: 'ServiceAccount', name: 'generic-garbage-collector', namespace: 'kube-system' },
  ]);
  const gcBinding = await getBinding(client, 'system:controller:namespace-controller');
  assert.deepEqual(gcBinding.roleRef, {
    apiGroup: 'rbac.authorization.k8s.io',
    kind: 'ClusterRole',
    name: 'system:controller:namespace-controller',
  });
  assert.equal(gcBinding.metadata.annotations?.[AUTOUPDATE_ANNOTATION], 'true');
  assert.equal(CONTROLLER_IDENTITIES.garbageCollector.name, 'system:serviceaccount:kube-system:generic-garbage-collector');
  assert.deepEqual(await subjects('cascade:controller:protection-rule-controller'), [
    { kind: 'ServiceAccount', name: 'protection-rule-controller', namespace: 'kube-system' },
  ]);
  assert.equal(CONTROLLER_IDENTITIES.protectionRules.name, 'system:serviceaccount:kube-system:protection-rule-controller');

  const policy = bootstrapPolicy();
  assert.equal(roles.size, policy.clusterRoles.length);
  assert.equal((await client.list(CLUSTER_ROLE_BINDINGS, undefined)).items.length, policy.clusterRoleBindings.length);
});

test('a second run writes nothing', async () => {
  const base = createTestClient();
  await ensureBootstrapPolicy(base);
  const { client, writes } = recordingWrites(base);
  await ensureBootstrapPolicy(client);
  assert.deepEqual(writes, []);
});

test('reconciliation adds missing rules, subjects and labels but keeps what users added', async () => {
  const client = createTestClient();
  await ensureBootstrapPolicy(client);

  // A user narrows a default role (drops its namespaces rule and the watch verb elsewhere) and adds a rule of their own.
  const view = await getRole(client, 'system:aggregate-to-view');
  const userRule = { verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] };
  const original = structuredClone(view.rules ?? []);
  view.rules = original.filter((r) => !(r.resources?.length === 1 && r.resources[0] === 'namespaces'));
  const endpointSlices = view.rules.find((r) => r.apiGroups?.[0] === 'discovery.k8s.io');
  assert.ok(endpointSlices);
  endpointSlices.verbs = ['get', 'list'];
  view.rules.push(userRule);
  view.metadata.labels = { ...view.metadata.labels, [BOOTSTRAPPING_LABEL]: 'changed-by-user', team: 'a' };
  await client.update(CLUSTER_ROLES, undefined, view);

  const binding = await getBinding(client, 'system:public-info-viewer');
  const userSubject = { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' };
  binding.subjects = [userSubject];
  await client.update(CLUSTER_ROLE_BINDINGS, undefined, binding);

  await ensureBootstrapPolicy(client);

  const after = await getRole(client, 'system:aggregate-to-view');
  // Kubernetes appends what is missing, broken down to single verbs, in the default role's order.
  assert.deepEqual(after.rules, [
    ...view.rules,
    { verbs: ['get'], apiGroups: [''], resources: ['namespaces'] },
    { verbs: ['list'], apiGroups: [''], resources: ['namespaces'] },
    { verbs: ['watch'], apiGroups: [''], resources: ['namespaces'] },
    { verbs: ['watch'], apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'] },
  ]);
  assert.equal(after.metadata.labels?.[BOOTSTRAPPING_LABEL], 'changed-by-user', 'existing label values win');
  assert.equal(after.metadata.labels?.team, 'a');
  assert.equal(after.metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-view'], 'true');

  assert.deepEqual((await getBinding(client, 'system:public-info-viewer')).subjects, [
    userSubject,
    { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: SYSTEM_AUTHENTICATED },
    { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: SYSTEM_UNAUTHENTICATED },
  ]);

  // Once reconciled, the result is stable.
  const { client: recording, writes } = recordingWrites(client);
  await ensureBootstrapPolicy(recording);
  assert.deepEqual(writes, []);
});

test('objects annotated autoupdate=false are left alone, deleted defaults come back', async () => {
  const base = createTestClient();
  await ensureBootstrapPolicy(base);

  const basic = await getRole(base, 'system:basic-user');
  basic.metadata.annotations = { [AUTOUPDATE_ANNOTATION]: 'false' };
  basic.rules = [{ verbs: ['get'], nonResourceURLs: ['/version'] }];
  const protectedRole = await base.update(CLUSTER_ROLES, undefined, basic);

  const binding = await getBinding(base, 'system:discovery');
  binding.metadata.annotations = { [AUTOUPDATE_ANNOTATION]: 'false' };
  binding.subjects = [];
  const protectedBinding = await base.update(CLUSTER_ROLE_BINDINGS, undefined, binding);

  await base.delete(CLUSTER_ROLES, undefined, 'system:monitoring');

  const { client, writes } = recordingWrites(base);
  await ensureBootstrapPolicy(client);
  assert.deepEqual(writes, ['create clusterroles system:monitoring']);
  assert.deepEqual(await getRole(base, 'system:basic-user'), protectedRole);
  assert.deepEqual(await getBinding(base, 'system:discovery'), protectedBinding);
});

test('a binding whose roleRef changed is recreated, keeping its subjects', async () => {
  const base = createTestClient();
  await ensureBootstrapPolicy(base);
  await base.delete(CLUSTER_ROLE_BINDINGS, undefined, 'system:monitoring');
  const extra = { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'ops' };
  await base.create(CLUSTER_ROLE_BINDINGS, undefined, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'system:monitoring' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [extra],
  });
  await ensureBootstrapPolicy(base);
  const binding = await getBinding(base, 'system:monitoring');
  assert.equal(binding.roleRef.name, 'system:monitoring');
  assert.deepEqual(binding.subjects, [extra, { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:monitoring' }]);
});

test('a write that conflicts with a concurrent one is retried from fresh state', async () => {
  const base = createTestClient();
  await ensureBootstrapPolicy(base);
  const role = await getRole(base, 'system:aggregate-to-admin');
  role.rules = [];
  await base.update(CLUSTER_ROLES, undefined, role);

  let conflicts = 0;
  const client = {
    ...base,
    update: async (...args: Parameters<typeof base.update>) => {
      if (conflicts === 0) {
        conflicts++;
        // Someone else writes first, so our resourceVersion is stale.
        const current = await base.get(CLUSTER_ROLES, undefined, 'system:aggregate-to-admin');
        await base.update(CLUSTER_ROLES, undefined, {
          ...current,
          metadata: { ...current.metadata, labels: { ...current.metadata.labels, raced: 'yes' } },
        });
      }
      return base.update(...args);
    },
  };
  await ensureBootstrapPolicy(client);
  const after = await getRole(base, 'system:aggregate-to-admin');
  assert.equal(conflicts, 1);
  assert.equal(after.metadata.labels?.raced, 'yes');
  assert.equal(after.rules?.length, 1 + 8 * 2, 'localsubjectaccessreviews create, then 8 verbs on roles and rolebindings');
});

test('an error other than a conflict is reported after every other object was tried', async () => {
  const base = createTestClient();
  const client = {
    ...base,
    create: async (...args: Parameters<typeof base.create>) => {
      if (args[2].metadata.name === 'view') throw new StatusError(500, 'InternalError', 'boom');
      return base.create(...args);
    },
  };
  await assert.rejects(ensureBootstrapPolicy(client), /clusterroles view: boom/);
  await getRole(base, 'system:aggregate-to-view');
  await getBinding(base, 'cluster-admin');
});
