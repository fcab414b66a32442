import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { type KubectlProcess, startKubectl } from '../support/kubectl-process.js';
import { waitFor } from '../../src/embed/index.js';
import { type KubectlResult, startTestServer, type TestServer } from '../support/test-server.js';

// Namespace termination through kubectl (issue 11 acceptance; spec §3 NamespaceLifecycle and §5; scenarios NS-01–NS-05).
const HOLD = 'example.com/hold';
const NAMESPACE_KINDS = ['configmaps', 'secrets', 'deployments.apps', 'pods'];

type Json = Record<string, any>;

/** Everything a busy namespace holds: config, workloads, and pods, two of them bound to a node (R2.17). */
function content(ns: string): string {
  const docs: string[] = [`apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`];
  for (let i = 0; i < 3; i++)
    docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-${i}\n  namespace: ${ns}\ndata:\n  k: v\n`);
  for (let i = 0; i < 2; i++)
    docs.push(`apiVersion: v1\nkind: Secret\nmetadata:\n  name: secret-${i}\n  namespace: ${ns}\nstringData:\n  password: p${i}\n`);
  docs.push(
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: ${ns}\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: c\n        image: nginx\n`,
  );
  const pod = (name: string, extra: string): string =>
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nspec:\n${extra}  containers:\n  - name: c\n    image: nginx\n`;
  docs.push(pod('pending', ''));
  docs.push(pod('bound-default', '  nodeName: node-a\n'));
  docs.push(pod('bound-short', '  nodeName: node-a\n  terminationGracePeriodSeconds: 5\n'));
  return docs.join('---\n');
}

describe('kubectl and namespace termination (issue 11 acceptance)', () => {
  let ts: TestServer;
  const watchers: KubectlProcess[] = [];

  const get = async (path: string): Promise<Json | undefined> => {
    const res = await ts.request('GET', path);
    if (res.status === 404) return undefined;
    assert.equal(res.status, 200, res.text);
    return res.json;
  };
  const nsJson = async (name: string): Promise<Json> => JSON.parse(await ts.kubectlOk(['get', 'ns', name, '-o', 'json']));
  const watchNamespace = async (name: string): Promise<KubectlProcess> => {
    const w = startKubectl(ts, ['get', 'ns', name, '--watch', '--output-watch-events', '--no-headers']);
    watchers.push(w);
    await w.waitForStdout(new RegExp(`^ADDED\\s+${name}\\s+Active`, 'm'));
    return w;
  };
  const deleteNamespace = (name: string, ...flags: string[]): Promise<KubectlResult> =>
    ts.kubectl(['delete', 'ns', name, ...flags], { timeoutMs: 20_000 });
  const release = async (ns: string, cm: string): Promise<void> => {
    await ts.kubectlOk(['patch', 'cm', cm, '-n', ns, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  };
  /** A namespace holding one ConfigMap that only its (absent) controller may release, deleted without waiting. */
  const heldNamespace = async (ns: string): Promise<void> => {
    await ts.kubectlOk(['create', 'ns', ns]);
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  namespace: ${ns}\n  finalizers: [${HOLD}]\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: free\n  namespace: ${ns}\n`,
    });
    assert.equal(await ts.kubectlOk(['delete', 'ns', ns, '--wait=false']), `namespace "${ns}" deleted\n`);
  };

  before(async () => {
    ts = await startTestServer();
  });
  after(async () => {
    for (const w of watchers) await w.stop();
    await ts.stop();
  });

  it('NS-01: kubectl delete ns --wait returns once all content is gone; a watcher sees Terminating, then DELETED', async () => {
    const ns = 'busy';
    await ts.kubectlOk(['apply', '-f', '-'], { input: content(ns) });
    const watcher = await watchNamespace(ns);

    const deleting = deleteNamespace(ns, '--wait');
    let finished = false;
    void deleting.then(() => {
      finished = true;
    });
    // Play the kubelet: once a bound pod is marked for deletion, its containers "stop" and it is removed (R2.19).
    const marked = await waitFor(
      async () => {
        const list = await get(`/api/v1/namespaces/${ns}/pods`);
        const bound = (list?.items ?? []).filter((p: Json) => p.spec.nodeName === 'node-a');
        return bound.length === 2 && bound.every((p: Json) => p.metadata.deletionTimestamp !== undefined) ? bound : undefined;
      },
      { timeoutMs: 5000, what: 'the namespace controller to mark the bound pods' },
    );
    const grace = Object.fromEntries(marked.map((p: Json) => [p.metadata.name, p.metadata.deletionGracePeriodSeconds]));
    assert.deepEqual(grace, { 'bound-default': 30, 'bound-short': 5 }, 'each bound pod gets its own grace period (R5.14)');
    assert.equal(finished, false, 'kubectl must not return while pods are still terminating');
    const row = (await ts.kubectlOk(['get', 'ns', ns, '--no-headers'])).trim().split(/\s+/);
    assert.equal(row[1], 'Terminating');
    for (const p of marked) {
      const res = await ts.request('DELETE', `/api/v1/namespaces/${ns}/pods/${p.metadata.name}?gracePeriodSeconds=0`);
      assert.equal(res.status, 200, res.text);
    }

    const r = await deleting;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `namespace "${ns}" deleted\n`);
    assert.equal(await get(`/api/v1/namespaces/${ns}`), undefined);
    for (const kind of NAMESPACE_KINDS) {
      assert.equal(await ts.kubectlOk(['get', kind, '-n', ns, '-o', 'name']), '', `no ${kind} left`);
    }

    await watcher.waitForStdout(new RegExp(`^DELETED\\s+${ns}\\s`, 'm'));
    const events = watcher
      .stdout()
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s+/).slice(0, 3).join(' '));
    const terminating = events.indexOf(`MODIFIED ${ns} Terminating`);
    assert.ok(terminating > 0, `a MODIFIED event shows Terminating:\n${watcher.stdout()}`);
    assert.ok(
      events.findIndex((e) => e.startsWith(`DELETED ${ns}`)) > terminating,
      `DELETED comes after Terminating:\n${watcher.stdout()}`,
    );
    assert.ok(
      events.slice(terminating).every((e) => !e.endsWith(' Active')),
      `the namespace never returns to Active:\n${watcher.stdout()}`,
    );

    // NS-01: the same name can be used again, and starts empty.
    await ts.kubectlOk(['create', 'ns', ns]);
    assert.equal(await ts.kubectlOk(['get', 'cm,secrets,deployments,pods', '-n', ns, '-o', 'name']), '');
  });

  it('NS-04, R5.20: a finalizer-held object keeps the namespace Terminating, with conditions naming the finalizer and the count', async () => {
    const ns = 'held';
    await heldNamespace(ns);
    const conditions = await waitFor(
      async () => {
        const live = await nsJson(ns);
        const list: Json[] = live.status.conditions ?? [];
        return list.find((c) => c.type === 'NamespaceFinalizersRemaining')?.status === 'True' ? list : undefined;
      },
      { timeoutMs: 5000, what: 'the namespace controller to report the remaining finalizer' },
    );
    const summary = conditions.map(({ type, status, reason, message }: Json) => ({ type, status, reason, message }));
    assert.deepEqual(summary, [
      {
        type: 'NamespaceDeletionDiscoveryFailure',
        status: 'False',
        reason: 'ResourcesDiscovered',
        message: 'All resources successfully discovered',
      },
      {
        type: 'NamespaceDeletionGroupVersionParsingFailure',
        status: 'False',
        reason: 'ParsedGroupVersions',
        message: 'All legacy kube types successfully parsed',
      },
      {
        type: 'NamespaceDeletionContentFailure',
        status: 'False',
        reason: 'ContentDeleted',
        message: 'All content successfully deleted, may be waiting on finalization',
      },
      {
        type: 'NamespaceContentRemaining',
        status: 'True',
        reason: 'SomeResourcesRemain',
        message: 'Some resources are remaining: configmaps. has 1 resource instances',
      },
      {
        type: 'NamespaceFinalizersRemaining',
        status: 'True',
        reason: 'SomeFinalizersRemain',
        message: `Some content in the namespace has finalizers remaining: ${HOLD} in 1 resource instances`,
      },
    ]);
    for (const c of conditions) assert.match(c.lastTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(
      await ts.kubectlOk(['get', 'cm', '-n', ns, '-o', 'name']),
      'configmap/held\n',
      'the free ConfigMap is gone, the held one stays',
    );

    // NS-03: updates stay allowed in a terminating namespace; releasing the finalizer lets the namespace go.
    const waiting = ts.kubectl(['wait', '--for=delete', `ns/${ns}`, '--timeout=10s']);
    await release(ns, 'held');
    const r = await waiting;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await get(`/api/v1/namespaces/${ns}`), undefined);
  });

  it('R5.1, R5.5: kubectl get -o yaml shows spec.finalizers [kubernetes] while content remains', async () => {
    const ns = 'yaml-view';
    await heldNamespace(ns);
    const live = await waitFor(
      async () => {
        const doc = parse(await ts.kubectlOk(['get', 'ns', ns, '-o', 'yaml']));
        return (doc.status.conditions ?? []).length === 5 ? doc : undefined;
      },
      { timeoutMs: 5000, what: 'the namespace controller to have run' },
    );
    assert.deepEqual(live.spec, { finalizers: ['kubernetes'] });
    assert.equal(live.status.phase, 'Terminating');
    assert.equal(typeof live.metadata.deletionTimestamp, 'string');
    await release(ns, 'held');
    const r = await ts.kubectl(['wait', '--for=delete', `ns/${ns}`, '--timeout=10s']);
    assert.equal(r.code, 0, r.stderr);
  });

  it('NS-03, R3.9: creating in a terminating namespace is refused with 403, the message and the NamespaceTerminating cause', async () => {
    const ns = 'closing';
    await heldNamespace(ns);
    await waitFor(async () => ((await nsJson(ns)).status.phase === 'Terminating' ? true : undefined), {
      timeoutMs: 5000,
      what: 'Terminating',
    });

    const r = await ts.kubectl(['create', 'configmap', 'late', '-n', ns, '--from-literal=k=v']);
    assert.notEqual(r.code, 0);
    assert.equal(
      r.stderr,
      `error: failed to create configmap: configmaps "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated\n`,
    );
    const applied = await ts.kubectl(['apply', '-f', '-'], {
      input: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: late\n  namespace: ${ns}\n`,
    });
    assert.notEqual(applied.code, 0);
    assert.match(
      applied.stderr,
      new RegExp(`secrets "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`),
    );

    const res = await ts.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'late' },
    });
    assert.equal(res.status, 403, res.text);
    assert.deepEqual(res.json, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `configmaps "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
      reason: 'Forbidden',
      details: {
        name: 'late',
        kind: 'configmaps',
        causes: [{ reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' }],
      },
      code: 403,
    });

    // R3.11: a second DELETE of the namespace and updates of its content stay allowed.
    assert.equal(await ts.kubectlOk(['delete', 'ns', ns, '--wait=false']), `namespace "${ns}" deleted\n`);
    await ts.kubectlOk(['label', 'cm', 'held', '-n', ns, 'touched=yes']);
    await release(ns, 'held');
    const gone = await ts.kubectl(['wait', '--for=delete', `ns/${ns}`, '--timeout=10s']);
    assert.equal(gone.code, 0, gone.stderr);
  });

  it('R3.10: creating in a namespace that does not exist is refused with 404', async () => {
    const r = await ts.kubectl(['create', 'configmap', 'orphan', '-n', 'no-such-ns', '--from-literal=k=v']);
    assert.notEqual(r.code, 0);
    assert.equal(r.stderr, 'error: failed to create configmap: namespaces "no-such-ns" not found\n');
  });

  for (const ns of ['default', 'kube-system', 'kube-public']) {
    it(`NS-05, R3.8: deleting ${ns} is refused`, async () => {
      const r = await deleteNamespace(ns);
      assert.notEqual(r.code, 0);
      assert.equal(r.stderr, `Error from server (Forbidden): namespaces "${ns}" is forbidden: this namespace may not be deleted\n`);
      const live = await nsJson(ns);
      assert.equal(live.status.phase, 'Active');
      assert.equal(live.metadata.deletionTimestamp, undefined);
    });
  }

  it('R3.13: kube-node-lease can be deleted, and comes back', async () => {
    const before = await nsJson('kube-node-lease');
    const r = await deleteNamespace('kube-node-lease');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'namespace "kube-node-lease" deleted\n');
    const after = await waitFor(
      async () => {
        const live = await get('/api/v1/namespaces/kube-node-lease');
        return live !== undefined && live.metadata.uid !== before.metadata.uid ? live : undefined;
      },
      { timeoutMs: 5000, what: 'kube-node-lease to be recreated' },
    );
    assert.equal(after.status.phase, 'Active');
    assert.deepEqual(after.spec.finalizers, ['kubernetes']);
    assert.equal(after.metadata.deletionTimestamp, undefined);
  });
});
