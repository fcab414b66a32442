import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Extension B with kubectl (R12.172–R12.178, scenario WL-30): on a server run with --propagate-grace-period,
 * `kubectl delete deployment --grace-period=5` reaches the pods, whose own grace is 30 s and whose containers would
 * take 60 s to stop: they terminate with deletionGracePeriodSeconds 5 and the simulated kubelet ends them then.
 */
const NS = 'grace';

interface Pod {
  metadata: { name: string; deletionTimestamp?: string; deletionGracePeriodSeconds?: number; labels?: Record<string, string> };
}

function deployment(name: string): unknown {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, annotations: { 'cascade.dev/simulate-termination-seconds': '60' } },
        spec: { terminationGracePeriodSeconds: 30, containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  };
}

describe('grace-period propagation with kubectl (extension B)', () => {
  let ts: TestServer;
  const pods = async (app: string): Promise<Pod[]> =>
    (await ts.request('GET', `/api/v1/namespaces/${NS}/pods?labelSelector=app%3D${app}`)).json.items as Pod[];

  before(async () => {
    ts = await startTestServer({ simulateNodes: 2, controllers: { propagateGracePeriod: true } });
    await ts.kubectlOk(['create', 'namespace', NS]);
  });
  after(async () => {
    await ts.stop();
  });

  for (const cascade of ['background', 'foreground']) {
    it(`kubectl delete deployment --grace-period=5 --cascade=${cascade}: pods terminate with grace 5 and are gone after it (R12.176, R12.178)`, async () => {
      const name = `web-${cascade}`;
      await ts.kubectlOk(['apply', '-n', NS, '-f', '-'], { input: JSON.stringify(deployment(name)) });
      await ts.kubectlOk(['rollout', 'status', `deployment/${name}`, '-n', NS, '--timeout=20s']);
      const started = performance.now();
      const deleted = await ts.kubectlOk([
        'delete',
        'deployment',
        name,
        '-n',
        NS,
        '--grace-period=5',
        `--cascade=${cascade}`,
        '--wait=false',
      ]);
      assert.equal(deleted, `deployment.apps "${name}" deleted\n`);
      const terminating = await waitFor(async () => {
        const now = await pods(name);
        return now.length === 2 && now.every((p) => p.metadata.deletionTimestamp !== undefined) && now;
      });
      assert.deepEqual(
        terminating.map((p) => p.metadata.deletionGracePeriodSeconds),
        [5, 5],
      );
      await waitFor(async () => (await pods(name)).length === 0, { timeoutMs: 15_000 });
      const seconds = (performance.now() - started) / 1000;
      assert.ok(seconds >= 4 && seconds < 10, `pods gone after ${seconds.toFixed(1)} s, expected about 5 s`);
      const deployments = (await ts.request('GET', `/apis/apps/v1/namespaces/${NS}/deployments`)).json.items as unknown[];
      assert.deepEqual(deployments, []);
    });
  }

  it('the owner carries the finalizer and the annotation while it populates (R12.173)', async () => {
    await ts.kubectlOk(['create', 'configmap', 'owner', '-n', NS]);
    const owner = (await ts.request('GET', `/api/v1/namespaces/${NS}/configmaps/owner`)).json;
    await ts.kubectlOk(['create', 'configmap', 'dependent', '-n', NS]);
    await ts.request(
      'PATCH',
      `/api/v1/namespaces/${NS}/configmaps/dependent`,
      {
        metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }] },
      },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    const dryRun = await ts.request('DELETE', `/api/v1/namespaces/${NS}/configmaps/owner`, { gracePeriodSeconds: 7, dryRun: ['All'] });
    assert.deepEqual(dryRun.json.metadata.finalizers, ['cascade.dev/populating-graceful-deletion']);
    assert.deepEqual(dryRun.json.metadata.annotations, { 'cascade.dev/propagated-grace-period-seconds': '7' });
    await ts.kubectlOk(['delete', 'configmap', 'owner', '-n', NS, '--grace-period=7']);
    await waitFor(async () => (await ts.request('GET', `/api/v1/namespaces/${NS}/configmaps/dependent`)).status === 404);
  });
});
