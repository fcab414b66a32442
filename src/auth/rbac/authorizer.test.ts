import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { createInProcessClient } from '../../server/in-process-client.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { BUILTIN_DEFINITIONS } from '../../kinds/definitions.js';
import { BUILTIN_RESOURCES } from '../../kinds/index.js';
import { Registry } from '../../registry/registry.js';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import type { AuthorizationAttributes, Decision } from '../authorizer.js';
import { SYSTEM_MASTERS, serviceAccountUser, type UserInfo } from '../../api/user.js';
import { RbacAuthorizer } from './authorizer.js';
import { privilegedGroupsAuthorizer } from './privileged-groups.js';
import { unionAuthorizer } from './union.js';

const API = 'rbac.authorization.k8s.io/v1';
const rbac = (resource: string): ResourceRef => ({ group: 'rbac.authorization.k8s.io', version: 'v1', resource });
const ROLES = rbac('roles');
const CLUSTER_ROLES = rbac('clusterroles');
const ROLE_BINDINGS = rbac('rolebindings');
const CLUSTER_ROLE_BINDINGS = rbac('clusterrolebindings');

const alice: UserInfo = { name: 'alice', groups: ['dev', 'system:authenticated'] };

const get = (user: UserInfo, resource: string, namespace: string, name = '', sub = ''): AuthorizationAttributes => ({
  user,
  resourceRequest: true,
  verb: 'get',
  apiGroup: '',
  apiVersion: 'v1',
  resource,
  subresource: sub,
  namespace,
  name,
});

const role = (kind: 'Role' | 'ClusterRole', name: string, rules: unknown[], namespace?: string): KubeObject => ({
  apiVersion: API,
  kind,
  metadata: namespace === undefined ? { name } : { name, namespace },
  rules,
});
const binding = (
  kind: 'RoleBinding' | 'ClusterRoleBinding',
  name: string,
  roleRef: [string, string],
  subjects: unknown[],
  namespace?: string,
): KubeObject => ({
  apiVersion: API,
  kind,
  metadata: namespace === undefined ? { name } : { name, namespace },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleRef[0], name: roleRef[1] },
  subjects,
});

/** Polls (bounded) until the authorizer, which follows RBAC through informers, gives the expected decision. */
async function eventually(check: () => Decision, want: Decision, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = check();
    if (got.decision === want.decision && got.reason === want.reason) return;
    if (Date.now() > deadline) assert.deepEqual(got, want);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let backend: ReturnType<typeof createMemoryBackend>;
let client: ApiClient;
let authorizer: RbacAuthorizer;

before(async () => {
  backend = createMemoryBackend();
  client = createInProcessClient(new Registry({ backend, resources: BUILTIN_RESOURCES }), BUILTIN_DEFINITIONS);
  for (const name of ['team', 'other'])
    await client.create({ group: '', version: 'v1', resource: 'namespaces' }, undefined, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    });
  // Present before start: the initial list must already carry it.
  await client.create(
    CLUSTER_ROLES,
    undefined,
    role('ClusterRole', 'pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]),
  );
  authorizer = new RbacAuthorizer();
  await authorizer.start(client);
});

after(async () => {
  await authorizer.stop();
  await backend.close();
});

test("a ClusterRoleBinding to a group allows cluster-wide, with Kubernetes' reason", async () => {
  assert.deepEqual(authorizer.authorize(get(alice, 'pods', 'team', 'p')), { decision: 'noOpinion', reason: '' });
  await client.create(
    CLUSTER_ROLE_BINDINGS,
    undefined,
    binding(
      'ClusterRoleBinding',
      'devs-read-pods',
      ['ClusterRole', 'pod-reader'],
      [{ kind: 'Group', name: 'dev', apiGroup: 'rbac.authorization.k8s.io' }],
    ),
  );
  const allowed = {
    decision: 'allow',
    reason: 'RBAC: allowed by ClusterRoleBinding "devs-read-pods" of ClusterRole "pod-reader" to Group "dev"',
  } as const;
  await eventually(() => authorizer.authorize(get(alice, 'pods', 'team', 'p')), allowed);
  assert.deepEqual(authorizer.authorize(get(alice, 'pods', '')), allowed, 'list across namespaces');
  assert.deepEqual(authorizer.authorize({ ...get(alice, 'pods', 'team'), verb: 'delete' }), { decision: 'noOpinion', reason: '' });
  assert.deepEqual(authorizer.authorize(get(alice, 'pods', 'team', 'p', 'log')), { decision: 'noOpinion', reason: '' });
  assert.deepEqual(authorizer.authorize(get({ name: 'bob', groups: [] }, 'pods', 'team')).decision, 'noOpinion');

  // Editing the role takes effect without touching the binding (the resolution cache is invalidated).
  const current = await client.get(CLUSTER_ROLES, undefined, 'pod-reader');
  await client.update(CLUSTER_ROLES, undefined, {
    ...current,
    rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'pods/log'] }],
  });
  await eventually(() => authorizer.authorize(get(alice, 'pods', 'team', 'p', 'log')), { decision: 'allow', reason: allowed.reason });

  await client.delete(CLUSTER_ROLE_BINDINGS, undefined, 'devs-read-pods');
  await eventually(() => authorizer.authorize(get(alice, 'pods', 'team', 'p')), { decision: 'noOpinion', reason: '' });
});

test("RoleBindings grant only in their namespace; service accounts default to the binding's namespace", async () => {
  const builder = serviceAccountUser('team', 'builder');
  await client.create(
    ROLES,
    'team',
    role(
      'Role',
      'cm-editor',
      [{ verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] }],
      'team',
    ),
  );
  await client.create(
    ROLE_BINDINGS,
    'team',
    binding(
      'RoleBinding',
      'builder-edits',
      ['Role', 'cm-editor'],
      [
        { kind: 'User', name: 'nobody' },
        { kind: 'ServiceAccount', name: 'builder' },
      ],
      'team',
    ),
  );
  await eventually(() => authorizer.authorize(get(builder, 'configmaps', 'team', 'settings')), {
    decision: 'allow',
    reason: 'RBAC: allowed by RoleBinding "builder-edits/team" of Role "cm-editor" to ServiceAccount "builder/team"',
  });
  assert.equal(authorizer.authorize(get(builder, 'configmaps', 'team', 'other')).decision, 'noOpinion', 'resourceNames');
  assert.equal(authorizer.authorize(get(builder, 'configmaps', 'team')).decision, 'noOpinion', 'collections never match names');
  assert.equal(authorizer.authorize(get(builder, 'configmaps', 'other', 'settings')).decision, 'noOpinion', 'other namespace');
  assert.equal(authorizer.authorize(get(serviceAccountUser('other', 'builder'), 'configmaps', 'team', 'settings')).decision, 'noOpinion');

  // A RoleBinding may grant a ClusterRole's rules within its namespace.
  await client.create(
    ROLE_BINDINGS,
    'team',
    binding('RoleBinding', 'alice-reads', ['ClusterRole', 'pod-reader'], [{ kind: 'User', name: 'alice' }], 'team'),
  );
  await eventually(() => authorizer.authorize(get(alice, 'pods', 'team', 'p')), {
    decision: 'allow',
    reason: 'RBAC: allowed by RoleBinding "alice-reads/team" of ClusterRole "pod-reader" to User "alice"',
  });
  assert.equal(authorizer.authorize(get(alice, 'pods', 'other', 'p')).decision, 'noOpinion');
  assert.equal(authorizer.authorize(get(alice, 'pods', '', 'p')).decision, 'noOpinion', 'not cluster-wide');
});

test('non-resource URLs are granted by ClusterRoles', async () => {
  const healthz: AuthorizationAttributes = { user: alice, resourceRequest: false, verb: 'get', path: '/healthz/etcd' };
  await client.create(
    CLUSTER_ROLES,
    undefined,
    role('ClusterRole', 'health', [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/healthz/*'] }]),
  );
  await client.create(
    CLUSTER_ROLE_BINDINGS,
    undefined,
    binding('ClusterRoleBinding', 'health', ['ClusterRole', 'health'], [{ kind: 'Group', name: 'system:authenticated' }]),
  );
  await eventually(() => authorizer.authorize(healthz), {
    decision: 'allow',
    reason: 'RBAC: allowed by ClusterRoleBinding "health" of ClusterRole "health" to Group "system:authenticated"',
  });
  assert.equal(authorizer.authorize({ ...healthz, verb: 'post' }).decision, 'noOpinion');
});

test('a binding to a missing role: no opinion, with the lookup error as the reason', async () => {
  const carol: UserInfo = { name: 'carol', groups: [] };
  await client.create(
    CLUSTER_ROLE_BINDINGS,
    undefined,
    binding('ClusterRoleBinding', 'carol-ghost', ['ClusterRole', 'ghost'], [{ kind: 'User', name: 'carol' }]),
  );
  await eventually(() => authorizer.authorize(get(carol, 'pods', 'team')), {
    decision: 'noOpinion',
    reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found',
  });
  await client.create(
    ROLE_BINDINGS,
    'team',
    binding('RoleBinding', 'carol-ghost', ['Role', 'phantom'], [{ kind: 'User', name: 'carol' }], 'team'),
  );
  await eventually(() => authorizer.authorize(get(carol, 'pods', 'team')), {
    decision: 'noOpinion',
    reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "ghost" not found, role.rbac.authorization.k8s.io "phantom" not found]',
  });
  // Rules are additive: what does resolve still allows.
  await client.create(
    CLUSTER_ROLE_BINDINGS,
    undefined,
    binding('ClusterRoleBinding', 'carol-reads', ['ClusterRole', 'pod-reader'], [{ kind: 'User', name: 'carol' }]),
  );
  await eventually(() => authorizer.authorize(get(carol, 'pods', 'team', 'p')), {
    decision: 'allow',
    reason: 'RBAC: allowed by ClusterRoleBinding "carol-reads" of ClusterRole "pod-reader" to User "carol"',
  });

  const rules = authorizer.rulesFor(carol, 'team');
  assert.deepEqual(rules, {
    resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'pods/log'], resourceNames: [] }],
    nonResourceRules: [],
    incomplete: false,
    evaluationError: '[clusterrole.rbac.authorization.k8s.io "ghost" not found, role.rbac.authorization.k8s.io "phantom" not found]',
  });
  await client.create(
    ROLES,
    'team',
    role('Role', 'phantom', [{ verbs: ['list'], apiGroups: ['apps'], resources: ['deployments'] }], 'team'),
  );
  await eventually(() => ({ decision: 'noOpinion', reason: authorizer.rulesFor(carol, 'team').evaluationError ?? '' }), {
    decision: 'noOpinion',
    reason: 'clusterrole.rbac.authorization.k8s.io "ghost" not found',
  });
});

test('rulesFor: resource and non-resource rules of every binding that applies', async () => {
  const dave: UserInfo = { name: 'dave', groups: ['ops'] };
  await client.create(
    CLUSTER_ROLES,
    undefined,
    role('ClusterRole', 'ops', [
      { verbs: ['get'], nonResourceURLs: ['/metrics'] },
      { verbs: ['*'], apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'] },
    ]),
  );
  await client.create(
    CLUSTER_ROLE_BINDINGS,
    undefined,
    binding('ClusterRoleBinding', 'ops', ['ClusterRole', 'ops'], [{ kind: 'Group', name: 'ops' }]),
  );
  await client.create(
    ROLE_BINDINGS,
    'team',
    binding('RoleBinding', 'dave-cm', ['Role', 'cm-editor'], [{ kind: 'User', name: 'dave' }], 'team'),
  );
  await eventually(() => ({ decision: 'noOpinion', reason: String(authorizer.rulesFor(dave, 'team').resourceRules.length) }), {
    decision: 'noOpinion',
    reason: '2',
  });
  assert.deepEqual(authorizer.rulesFor(dave, 'team'), {
    resourceRules: [
      { verbs: ['*'], apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], resourceNames: [] },
      { verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] },
    ],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }],
    incomplete: false,
  });
  assert.equal(authorizer.rulesFor(dave, 'other').resourceRules.length, 1, 'only the cluster-wide binding elsewhere');
});

test('system:masters are allowed before RBAC is consulted', () => {
  const chain = unionAuthorizer(privilegedGroupsAuthorizer(), authorizer);
  assert.deepEqual(chain.authorize(get({ name: 'admin', groups: [SYSTEM_MASTERS] }, 'secrets', 'team')), { decision: 'allow', reason: '' });
  assert.deepEqual(chain.authorize(get({ name: 'carol', groups: [] }, 'secrets', 'team')).decision, 'noOpinion');
});

test('micro-benchmark: authorize() with 1000 bindings', async () => {
  const user: UserInfo = { name: 'bench-user-500', groups: ['bench-group-7', 'system:authenticated'] };
  await client.create(
    CLUSTER_ROLES,
    undefined,
    role('ClusterRole', 'bench', [{ verbs: ['get'], apiGroups: [''], resources: ['services'] }]),
  );
  for (let i = 0; i < 1000; i++) {
    const subjects = [
      { kind: 'User', name: `bench-user-${i}` },
      { kind: 'Group', name: `bench-group-${i % 50}` },
    ];
    if (i < 500)
      await client.create(
        CLUSTER_ROLE_BINDINGS,
        undefined,
        binding('ClusterRoleBinding', `bench-${i}`, ['ClusterRole', 'bench'], subjects),
      );
    else await client.create(ROLE_BINDINGS, 'team', binding('RoleBinding', `bench-${i}`, ['ClusterRole', 'bench'], subjects, 'team'));
  }
  const hit = get(user, 'services', 'team', 's');
  const miss = get(user, 'secrets', 'team', 's');
  await eventually(() => authorizer.authorize(hit), {
    decision: 'allow',
    reason: 'RBAC: allowed by ClusterRoleBinding "bench-107" of ClusterRole "bench" to Group "bench-group-7"',
  });
  await eventually(() => ({ decision: 'noOpinion', reason: String(authorizer.rulesFor(user, 'team').resourceRules.length) }), {
    decision: 'noOpinion',
    reason: '21',
  });

  const rate = (attrs: AuthorizationAttributes, users: number): number => {
    const n = 200_000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++)
      authorizer.authorize(users === 1 ? attrs : { ...attrs, user: { ...user, name: `bench-user-${i % users}` } });
    return Math.round(n / (Number(process.hrtime.bigint() - started) / 1e9));
  };
  const hits = rate(hit, 1);
  const misses = rate(miss, 1);
  const manyUsers = rate(miss, 1000);
  console.log(`authorize() with 1000 bindings: ${hits}/s allowed, ${misses}/s denied, ${manyUsers}/s denied across 1000 users`);
  assert.ok(hits > 10_000 && misses > 10_000 && manyUsers > 10_000, 'authorize() stays fast');
});
