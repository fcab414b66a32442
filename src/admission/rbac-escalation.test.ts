import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { RbacAuthorizer } from '../auth/rbac/authorizer.js';
import { privilegedGroupsAuthorizer } from '../auth/rbac/privileged-groups.js';
import { unionAuthorizer } from '../auth/rbac/union.js';
import { SYSTEM_MASTERS, type UserInfo } from '../api/user.js';
import { createInProcessClient } from '../server/in-process-client.js';
import type { ApiClient } from '../client/interface.js';
import { BUILTIN_DEFINITIONS } from '../kinds/definitions.js';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { Registry } from '../registry/registry.js';
import type { ResourceStore } from '../registry/store.js';
import { createMemoryBackend } from '../storage/memory/backend.js';
import { AdmissionChain } from '../registry/admission/chain.js';
import { rbacEscalationAdmission } from './rbac-escalation.js';

const GROUP = 'rbac.authorization.k8s.io';
const API = `${GROUP}/v1`;
const alice: UserInfo = { name: 'alice', groups: ['dev', 'system:authenticated'] };
const admin: UserInfo = { name: 'root', groups: [SYSTEM_MASTERS] };

const role = (
  kind: 'Role' | 'ClusterRole',
  name: string,
  rules: unknown[],
  namespace?: string,
  extra: Record<string, unknown> = {},
): KubeObject => ({
  apiVersion: API,
  kind,
  metadata: namespace === undefined ? { name } : { name, namespace },
  rules,
  ...extra,
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
  roleRef: { apiGroup: GROUP, kind: roleRef[0], name: roleRef[1] },
  subjects,
});
const toAlice = [{ kind: 'User', name: 'alice' }];

let backend: ReturnType<typeof createMemoryBackend>;
let registry: Registry;
let server: ApiClient;
let rbac: RbacAuthorizer;
const store = (plural: string): ResourceStore => registry.lookup(GROUP, 'v1', plural) as ResourceStore;

/**
 * Writes as the server (no user), then waits (bounded) until the authorizer's informers show it: roles by being
 * found, bindings through `visible`.
 */
async function seed(plural: string, obj: KubeObject, visible?: () => boolean): Promise<void> {
  await server.create({ group: GROUP, version: 'v1', resource: plural }, obj.metadata.namespace, obj);
  const ref = { apiGroup: GROUP, kind: obj.kind ?? '', name: obj.metadata.name ?? '' };
  const seen = visible ?? (() => rbac.roleRules(ref, obj.metadata.namespace ?? '').found);
  const deadline = Date.now() + 5000;
  while (!seen()) {
    if (Date.now() > deadline) throw new Error(`the authorizer never saw ${plural}/${obj.metadata.name}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** True once `user` holds `count` rules in `namespace`. */
const holds = (user: UserInfo, namespace: string, count: number) => (): boolean =>
  rbac.policyRulesFor(user, namespace).rules.length === count;

async function rejects(write: Promise<unknown>, code: number, message: string): Promise<void> {
  await assert.rejects(write, (err: unknown) => {
    assert.ok(err instanceof StatusError, String(err));
    assert.equal(err.message, message);
    assert.equal(err.code, code);
    return true;
  });
}

before(async () => {
  backend = createMemoryBackend();
  rbac = new RbacAuthorizer();
  const chain = unionAuthorizer(privilegedGroupsAuthorizer(), rbac);
  registry = new Registry({
    backend,
    resources: BUILTIN_RESOURCES,
    admission: new AdmissionChain(
      [],
      [
        rbacEscalationAdmission(
          () => chain,
          () => rbac,
        ),
      ],
    ),
  });
  server = createInProcessClient(registry, BUILTIN_DEFINITIONS);
  await rbac.start(server);
  await seed('clusterroles', role('ClusterRole', 'pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]));
  await seed('clusterroles', role('ClusterRole', 'secret-admin', [{ verbs: ['*'], apiGroups: [''], resources: ['secrets'] }]));
  await seed(
    'rolebindings',
    binding('RoleBinding', 'alice-reads', ['ClusterRole', 'pod-reader'], toAlice, 'team'),
    holds(alice, 'team', 1),
  );
});

after(async () => {
  await rbac.stop();
  await backend.close();
});

test("roles: granting what one holds is allowed, anything more is refused with Kubernetes' message", async () => {
  await store('roles').create('team', role('Role', 'subset', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], 'team'), {
    user: alice,
  });
  await rejects(
    store('roles').create(
      'team',
      role(
        'Role',
        'too-much',
        [
          { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] },
          { verbs: ['get'], apiGroups: [''], resources: ['secrets'] },
        ],
        'team',
      ),
      { user: alice },
    ),
    403,
    'roles.rbac.authorization.k8s.io "too-much" is forbidden: user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC ' +
      'permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["watch"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
  );
  // The rules held in one namespace do not count in another.
  await rejects(
    store('roles').create('other', role('Role', 'elsewhere', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], 'other'), {
      user: alice,
    }),
    403,
    'roles.rbac.authorization.k8s.io "elsewhere" is forbidden: user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC ' +
      'permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
  );
  // The server itself and system:masters are never checked.
  await store('roles').create('other', role('Role', 'by-server', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], 'other'));
  await store('roles').create('other', role('Role', 'by-admin', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], 'other'), {
    user: admin,
  });
});

test('roles: the escalate verb allows granting anything (creates are asked with an empty name)', async () => {
  const bob: UserInfo = { name: 'bob', groups: [] };
  await seed(
    'roles',
    role('Role', 'escalate-one', [{ verbs: ['escalate'], apiGroups: [GROUP], resources: ['roles'], resourceNames: ['open'] }], 'team'),
  );
  await seed(
    'rolebindings',
    binding('RoleBinding', 'bob-escalates', ['Role', 'escalate-one'], [{ kind: 'User', name: 'bob' }], 'team'),
    holds(bob, 'team', 1),
  );
  const wide = [{ verbs: ['*'], apiGroups: [''], resources: ['secrets'] }];
  await seed('roles', role('Role', 'open', [], 'team'));
  const open = await store('roles').get('team', 'open');
  await store('roles').update('team', 'open', { ...open, rules: wide }, { user: bob });
  await assert.rejects(store('roles').create('team', role('Role', 'fresh', wide, 'team'), { user: bob }), { code: 403 });

  await seed('roles', role('Role', 'escalate-all', [{ verbs: ['escalate'], apiGroups: [GROUP], resources: ['roles'] }], 'team'));
  await seed(
    'rolebindings',
    binding('RoleBinding', 'bob-escalates-all', ['Role', 'escalate-all'], [{ kind: 'User', name: 'bob' }], 'team'),
    holds(bob, 'team', 2),
  );
  await store('roles').create('team', role('Role', 'fresh', wide, 'team'), { user: bob });
});

test('clusterroles: checked against cluster-wide bindings only; aggregationRule needs full authority', async () => {
  await rejects(
    store('clusterroles').create(undefined, role('ClusterRole', 'cr-pods', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), {
      user: alice,
    }),
    403,
    'clusterroles.rbac.authorization.k8s.io "cr-pods" is forbidden: user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant ' +
      'RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
  );
  await rejects(
    store('clusterroles').create(
      undefined,
      role('ClusterRole', 'aggregated', [], undefined, { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } }),
      { user: alice },
    ),
    403,
    'clusterroles.rbac.authorization.k8s.io "aggregated" is forbidden: must have cluster-admin privileges to use the aggregationRule',
  );
});

test("bindings: allowed when holding the role's permissions or the bind verb on it; else 403, or 404 for a missing role", async () => {
  await store('rolebindings').create(
    'team',
    binding('RoleBinding', 'share-pods', ['ClusterRole', 'pod-reader'], [{ kind: 'User', name: 'carol' }], 'team'),
    { user: alice },
  );
  await rejects(
    store('rolebindings').create('team', binding('RoleBinding', 'share-secrets', ['ClusterRole', 'secret-admin'], toAlice, 'team'), {
      user: alice,
    }),
    403,
    'rolebindings.rbac.authorization.k8s.io "share-secrets" is forbidden: user "alice" (groups=["dev" "system:authenticated"]) is attempting to ' +
      'grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["*"]}',
  );
  // Holding pod-reader in "team" is not holding it cluster-wide.
  await rejects(
    store('clusterrolebindings').create(undefined, binding('ClusterRoleBinding', 'everyone-pods', ['ClusterRole', 'pod-reader'], toAlice), {
      user: alice,
    }),
    403,
    'clusterrolebindings.rbac.authorization.k8s.io "everyone-pods" is forbidden: user "alice" (groups=["dev" "system:authenticated"]) is ' +
      'attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
  );
  await rejects(
    store('rolebindings').create('team', binding('RoleBinding', 'to-ghost', ['ClusterRole', 'ghost'], toAlice, 'team'), { user: alice }),
    404,
    'clusterroles.rbac.authorization.k8s.io "ghost" not found',
  );

  // bind on that one ClusterRole, in that namespace.
  await seed(
    'clusterroles',
    role('ClusterRole', 'binder', [
      { verbs: ['bind'], apiGroups: [GROUP], resources: ['clusterroles'], resourceNames: ['secret-admin', 'ghost'] },
    ]),
  );
  await seed('rolebindings', binding('RoleBinding', 'alice-binds', ['ClusterRole', 'binder'], toAlice, 'team'), holds(alice, 'team', 2));
  await store('rolebindings').create('team', binding('RoleBinding', 'share-secrets', ['ClusterRole', 'secret-admin'], toAlice, 'team'), {
    user: alice,
  });
  await store('rolebindings').create('team', binding('RoleBinding', 'to-ghost', ['ClusterRole', 'ghost'], toAlice, 'team'), {
    user: alice,
  });
  await assert.rejects(
    store('rolebindings').create('other', binding('RoleBinding', 'share-secrets', ['ClusterRole', 'secret-admin'], toAlice, 'other'), {
      user: alice,
    }),
    { code: 403 },
  );
});

test("missing roles among one's own bindings are reported as resolution errors", async () => {
  const dan: UserInfo = { name: 'dan', groups: [] };
  await seed(
    'clusterrolebindings',
    binding('ClusterRoleBinding', 'dan-ghost', ['ClusterRole', 'ghost'], [{ kind: 'User', name: 'dan' }]),
    () => rbac.policyRulesFor(dan, 'team').errors.length === 1,
  );
  await rejects(
    store('roles').create('team', role('Role', 'dans', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], 'team'), { user: dan }),
    403,
    'roles.rbac.authorization.k8s.io "dans" is forbidden: user "dan" (groups=[]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}; resolution errors: [clusterrole.rbac.authorization.k8s.io "ghost" not found]',
  );
});

test('updates that only change owner references or finalizers are not checked', async () => {
  const eve: UserInfo = { name: 'eve', groups: [] };
  const current = await store('rolebindings').get('team', 'share-secrets');
  const updated = await store('rolebindings').update(
    'team',
    'share-secrets',
    { ...current, metadata: { ...current.metadata, finalizers: ['example.com/hold'] } },
    { user: eve },
  );
  assert.deepEqual(updated.metadata.finalizers, ['example.com/hold']);
  await assert.rejects(
    store('rolebindings').update('team', 'share-secrets', { ...updated, subjects: [{ kind: 'User', name: 'eve' }] }, { user: eve }),
    { code: 403 },
  );
});
