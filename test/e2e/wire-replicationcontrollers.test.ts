import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createOk, DEFAULTED_TEMPLATE, type Json, META, NS, stable, startWireServer, TEMPLATE } from '../support/wire-fixtures.js';
import type { TestServer } from '../support/test-server.js';

/**
 * Issue 19, wire fidelity: core/v1 replicationcontrollers are served, defaulted from their template, and work with kubectl.
 */

describe('wire fidelity: schemas, create defaults and replicationcontrollers (issue 19)', () => {
  let ts: TestServer;

  before(async () => {
    ts = await startWireServer();
  });
  after(async () => {
    await ts.stop();
  });

  const create = (path: string, body: Json): Promise<Json> => createOk(ts, path, body);

  describe('replicationcontrollers (core/v1)', () => {
    it('is created with the selector, labels and replicas defaulted from its template, generation 1 and status replicas 0', async () => {
      const rc = await create(`/api/v1/namespaces/${NS}/replicationcontrollers`, {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'legacy' },
        spec: { template: TEMPLATE },
      });
      assert.deepEqual(stable(rc), {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: META('legacy', NS, { generation: 1, labels: { app: 'web' } }),
        spec: { replicas: 1, selector: { app: 'web' }, template: DEFAULTED_TEMPLATE },
        status: { replicas: 0 },
      });
    });

    it('kubectl creates, lists (plain and wide), scales, selects by status.replicas and deletes an rc', async () => {
      const manifest = `
apiVersion: v1
kind: ReplicationController
metadata: {name: frontend, namespace: ${NS}}
spec:
  replicas: 2
  selector: {tier: frontend}
  template:
    metadata: {labels: {tier: frontend}}
    spec:
      containers: [{name: php, image: "php:8-apache"}, {name: sidecar, image: "busybox:1.36"}]
`;
      assert.match(await ts.kubectlOk(['create', '-f', '-'], { input: manifest }), /replicationcontroller\/frontend created/);
      const plain = (await ts.kubectlOk(['get', 'rc', 'frontend', '-n', NS])).trimEnd().split('\n');
      assert.match(plain[0] ?? '', /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE$/);
      assert.match(plain[1] ?? '', /^frontend\s+2\s+0\s+0\s+\d+s$/);
      const wide = (await ts.kubectlOk(['get', 'replicationcontrollers', 'frontend', '-n', NS, '-o', 'wide'])).trimEnd().split('\n');
      assert.match(wide[0] ?? '', /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR$/);
      assert.match(wide[1] ?? '', /^frontend\s+2\s+0\s+0\s+\d+s\s+php,sidecar\s+php:8-apache,busybox:1\.36\s+tier=frontend$/);

      assert.match(await ts.kubectlOk(['scale', 'rc/frontend', '-n', NS, '--replicas=5']), /replicationcontroller\/frontend scaled/);
      const scale = await ts.request('GET', `/api/v1/namespaces/${NS}/replicationcontrollers/frontend/scale`);
      assert.equal(scale.status, 200);
      assert.equal(scale.json.apiVersion, 'autoscaling/v1');
      assert.deepEqual(scale.json.spec, { replicas: 5 });
      assert.deepEqual(scale.json.status, { replicas: 0, selector: 'tier=frontend' });
      const scaled = (await ts.request('GET', `/api/v1/namespaces/${NS}/replicationcontrollers/frontend`)).json;
      assert.equal(scaled.spec.replicas, 5);
      assert.equal(scaled.metadata.generation, 2);

      const selected = await ts.kubectlOk(['get', 'rc', '-n', NS, '--field-selector', 'status.replicas=0', '-o', 'name']);
      assert.match(selected, /replicationcontroller\/frontend/);
      const none = await ts.kubectlOk(['get', 'rc', '-n', NS, '--field-selector', 'status.replicas=3', '-o', 'name']);
      assert.equal(none.trim(), '');
      const unsupported = await ts.request('GET', `/api/v1/namespaces/${NS}/replicationcontrollers?fieldSelector=spec.replicas%3D5`);
      assert.equal(unsupported.status, 400);
      assert.equal(unsupported.json.message, 'field label not supported: spec.replicas');

      const all = await ts.kubectlOk(['get', 'all', '-n', NS, '-o', 'name']);
      assert.match(all, /replicationcontroller\/frontend/);

      assert.match(await ts.kubectlOk(['delete', 'rc', 'frontend', '-n', NS]), /replicationcontroller "frontend" deleted/);
      const gone = await ts.request('GET', `/api/v1/namespaces/${NS}/replicationcontrollers/frontend`);
      assert.equal(gone.status, 404);
    });

    it('a DELETE without options orphans its dependents, as core/v1 always has', async () => {
      await create(`/api/v1/namespaces/${NS}/replicationcontrollers`, {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'orphaning', finalizers: ['example.com/hold'] },
        spec: { template: TEMPLATE },
      });
      const res = await ts.request('DELETE', `/api/v1/namespaces/${NS}/replicationcontrollers/orphaning`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.json.metadata.finalizers, ['example.com/hold', 'orphan']);
      const patch = await ts.request(
        'PATCH',
        `/api/v1/namespaces/${NS}/replicationcontrollers/orphaning`,
        { metadata: { finalizers: null } },
        { 'Content-Type': 'application/merge-patch+json' },
      );
      assert.equal(patch.status, 200);
    });
  });
});
