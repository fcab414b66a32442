import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bindClusterRole, bindRole, createClusterRole, createNamespace, createRole, waitForAccess } from '../support/security-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 6 acceptance: `kubectl auth can-i` answers correctly for a matrix of users × verbs × resources, judged against
// Kubernetes' default roles (bootstrappolicy: view reads most things but not secrets; edit writes workloads, config
// and secrets but not pods/status or RBAC; neither touches cluster-scoped RBAC).

const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'] as const;
type Verb = (typeof VERBS)[number];
const READ: readonly Verb[] = ['get', 'list', 'watch'];
const ALL: readonly Verb[] = VERBS;
const NONE: readonly Verb[] = [];

/** One column of the matrix: the kubectl arguments naming the resource, and whether it lives in a namespace. */
interface Target {
  readonly label: string;
  readonly args: readonly string[];
  readonly namespaced: boolean;
}
const TARGETS: readonly Target[] = [
  { label: 'configmaps', args: ['configmaps'], namespaced: true },
  { label: 'secrets', args: ['secrets'], namespaced: true },
  { label: 'pods/status', args: ['pods', '--subresource=status'], namespaced: true },
  { label: 'deployments.apps', args: ['deployments.apps'], namespaced: true },
  { label: 'namespaces', args: ['namespaces'], namespaced: false },
  { label: 'clusterroles', args: ['clusterroles.rbac.authorization.k8s.io'], namespaced: false },
];

/** A row: who asks (none = the admin itself) and which verbs it is allowed per target. */
interface Asker {
  readonly label: string;
  readonly impersonate: readonly string[];
  readonly allowed: Readonly<Record<string, readonly Verb[]>>;
}

const NS = 'a';
const SA = `system:serviceaccount:${NS}:robot`;
const ASKERS: readonly Asker[] = [
  {
    label: 'cascade-admin (system:masters)',
    impersonate: [],
    allowed: Object.fromEntries(TARGETS.map((t) => [t.label, ALL])),
  },
  {
    // edit bound in namespace a: writes config, secrets and workloads; pods/status and namespaces only read.
    label: 'alice (edit in a)',
    impersonate: ['--as=alice'],
    allowed: { configmaps: ALL, secrets: ALL, 'pods/status': READ, 'deployments.apps': ALL, namespaces: NONE, clusterroles: NONE },
  },
  {
    // view bound cluster-wide: reads everything but secrets, namespaces included, RBAC excluded.
    label: 'bob (view cluster-wide)',
    impersonate: ['--as=bob'],
    allowed: { configmaps: READ, secrets: NONE, 'pods/status': READ, 'deployments.apps': READ, namespaces: READ, clusterroles: NONE },
  },
  {
    // A Role naming one ConfigMap: without that name nothing is allowed.
    label: `${SA} (Role on configmap "settings")`,
    impersonate: [`--as=${SA}`],
    allowed: { configmaps: NONE, secrets: NONE, 'pods/status': NONE, 'deployments.apps': NONE, namespaces: NONE, clusterroles: NONE },
  },
];

/** Runs `work` over `items` with at most `limit` running at once (kubectl processes are the cost). */
async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

describe('kubectl auth can-i (issue 6)', () => {
  let ts: TestServer;

  /** `kubectl auth can-i`: "yes" exits 0, "no" exits 1, both on stdout. */
  const canI = async (args: readonly string[]): Promise<'yes' | 'no'> => {
    const r = await ts.kubectl(['auth', 'can-i', ...args]);
    if (r.code === 0 && r.stdout === 'yes\n') return 'yes';
    if (r.code === 1 && r.stdout === 'no\n') return 'no';
    throw new Error(`kubectl auth can-i ${args.join(' ')}: exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  };

  before(async () => {
    ts = await startTestServer({ secure: {} });
    await createNamespace(ts, NS);
    await createNamespace(ts, 'b');
    await bindRole(ts, NS, 'alice-edit', { kind: 'ClusterRole', name: 'edit' }, [{ kind: 'User', name: 'alice' }]);
    await bindClusterRole(ts, 'bob-view', 'view', [{ kind: 'User', name: 'bob' }]);
    await createRole(ts, NS, 'settings-only', [
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'], verbs: ['get', 'update', 'patch', 'delete'] },
    ]);
    await bindRole(ts, NS, 'robot-settings', { kind: 'Role', name: 'settings-only' }, [
      { kind: 'ServiceAccount', name: 'robot', namespace: NS },
    ]);
    await waitForAccess(ts, { user: 'alice', resourceAttributes: { namespace: NS, verb: 'create', resource: 'secrets' } });
    await waitForAccess(ts, { user: 'bob', resourceAttributes: { verb: 'list', resource: 'namespaces' } });
    await waitForAccess(ts, {
      user: SA,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated'],
      resourceAttributes: { namespace: NS, verb: 'get', resource: 'configmaps', name: 'settings' },
    });
  });
  after(async () => {
    await ts.stop();
  });

  it('answers every user × verb × resource as Kubernetes’ default roles do', async () => {
    const cases = ASKERS.flatMap((asker) =>
      TARGETS.flatMap((target) =>
        VERBS.map((verb) => ({
          asker,
          target,
          verb,
          expected: (asker.allowed[target.label] ?? NONE).includes(verb) ? 'yes' : 'no',
          // Cluster-scoped questions are asked without a namespace (-A), so namespaced bindings cannot answer them.
          args: [verb, ...target.args, ...(target.namespaced ? ['-n', NS] : ['-A']), ...asker.impersonate],
        })),
      ),
    );
    const answers = await inBatches(cases, 16, (c) => canI(c.args));
    const wrong = cases
      .map((c, i) => ({ ...c, actual: answers[i] }))
      .filter((c) => c.actual !== c.expected)
      .map((c) => `${c.asker.label}: ${c.verb} ${c.target.label} → ${c.actual}, expected ${c.expected}`);
    assert.deepEqual(wrong, []);
  });

  it('namespaced grants stay in their namespace; resourceNames limit the service account to the one object', async () => {
    assert.equal(await canI(['get', 'configmaps', '-n', 'b', '--as=alice']), 'no');
    assert.equal(await canI(['create', 'deployments.apps', '-n', 'b', '--as=alice']), 'no');
    assert.equal(await canI(['get', 'configmaps', '-n', 'b', '--as=bob']), 'yes');
    // edit and view never include RBAC objects; admin (not bound here) would.
    assert.equal(await canI(['create', 'roles.rbac.authorization.k8s.io', '-n', NS, '--as=alice']), 'no');
    assert.equal(await canI(['create', 'rolebindings.rbac.authorization.k8s.io', '-n', NS, '--as=alice']), 'no');
    assert.equal(await canI(['get', 'secrets', '-n', NS, '--as=bob']), 'no');

    for (const verb of ['get', 'update', 'patch', 'delete']) {
      assert.equal(await canI([verb, 'configmaps/settings', '-n', NS, `--as=${SA}`]), 'yes', verb);
      assert.equal(await canI([verb, 'configmaps/other', '-n', NS, `--as=${SA}`]), 'no', verb);
    }
    assert.equal(await canI(['list', 'configmaps/settings', '-n', NS, `--as=${SA}`]), 'no');
    assert.equal(await canI(['get', 'configmaps/settings', '-n', 'b', `--as=${SA}`]), 'no');
  });

  it('non-resource URLs: health and discovery for every authenticated user, /metrics for the admin only', async () => {
    for (const impersonate of [[], ['--as=alice'], ['--as=bob'], [`--as=${SA}`]]) {
      assert.equal(await canI(['get', '/healthz', ...impersonate]), 'yes', impersonate.join());
      assert.equal(await canI(['get', '/version', ...impersonate]), 'yes', impersonate.join());
      assert.equal(await canI(['get', '/apis/apps', ...impersonate]), 'yes', impersonate.join());
    }
    assert.equal(await canI(['get', '/metrics']), 'yes');
    assert.equal(await canI(['get', '/metrics', '--as=alice']), 'no');
    assert.equal(await canI(['post', '/healthz', '--as=alice']), 'no');
    assert.equal(await canI(['get', '/logs/', '--as=bob']), 'no');
  });

  it('--list shows the rules that apply in the namespace', async () => {
    const rows = async (args: readonly string[]): Promise<string[]> => {
      const out = await ts.kubectlOk(['auth', 'can-i', '--list', '--no-headers', ...args]);
      return out
        .split('\n')
        .filter((line) => line !== '')
        .map((line) =>
          line
            .trim()
            .split(/\s{2,}/)
            .join(' | '),
        );
    };
    const robot = await rows(['-n', NS, `--as=${SA}`]);
    assert.ok(robot.includes('configmaps | [] | [settings] | [get update patch delete]'), robot.join('\n'));
    // Every authenticated user may review itself and read discovery and health.
    assert.ok(robot.includes('selfsubjectaccessreviews.authorization.k8s.io | [] | [] | [create]'), robot.join('\n'));
    assert.ok(robot.includes('selfsubjectrulesreviews.authorization.k8s.io | [] | [] | [create]'), robot.join('\n'));
    assert.ok(robot.includes('[/healthz] | [] | [get]'), robot.join('\n'));
    assert.ok(!robot.some((row) => row.startsWith('secrets')), robot.join('\n'));

    const alice = await rows(['-n', NS, '--as=alice']);
    assert.ok(alice.includes('secrets | [] | [] | [get list watch create delete deletecollection patch update]'), alice.join('\n'));
    const aliceElsewhere = await rows(['-n', 'b', '--as=alice']);
    assert.ok(!aliceElsewhere.some((row) => row.startsWith('secrets') || row.startsWith('configmaps ')), aliceElsewhere.join('\n'));

    const admin = await rows(['-n', NS]);
    assert.equal(admin[0], '*.* | [] | [] | [*]');
    assert.equal(admin[1], '[*] | [] | [*]');
  });

  it('a ClusterRole labelled aggregate-to-view is aggregated into view (and through view into edit), and removed again', async () => {
    // Neither view nor edit reads nodes. bob's view is cluster-wide; alice's edit binding answers questions asked in
    // namespace a, even about a cluster-scoped resource (RBAC only sees the attributes).
    const bobLists = ['list', 'nodes', '-A', '--as=bob'];
    const aliceLists = ['list', 'nodes', '-n', NS, '--as=alice'];
    assert.equal(await canI(bobLists), 'no');
    assert.equal(await canI(aliceLists), 'no');

    await createClusterRole(ts, 'node-viewer', [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] }], {
      'rbac.authorization.k8s.io/aggregate-to-view': 'true',
    });
    await waitFor(async () => ((await canI(bobLists)) === 'yes' ? true : undefined), {
      timeoutMs: 5000,
      what: 'view to aggregate node-viewer',
    });
    await waitFor(async () => ((await canI(aliceLists)) === 'yes' ? true : undefined), { timeoutMs: 5000, what: 'edit to aggregate view' });
    assert.equal(await canI(['delete', 'nodes', '-A', '--as=bob']), 'no');
    for (const role of ['view', 'edit', 'admin']) {
      const json = JSON.parse(await ts.kubectlOk(['get', 'clusterrole', role, '-o', 'json']));
      assert.ok(
        json.rules.some((r: any) => r.resources?.includes('nodes') && r.verbs?.join() === 'get,list,watch'),
        `${role}: ${JSON.stringify(json.rules)}`,
      );
    }

    await ts.kubectlOk(['delete', 'clusterrole', 'node-viewer']);
    await waitFor(async () => ((await canI(bobLists)) === 'no' ? true : undefined), { timeoutMs: 5000, what: 'view to drop node-viewer' });
    await waitFor(async () => ((await canI(aliceLists)) === 'no' ? true : undefined), { timeoutMs: 5000, what: 'edit to drop it too' });
  });
});
