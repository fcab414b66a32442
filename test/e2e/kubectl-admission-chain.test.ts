import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

// The admission chain and the Service storage's ClusterIP transaction, through kubectl (issue 21): an address is
// kept only when its Service is stored, and freed on every path that removes a Service. A freed address shows as
// one another Service can ask for.

const NS = 'admission-chain';

describe('admission chain and ClusterIP release with kubectl (issue 21)', () => {
  let ts: TestServer;
  const svc = (name: string, clusterIP: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, ...extra },
    spec: { clusterIP, ports: [{ port: 80 }] },
  });
  const create = (input: unknown, ...args: string[]) =>
    ts.kubectl(['create', '-f', '-', '-n', NS, ...args], { input: JSON.stringify(input) });

  before(async () => {
    ts = await startTestServer();
    await ts.kubectlOk(['create', 'namespace', NS]);
  });
  after(async () => {
    await ts.stop();
  });

  it('a create refused by AlreadyExists, by validation or as a dry run keeps no address', async () => {
    assert.equal((await create(svc('web', '10.96.10.1'))).stdout, 'service/web created\n');
    const exists = await create(svc('web', '10.96.10.2'));
    assert.equal(exists.stderr, 'Error from server (AlreadyExists): error when creating "STDIN": services "web" already exists\n');
    const invalid = await create({ ...svc('bad', '10.96.10.3'), spec: { clusterIP: '10.96.10.3', ports: [{ port: 0 }] } });
    assert.equal(
      invalid.stderr,
      'The Service "bad" is invalid: \n' +
        '* spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive\n' +
        '* spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive\n',
    );
    assert.equal((await create(svc('dry', '10.96.10.4'), '--dry-run=server')).stdout, 'service/dry created (server dry run)\n');
    const taken = await create(svc('web2', '10.96.10.1'));
    assert.equal(
      taken.stderr,
      'The Service "web2" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.10.1"}: failed to allocate IP 10.96.10.1: provided IP is already allocated\n',
    );
    const again = await ts.kubectlOk(['create', '-f', '-', '-n', NS], {
      input: [svc('a2', '10.96.10.2'), svc('a3', '10.96.10.3'), svc('a4', '10.96.10.4')].map((s) => JSON.stringify(s)).join('\n'),
    });
    assert.equal(again, 'service/a2 created\nservice/a3 created\nservice/a4 created\n');
  });

  it('the address of a Service held by a finalizer is freed when the finalizer goes, and by a plain delete', async () => {
    await ts.kubectlOk(['create', '-f', '-', '-n', NS], {
      input: JSON.stringify(svc('held', '10.96.10.5', { finalizers: ['example.com/hold'] })),
    });
    await ts.kubectlOk(['delete', 'service', 'held', '-n', NS, '--wait=false']);
    assert.match((await create(svc('early', '10.96.10.5'))).stderr, /provided IP is already allocated/, 'still held while terminating');
    await ts.kubectlOk(['patch', 'service', 'held', '-n', NS, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    assert.equal((await create(svc('late', '10.96.10.5'))).stdout, 'service/late created\n');
    await ts.kubectlOk(['delete', 'service', 'late', '-n', NS]);
    assert.equal((await create(svc('later', '10.96.10.5'))).stdout, 'service/later created\n');
  });
});
