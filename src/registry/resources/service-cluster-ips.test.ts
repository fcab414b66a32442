import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forbidden, StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { BUILTIN_RESOURCES } from '../../kinds/index.js';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import { AdmissionChain } from '../admission/chain.js';
import type { ValidatingAdmissionPlugin } from '../admission/plugin.js';
import { Registry } from '../registry.js';

const IP_KEYS = '/registry/ipaddresses/';

/** A validating plugin refusing Services named "refused": a refusal that comes after allocation. */
const refuseNamed: ValidatingAdmissionPlugin = {
  name: 'RefuseNamed',
  handles: (operation) => operation === 'CREATE',
  validate: async ({ name }) => {
    if (name === 'refused') throw forbidden({ group: '', resource: 'services' }, name, 'refused by a later plugin');
  },
};

function setup() {
  const backend = createMemoryBackend();
  const registry = new Registry({ backend, resources: BUILTIN_RESOURCES, admission: new AdmissionChain([], [refuseNamed]) });
  const services = registry.lookup('', 'v1', 'services');
  assert.ok(services);
  /** The addresses held now, as their reservation keys. */
  const held = async (): Promise<string[]> => (await backend.list(IP_KEYS)).kvs.map((kv) => kv.key.slice(IP_KEYS.length)).sort();
  return { services, held };
}

const service = (name: string, spec: Record<string, unknown> = {}, finalizers?: string[]): KubeObject => ({
  metadata: { name, ...(finalizers === undefined ? {} : { finalizers }) },
  spec: { ports: [{ port: 80 }], ...spec },
});

async function refusal(promise: Promise<unknown>): Promise<StatusError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
  assert.fail('expected a refusal');
}

const clusterIp = (obj: KubeObject): unknown => (obj.spec as Record<string, unknown>).clusterIP;

describe('Service ClusterIP allocation (pkg/registry/core/service/storage: allocate in BeginCreate, commit or revert)', () => {
  it('keeps the address of a stored Service and releases it on DELETE', async () => {
    const { services, held } = setup();
    const created = await services.create('ns', service('web'));
    assert.match(String(clusterIp(created)), /^10\.(9[6-9]|10[0-9]|11[01])\./);
    assert.deepEqual(await held(), [clusterIp(created)]);
    await services.delete('ns', 'web', {});
    assert.deepEqual(await held(), []);
  });

  it('releases the address when the create fails with AlreadyExists (leak 1 of issue 21)', async () => {
    const { services, held } = setup();
    const first = await services.create('ns', service('web'));
    assert.equal((await refusal(services.create('ns', service('web')))).code, 409);
    assert.deepEqual(await held(), [clusterIp(first)]);
  });

  it('releases the address when a later admission plugin or validation refuses the Service', async () => {
    const { services, held } = setup();
    assert.equal((await refusal(services.create('ns', service('refused')))).code, 403);
    const invalid = await refusal(services.create('ns', service('bad', { ports: [{ port: 0 }] })));
    assert.equal(invalid.code, 422);
    assert.deepEqual(await held(), []);
  });

  it('reserves nothing on a dry run, yet refuses an address already held as the real create would', async () => {
    const { services, held } = setup();
    const dry = await services.create('ns', service('web', { clusterIP: '10.96.0.50' }), { dryRun: true });
    assert.equal(clusterIp(dry), '10.96.0.50');
    assert.deepEqual(await held(), []);
    await services.create('ns', service('db', { clusterIP: '10.96.0.50' }));
    const taken = await refusal(services.create('ns', service('web', { clusterIP: '10.96.0.50' }), { dryRun: true }));
    assert.match(
      taken.message,
      /spec\.clusterIPs: Invalid value: \[\]string\{"10\.96\.0\.50"\}: failed to allocate IP 10\.96\.0\.50: provided IP is already allocated/,
    );
  });

  it('releases the address when the last finalizer of a deleted Service is removed by an update (leak 2 of issue 21)', async () => {
    const { services, held } = setup();
    await services.create('ns', service('web', { clusterIP: '10.96.0.60' }, ['example.com/hold']));
    const deleting = await services.delete('ns', 'web', {});
    assert.equal(deleting.removed, false);
    assert.deepEqual(await held(), ['10.96.0.60'], 'held while the Service is terminating');
    const current = await services.get('ns', 'web');
    current.metadata.finalizers = [];
    await services.update('ns', 'web', current);
    assert.deepEqual(await held(), []);
    // The address can be had again.
    await services.create('ns', service('again', { clusterIP: '10.96.0.60' }));
  });

  it('allocates nothing for headless and ExternalName Services', async () => {
    const { services, held } = setup();
    await services.create('ns', service('headless', { clusterIP: 'None' }));
    await services.create('ns', { metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'example.com' } });
    assert.deepEqual(await held(), []);
  });

  it('gives the address back when a Service becomes ExternalName, and allocates when it stops being one', async () => {
    const { services, held } = setup();
    await services.create('ns', service('web', { clusterIP: '10.96.0.70' }));
    const current = await services.get('ns', 'web');
    const external = {
      ...current,
      spec: { ...(current.spec as Record<string, unknown>), type: 'ExternalName', externalName: 'db.example.com' },
    };
    await services.update('ns', 'web', external, { dryRun: true });
    assert.deepEqual(await held(), ['10.96.0.70'], 'a dry run releases nothing');
    const updated = await services.update('ns', 'web', external);
    assert.equal(clusterIp(updated), undefined);
    assert.deepEqual(await held(), []);
    const back = { ...updated, spec: { type: 'ClusterIP', clusterIP: '10.96.0.71', ports: [{ port: 80 }] } };
    assert.equal(clusterIp(await services.update('ns', 'web', back)), '10.96.0.71');
    assert.deepEqual(await held(), ['10.96.0.71']);
  });
});
