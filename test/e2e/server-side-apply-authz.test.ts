import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bindRole, createNamespace, createRole, requestAs, waitForAccess } from '../support/security-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'ssa-authz';
const USER = 'applier';
const TOKEN = 'applier-token-3c9a41';
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
const path = (name: string): string => `/api/v1/namespaces/${NS}/configmaps/${name}?fieldManager=tool`;
const config = (name: string, value: string, key = 'key') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { [key]: value },
});

describe('server-side apply authorization (R10.20)', () => {
  let ts: TestServer;
  const applyAsUser = (name: string, value: string) => requestAs(ts, TOKEN, 'PATCH', path(name), config(name, value, 'applied'), APPLY);

  before(async () => {
    ts = await startTestServer({ secure: { tokens: { [TOKEN]: { name: USER, groups: [] } } } });
    await createNamespace(ts, NS);
    await createRole(ts, NS, 'patch-configmaps', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['patch'] }]);
    await bindRole(ts, NS, 'applier-patches', { kind: 'Role', name: 'patch-configmaps' }, [{ kind: 'User', name: USER }]);
    await waitForAccess(ts, { user: USER, resourceAttributes: { namespace: NS, verb: 'patch', resource: 'configmaps' } });
  });
  after(async () => {
    await ts.stop();
  });

  it('an apply that would create needs create as well as patch, and is refused as a create would be', async () => {
    const refused = await applyAsUser('fresh', 'a');
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.json.reason, 'Forbidden');
    assert.equal(
      refused.json.message,
      `configmaps "fresh" is forbidden: User "${USER}" cannot create resource "configmaps" in API group "" in the namespace "${NS}"`,
    );
    assert.deepEqual(refused.json.details, { name: 'fresh', kind: 'configmaps' });
    assert.equal((await ts.request('GET', `/api/v1/namespaces/${NS}/configmaps/fresh`)).status, 404, 'nothing was created');
  });

  it('an apply to an existing object needs only patch', async () => {
    const created = await ts.request('POST', `/api/v1/namespaces/${NS}/configmaps`, config('existing', 'a', 'created'));
    assert.equal(created.status, 201, created.text);
    const applied = await applyAsUser('existing', 'b');
    assert.equal(applied.status, 200, applied.text);
    assert.deepEqual(applied.json.data, { created: 'a', applied: 'b' });
  });

  it('with create granted too, the apply creates', async () => {
    await createRole(ts, NS, 'create-configmaps', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }]);
    await bindRole(ts, NS, 'applier-creates', { kind: 'Role', name: 'create-configmaps' }, [{ kind: 'User', name: USER }]);
    await waitForAccess(ts, { user: USER, resourceAttributes: { namespace: NS, verb: 'create', resource: 'configmaps' } });
    const created = await applyAsUser('fresh', 'c');
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.json.data, { applied: 'c' });
  });
});
