// Written the way a controller author would use Cascade in a test suite: only the public embedding API.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ApiClient, type KubeObject, type ResourceRef, StatusError, startTestServer, type TestServer, waitFor } from './index.js';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps' };
const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };

async function isGone(client: ApiClient, ref: ResourceRef, namespace: string | undefined, name: string): Promise<boolean> {
  try {
    await client.get(ref, namespace, name);
    return false;
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) return true;
    throw err;
  }
}

function ownedBy(owner: KubeObject, name: string, blockOwnerDeletion = false): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      ownerReferences: [
        { apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', blockOwnerDeletion },
      ],
    },
  };
}

describe('a controller-style test against startTestServer', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  for (const via of ['in-process', 'http'] as const) {
    test(`deleting an owner garbage-collects its dependents (background, ${via} client)`, async () => {
      const client: ApiClient = via === 'http' ? server.httpClient() : server.client;
      const ns = `gc-${via}`;
      await client.create(NAMESPACES, undefined, { metadata: { name: ns } });
      const owner = await client.create(CONFIGMAPS, ns, { metadata: { name: 'owner' }, data: { role: 'owner' } });
      const dependents = ['dep-a', 'dep-b', 'dep-c'];
      for (const name of dependents) await client.create(CONFIGMAPS, ns, ownedBy(owner, name));
      await client.create(CONFIGMAPS, ns, { metadata: { name: 'bystander' } });

      await client.delete(CONFIGMAPS, ns, 'owner');

      for (const name of dependents) {
        await waitFor(() => isGone(client, CONFIGMAPS, ns, name), { timeoutMs: 5000, what: `${ns}/${name} to be collected` });
      }
      const left = await client.list(CONFIGMAPS, ns);
      assert.deepEqual(
        left.items.map((cm) => cm.metadata.name),
        ['bystander'],
      );
    });
  }

  test('foreground deletion keeps the owner until its blocking dependents are gone (R2.17)', async () => {
    const client = server.httpClient();
    const owner = await client.create(CONFIGMAPS, 'default', { metadata: { name: 'fg-owner' } });
    await client.create(CONFIGMAPS, 'default', ownedBy(owner, 'fg-dep', true));
    const response = await client.delete(CONFIGMAPS, 'default', 'fg-owner', { propagationPolicy: 'Foreground' });
    assert.equal(response.code, 200);
    assert.ok((response.body as KubeObject).metadata.deletionTimestamp, 'the owner is terminating, not gone');
    await waitFor(() => isGone(client, CONFIGMAPS, 'default', 'fg-owner'), { what: 'the foreground owner to go' });
    assert.equal(await isGone(client, CONFIGMAPS, 'default', 'fg-dep'), true);
  });

  test('deleting a namespace removes its content and then the namespace', async () => {
    const client = server.client;
    await client.create(NAMESPACES, undefined, { metadata: { name: 'doomed' } });
    await client.create(CONFIGMAPS, 'doomed', { metadata: { name: 'content' } });
    await client.delete(NAMESPACES, undefined, 'doomed');
    await waitFor(() => isGone(client, NAMESPACES, undefined, 'doomed'), {
      timeoutMs: 5000,
      what: 'namespace doomed to finish terminating',
    });
    await assert.rejects(client.get(CONFIGMAPS, 'doomed', 'content'), { code: 404 });
  });
});
