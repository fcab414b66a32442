import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Seed 002's adoption race, extension A (R12.164–R12.170, scenario WL-29): many Deployments are orphaned with
 * kubectl while their controller is busy scaling every one of them. With the collector waiting for each
 * Deployment's observedGeneration to acknowledge the deletion, no ReplicaSet is adopted again and then collected,
 * and no pod is deleted. (The race itself, with the wait off, is shown step by step in
 * src/controllers/garbage-collector/orphan-acknowledgement.test.ts.)
 */
const NS = 'adoption';
const COUNT = 40;

interface Obj {
  metadata: { name: string; uid: string; ownerReferences?: { uid: string; kind: string }[]; deletionTimestamp?: string };
}

function deployment(name: string): unknown {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

describe('orphaning waits for the owner controller to acknowledge the deletion (seed 002, extension A)', () => {
  let ts: TestServer;
  const items = async (path: string): Promise<Obj[]> => (await ts.request('GET', path)).json.items as Obj[];

  before(async () => {
    ts = await startTestServer({ simulateNodes: 3 });
    await ts.kubectlOk(['create', 'namespace', NS]);
  });
  after(async () => {
    await ts.stop();
  });

  it(`kubectl delete deployment --all --cascade=orphan on ${COUNT} busy Deployments loses no ReplicaSet and no pod (R12.167, R12.168)`, async () => {
    const list = { apiVersion: 'v1', kind: 'List', items: Array.from({ length: COUNT }, (_, i) => deployment(`d${i}`)) };
    await ts.kubectlOk(['apply', '-n', NS, '-f', '-'], { input: JSON.stringify(list) });
    const pods = await waitFor(
      async () => {
        const running = await items(`/api/v1/namespaces/${NS}/pods`);
        return running.length === COUNT && running;
      },
      { timeoutMs: 30_000 },
    );
    const replicaSets = await items(`/apis/apps/v1/namespaces/${NS}/replicasets`);
    assert.equal(replicaSets.length, COUNT);

    // Every Deployment changes at once, so the controller's queue is full when the deletions arrive.
    await ts.kubectlOk(['scale', 'deployment', '--all', '--replicas=2', '-n', NS]);
    assert.match(await ts.kubectlOk(['delete', 'deployment', '--all', '--cascade=orphan', '-n', NS]), /deployment.apps "d0" deleted/);

    assert.deepEqual(await items(`/apis/apps/v1/namespaces/${NS}/deployments`), []);
    // Give the collector the chance to act on a re-adopted ReplicaSet: its owner is gone now.
    const left = await waitFor(async () => {
      const now = await items(`/apis/apps/v1/namespaces/${NS}/replicasets`);
      return now.every((rs) => rs.metadata.ownerReferences === undefined) && now;
    });
    assert.deepEqual(
      left.map((rs) => rs.metadata.uid).sort(),
      replicaSets.map((rs) => rs.metadata.uid).sort(),
      'every ReplicaSet survives, owned by nobody',
    );
    const podsNow = new Set(
      (await items(`/api/v1/namespaces/${NS}/pods`)).filter((p) => p.metadata.deletionTimestamp === undefined).map((p) => p.metadata.uid),
    );
    assert.deepEqual(
      pods.filter((p) => !podsNow.has(p.metadata.uid)).map((p) => p.metadata.name),
      [],
      'no pod was deleted',
    );
  });
});
