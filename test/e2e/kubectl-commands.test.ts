import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'everyday';

/**
 * The rows of docs/kubectl-commands.md marked "works" that no other suite already drives (issue 31). Each runs the
 * real kubectl against a TLS server, as a user at a terminal would.
 */
describe('everyday kubectl commands (docs/kubectl-commands.md)', () => {
  let ts: TestServer;
  let dir = '';
  const k = (...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', NS]);

  before(async () => {
    ts = await startTestServer({ secure: {} });
    dir = await mkdtemp(join(tmpdir(), 'cascade-kubectl-commands-'));
    await ts.kubectlOk(['create', 'namespace', NS]);
  });
  after(async () => {
    await ts.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('diff shows what apply would change, and exits 1 only then', async () => {
    const file = join(dir, 'cm.yaml');
    await writeFile(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: diffed\ndata:\n  a: "1"\n');
    await k('apply', '-f', file);
    assert.equal((await ts.kubectl(['diff', '-n', NS, '-f', file])).code, 0);
    await writeFile(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: diffed\ndata:\n  a: "2"\n');
    const changed = await ts.kubectl(['diff', '-n', NS, '-f', file]);
    assert.equal(changed.code, 1, changed.stderr);
    assert.match(changed.stdout, /^- {2}a: "1"$/m);
    assert.match(changed.stdout, /^\+ {2}a: "2"$/m);
    assert.equal(await k('get', 'configmap', 'diffed', '-o', 'jsonpath={.data.a}'), '1', 'diff changes nothing');
  });

  it('edit saves what the editor wrote', async () => {
    await k('create', 'configmap', 'edited', '--from-literal=color=blue');
    const editor = join(dir, 'editor.sh');
    await writeFile(editor, '#!/bin/sh\nsed -i "s/color: blue/color: green/" "$1"\n');
    await chmod(editor, 0o755);
    const r = await new Promise<{ code: number; out: string }>((resolve) => {
      // kubectl edit runs $KUBE_EDITOR on a temporary file, as a terminal user's editor.
      import('node:child_process').then(({ execFile }) => {
        execFile(
          'kubectl',
          ['edit', 'configmap', 'edited', '-n', NS],
          { env: { ...process.env, KUBECONFIG: ts.kubeconfigPath, KUBE_EDITOR: editor, HOME: dir } },
          (err, stdout, stderr) => resolve({ code: err === null ? 0 : 1, out: stdout + stderr }),
        );
      });
    });
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /configmap\/edited edited/);
    assert.equal(await k('get', 'configmap', 'edited', '-o', 'jsonpath={.data.color}'), 'green');
  });

  it('create deployment, set image, rollout restart and history, expose, scale', async () => {
    await k('create', 'deployment', 'web', '--image=nginx:1.26', '--replicas=1');
    assert.match(await k('set', 'image', 'deployment/web', 'nginx=nginx:1.27'), /deployment\.apps\/web image updated/);
    assert.match(await k('rollout', 'restart', 'deployment/web'), /deployment\.apps\/web restarted/);
    assert.match(
      await k('get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.metadata.annotations}'),
      /kubectl\.kubernetes\.io\/restartedAt/,
    );
    assert.match(await k('rollout', 'history', 'deployment/web'), /deployment\.apps\/web/);
    assert.match(await k('expose', 'deployment', 'web', '--port=80'), /service\/web exposed/);
    assert.match(await k('get', 'service', 'web', '-o', 'jsonpath={.spec.clusterIP} {.spec.selector.app}'), /^10\.\d+\.\d+\.\d+ web$/);
    assert.match(await k('scale', 'deployment/web', '--replicas=3'), /deployment\.apps\/web scaled/);
    assert.equal(await k('get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}'), '3');
  });

  it('cordon, taint, uncordon and drain --grace-period=0 a node whose pods have no kubelet to wait for', async () => {
    await ts.kubectlOk(['create', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1' } }),
    });
    assert.match(await ts.kubectlOk(['cordon', 'worker-1']), /node\/worker-1 cordoned/);
    assert.match(await ts.kubectlOk(['taint', 'nodes', 'worker-1', 'dedicated=db:NoSchedule']), /node\/worker-1 tainted/);
    assert.match(await ts.kubectlOk(['uncordon', 'worker-1']), /node\/worker-1 uncordoned/);
    await k('run', 'stray', '--image=busybox', '--overrides={"spec":{"nodeName":"worker-1"}}');
    // kubectl deletes (no pods/eviction served yet) with a protobuf DeleteOptions body.
    const drained = await ts.kubectlOk(['drain', 'worker-1', '--ignore-daemonsets', '--force', '--grace-period=0', '--timeout=20s']);
    assert.match(drained, /node\/worker-1 drained/);
    assert.equal((await ts.kubectl(['get', 'pod', 'stray', '-n', NS])).code, 1);
    assert.equal(await ts.kubectlOk(['get', 'node', 'worker-1', '-o', 'jsonpath={.spec.unschedulable}']), 'true');
  });

  it('events lists the namespace’s events', async () => {
    await ts.kubectlOk(['create', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'web.1', namespace: NS },
        involvedObject: { kind: 'Deployment', name: 'web', namespace: NS },
        reason: 'Tested',
        message: 'hello from the test',
        type: 'Normal',
        firstTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        lastTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        count: 1,
        source: { component: 'test' },
      }),
    });
    const events = await k('events');
    assert.match(events, /Tested\s+Deployment\/web\s+hello from the test/);
  });

  it('auth reconcile creates, then leaves alone, a role', async () => {
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'reconciled', namespace: NS },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    };
    const first = await ts.kubectl(['auth', 'reconcile', '-f', '-'], { input: JSON.stringify(role) });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /reconciliation required create/);
    const second = await ts.kubectlOk(['auth', 'reconcile', '-f', '-'], { input: JSON.stringify(role) });
    assert.match(second, /role\.rbac\.authorization\.k8s\.io\/reconciled reconciled/);
    assert.equal(await k('get', 'role', 'reconciled', '-o', 'jsonpath={.rules[0].verbs[0]}'), 'get');
  });

  it('proxy serves the API on a local port with the kubeconfig’s credentials', async () => {
    const { spawn } = await import('node:child_process');
    const proxy = spawn('kubectl', ['proxy', '--port=0'], { env: { ...process.env, KUBECONFIG: ts.kubeconfigPath, HOME: dir } });
    try {
      const port = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('kubectl proxy did not start within 10 s')), 10_000);
        let out = '';
        proxy.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const m = /Starting to serve on 127\.0\.0\.1:(\d+)/.exec(out);
          if (m !== null) {
            clearTimeout(timer);
            resolve(m[1] ?? '');
          }
        });
      });
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/namespaces/${NS}`);
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as { metadata: { name: string } }).metadata.name, NS);
    } finally {
      proxy.kill();
    }
  });

  it('cluster-info names the control plane; create token is the TokenRequest suite’s', async () => {
    assert.match(
      await ts.kubectlOk(['cluster-info']),
      new RegExp(`Kubernetes control plane.* is running at .*${ts.url.replace(/[.]/g, '\\.')}`),
    );
  });
});
