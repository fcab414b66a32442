import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * /healthz, /livez and /readyz answer as kube-apiserver's healthz handler does (issue 25). The etcd checks
 * appear only on etcd (see storage-etcd-tls-cluster); with CASCADE_TEST_STORAGE=etcd they are in these lists too.
 */
describe('health endpoints worded as kube-apiserver words them', () => {
  let ts: TestServer;
  const onEtcd = process.env.CASCADE_TEST_STORAGE === 'etcd';
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('answers "ok", and with ?verbose one line per check and "<name> check passed"', async () => {
    for (const root of ['healthz', 'livez', 'readyz']) {
      const plain = await ts.request('GET', `/${root}`);
      assert.equal(plain.status, 200);
      assert.equal(plain.text, 'ok');
      assert.equal(plain.headers.get('content-type'), 'text/plain; charset=utf-8');
      const checks = [
        'ping',
        'log',
        ...(onEtcd ? ['etcd'] : []),
        ...(root === 'readyz' ? [...(onEtcd ? ['etcd-readiness'] : []), 'shutdown'] : []),
      ];
      const verbose = await ts.request('GET', `/${root}?verbose`);
      assert.equal(verbose.text, `${checks.map((c) => `[+]${c} ok\n`).join('')}${root} check passed\n`);
    }
  });

  it('excludes checks named by ?exclude and warns about names it does not know', async () => {
    const res = await ts.request('GET', '/livez?verbose&exclude=log&exclude=nosuch');
    assert.equal(res.status, 200);
    assert.match(res.text, /^\[\+\]ping ok\n\[\+\]log excluded: ok\n/);
    assert.match(res.text, /warn: some health checks cannot be excluded: no matches for "nosuch"\nlivez check passed\n$/);
  });

  it('serves each check on its own path, and a 404 Status for a check that does not exist', async () => {
    assert.deepEqual(await pick(ts.request('GET', '/readyz/ping')), { status: 200, text: 'ok' });
    assert.deepEqual(await pick(ts.request('GET', '/readyz/shutdown')), { status: 200, text: 'ok' });
    const unknown = await ts.request('GET', '/livez/nosuch');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.kind, 'Status');
    // /livez has no readiness checks.
    assert.equal((await ts.request('GET', '/livez/shutdown')).status, 404);
  });
});

async function pick(response: Promise<{ status: number; text: string }>): Promise<{ status: number; text: string }> {
  const { status, text } = await response;
  return { status, text };
}
