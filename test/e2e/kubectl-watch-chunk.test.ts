import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startKubectl } from '../support/kubectl-process.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'streams';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;

function configMap(name: string, data: Record<string, string>): object {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { suite: 'watch' } }, data };
}

describe('kubectl watch and chunked lists', () => {
  let ts: TestServer;

  const mustRequest = async (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<any> => {
    const res = await ts.request(method, path, body, headers);
    assert.ok(res.status >= 200 && res.status < 300, `${method} ${path} → ${res.status} ${res.text}`);
    return res.json;
  };

  before(async () => {
    ts = await startTestServer();
    await mustRequest('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });
  after(async () => {
    await ts.stop();
  });

  it('kubectl get cm -w prints the changes another client makes', async () => {
    await mustRequest('POST', CMS, configMap('w-existing', { a: '1' }));
    const watch = startKubectl(ts, ['get', 'cm', '-n', NS, '-l', 'suite=watch', '-w', '--output-watch-events']);
    try {
      await watch.waitForStdout(/^ADDED\s+w-existing\s+1\s+/m);

      await mustRequest('POST', CMS, configMap('w-new', { a: '1' }));
      await watch.waitForStdout(/^ADDED\s+w-new\s+1\s+/m);

      const current = await mustRequest('GET', `${CMS}/w-new`);
      await mustRequest('PUT', `${CMS}/w-new`, { ...current, data: { a: '1', b: '2' } });
      await watch.waitForStdout(/^MODIFIED\s+w-new\s+2\s+/m);

      await mustRequest('PATCH', `${CMS}/w-existing`, { data: { z: '9' } }, { 'Content-Type': 'application/merge-patch+json' });
      await watch.waitForStdout(/^MODIFIED\s+w-existing\s+2\s+/m);

      await mustRequest('DELETE', `${CMS}/w-new`);
      await watch.waitForStdout(/^DELETED\s+w-new\s+2\s+/m);

      const events = watch
        .stdout()
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => l.split(/\s+/).slice(0, 2).join(' '));
      assert.deepEqual(events, ['EVENT NAME', 'ADDED w-existing', 'ADDED w-new', 'MODIFIED w-new', 'MODIFIED w-existing', 'DELETED w-new']);
      assert.equal(watch.stderr(), '');
    } finally {
      await watch.stop();
      await ts.request('DELETE', `${CMS}/w-existing`);
      await ts.request('DELETE', `${CMS}/w-new`);
    }
  });

  it('kubectl get cm -w -o name --watch-only prints only later changes', async () => {
    await mustRequest('POST', CMS, configMap('wo-before', { a: '1' }));
    await mustRequest('POST', CMS, configMap('wo-tick', { a: '1' }));
    const watch = startKubectl(ts, ['get', 'cm', '-n', NS, '-w', '--watch-only', '-o', 'name']);
    try {
      // kubectl's watch starts at some unknown moment: touch a ticker object until its change is printed.
      let tick = 0;
      await waitFor(
        async () => {
          tick += 1;
          await mustRequest(
            'PATCH',
            `${CMS}/wo-tick`,
            { data: { tick: String(tick) } },
            { 'Content-Type': 'application/merge-patch+json' },
          );
          return /^configmap\/wo-tick$/m.test(watch.stdout()) ? true : undefined;
        },
        { timeoutMs: 10_000, what: 'the watch to print a ticker update' },
      );
      await mustRequest('POST', CMS, configMap('wo-after', { a: '1' }));
      await mustRequest('DELETE', `${CMS}/wo-after`);
      await watch.waitForStdout(/^configmap\/wo-after\nconfigmap\/wo-after\n$/m);
      const lines = watch.stdout().trim().split('\n');
      assert.ok(
        lines.every((l) => l === 'configmap/wo-tick' || l === 'configmap/wo-after'),
        watch.stdout(),
      );
      assert.doesNotMatch(watch.stdout(), /wo-before/, 'objects that existed before are not listed with --watch-only');
    } finally {
      await watch.stop();
      for (const name of ['wo-before', 'wo-tick', 'wo-after']) await ts.request('DELETE', `${CMS}/${name}`);
    }
  });

  it('kubectl get cm --chunk-size=2 pages through 7 ConfigMaps in 4 requests', async () => {
    const names = Array.from({ length: 7 }, (_, i) => `chunk-${i}`);
    try {
      for (const name of names) await mustRequest('POST', CMS, configMap(name, { i: name }));
      const r = await ts.kubectl(['get', 'cm', '-n', NS, '--chunk-size=2', '-v=6']);
      assert.equal(r.code, 0, r.stderr);
      const rows = r.stdout.trim().split('\n');
      assert.match(rows[0] ?? '', /^NAME\s+DATA\s+AGE$/);
      assert.deepEqual(
        rows.slice(1).map((row) => row.split(/\s+/)[0]),
        names,
      );

      const pageRequests = r.stderr.split('\n').filter((l) => /GET \S+\/api\/v1\/namespaces\/streams\/configmaps\?\S*limit=2/.test(l));
      assert.equal(pageRequests.length, 4, pageRequests.join('\n'));
      assert.doesNotMatch(pageRequests[0] ?? '', /continue=/);
      for (const later of pageRequests.slice(1)) assert.match(later, /continue=/);
      for (const line of pageRequests) assert.match(line, / 200 OK /);

      const asNames = await ts.kubectlOk(['get', 'cm', '-n', NS, '--chunk-size=3', '-o', 'name']);
      assert.equal(asNames, names.map((n) => `configmap/${n}\n`).join(''));
    } finally {
      for (const name of names) await ts.request('DELETE', `${CMS}/${name}`);
    }
  });
});
