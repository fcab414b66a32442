import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { createTestClient } from '../auth/rbac/bootstrap/testing/registry-client.js';

// Issue 20: the embedded ApiClient applies as PATCH application/apply-patch+yaml does over HTTP (R10.7–R10.27).

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const configMap = (data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings' },
  data,
});

async function failure(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  assert.fail('expected a StatusError');
}

describe('in-process ApiClient.apply (issue 20)', () => {
  it('creates, records the Apply entry, conflicts with another manager, and force takes the field (the owner left with nothing drops out)', async () => {
    const client = createTestClient();
    const created = await client.apply(CONFIGMAPS, 'default', configMap({ a: '1' }), { fieldManager: 'alpha' });
    assert.equal(created.metadata.namespace, 'default');
    assert.deepEqual(
      (created.metadata.managedFields as Record<string, unknown>[]).map((e) => [e.manager, e.operation, e.apiVersion, e.fieldsV1]),
      [['alpha', 'Apply', 'v1', { 'f:data': { 'f:a': {} } }]],
    );

    const refused = await failure(client.apply(CONFIGMAPS, 'default', configMap({ a: '2' }), { fieldManager: 'beta' }));
    assert.equal(refused.code, 409);
    assert.equal(refused.reason, 'Conflict');
    assert.equal(refused.message, 'Apply failed with 1 conflict: conflict with "alpha": .data.a');

    const forced = await client.apply(CONFIGMAPS, 'default', configMap({ a: '2' }), { fieldManager: 'beta', force: true });
    assert.deepEqual(forced.data, { a: '2' });
    assert.deepEqual(
      (forced.metadata.managedFields as Record<string, unknown>[]).map((e) => e.manager),
      ['beta'],
    );
  });

  it('removes what a manager stops applying and leaves the object alone on a dry run', async () => {
    const client = createTestClient();
    await client.apply(CONFIGMAPS, 'default', configMap({ a: '1', b: '2' }), { fieldManager: 'alpha' });
    const dry = await client.apply(CONFIGMAPS, 'default', configMap({ a: '1' }), { fieldManager: 'alpha', dryRun: true });
    assert.deepEqual(dry.data, { a: '1' });
    assert.deepEqual((await client.get(CONFIGMAPS, 'default', 'settings')).data, { a: '1', b: '2' });
    const applied = await client.apply(CONFIGMAPS, 'default', configMap({ a: '1' }), { fieldManager: 'alpha' });
    assert.deepEqual(applied.data, { a: '1' });
  });

  it('refuses an apply without a manager and a configuration of another kind as the HTTP API does', async () => {
    const client = createTestClient();
    const noManager = await failure(client.apply(CONFIGMAPS, 'default', configMap({}), { fieldManager: '' }));
    assert.equal(noManager.code, 422);
    assert.equal(noManager.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const wrongKind = await failure(client.apply(CONFIGMAPS, 'default', { ...configMap({}), kind: 'Secret' }, { fieldManager: 'alpha' }));
    assert.equal(wrongKind.code, 400);
    assert.equal(wrongKind.message, 'invalid object type: /v1, Kind=Secret');
  });
});
