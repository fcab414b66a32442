import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { FORCE_LIVE_LOOKUP_TTL_MS, namespaceLifecycle } from './namespace-lifecycle.js';
import { admissionAttributes, type AdmissionOperation } from '../registry/admission/attributes.js';

const info = (plural: string): ResourceInfo => {
  const found = BUILTIN_RESOURCES.find((r) => r.group === '' && r.plural === plural);
  assert.ok(found, plural);
  return found;
};
const CONFIGMAPS = info('configmaps');
const NAMESPACES = info('namespaces');

const namespace = (name: string, phase = 'Active'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name },
  status: { phase },
});
const configMap = (ns: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: ns } });

/** The admission over a cache and a storage the test controls, counting live reads. */
function setup(cache: Record<string, KubeObject>, storage: Record<string, KubeObject>) {
  let clock = 1_000;
  const live: string[] = [];
  const plugin = namespaceLifecycle({
    cached: (name) => cache[name],
    live: async (name) => {
      live.push(name);
      return storage[name];
    },
    now: () => clock,
  });
  // DELETE carries the stored object as oldObject, as the store passes it.
  const admit = (operation: AdmissionOperation, resource: ResourceInfo, obj: KubeObject): Promise<void> =>
    plugin.admit(
      admissionAttributes({
        operation,
        resource,
        object: operation === 'DELETE' ? undefined : obj,
        oldObject: operation === 'DELETE' ? obj : undefined,
      }),
    );
  return { admit, live, advance: (ms: number) => (clock += ms) };
}

async function status(promise: Promise<void>): Promise<StatusError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
}

describe('NamespaceLifecycle admission', () => {
  it('admits a create in a cached active namespace without reading storage', async () => {
    const { admit, live } = setup({ app: namespace('app') }, {});
    assert.equal(await status(admit('CREATE', CONFIGMAPS, configMap('app'))), undefined);
    assert.deepEqual(live, []);
  });

  it('R3.10: reads a namespace the cache lacks from storage before refusing it with 404', async () => {
    const { admit, live } = setup({}, { fresh: namespace('fresh') });
    assert.equal(await status(admit('CREATE', CONFIGMAPS, configMap('fresh'))), undefined);
    const missing = await status(admit('CREATE', CONFIGMAPS, configMap('missing')));
    assert.equal(missing?.code, 404);
    assert.equal(missing?.message, 'namespaces "missing" not found');
    assert.deepEqual(live, ['fresh', 'missing']);
  });

  it('R3.9: refuses content in a terminating namespace with the NamespaceTerminating cause', async () => {
    const { admit } = setup({ old: namespace('old', 'Terminating') }, {});
    const denied = await status(admit('CREATE', CONFIGMAPS, configMap('old')));
    assert.equal(denied?.code, 403);
    assert.equal(
      denied?.message,
      'configmaps "c" is forbidden: unable to create new content in namespace old because it is being terminated',
    );
    assert.deepEqual(denied?.toStatus().details?.causes, [
      { reason: 'NamespaceTerminating', message: 'namespace old is being terminated', field: 'metadata.namespace' },
    ]);
  });

  it('R3.11: updates and deletes of content are not checked', async () => {
    const { admit, live } = setup({}, {});
    assert.equal(await status(admit('UPDATE', CONFIGMAPS, configMap('gone'))), undefined);
    assert.equal(await status(admit('DELETE', CONFIGMAPS, configMap('gone'))), undefined);
    assert.deepEqual(live, []);
  });

  it('R3.8: the system namespaces cannot be deleted', async () => {
    const { admit } = setup({}, {});
    for (const name of ['default', 'kube-system', 'kube-public']) {
      const denied = await status(admit('DELETE', NAMESPACES, namespace(name)));
      assert.equal(denied?.code, 403);
      assert.equal(denied?.message, `namespaces "${name}" is forbidden: this namespace may not be deleted`);
    }
    assert.equal(await status(admit('DELETE', NAMESPACES, namespace('kube-node-lease'))), undefined);
  });

  it('R3.12: after admitting a namespace DELETE, a cache still calling it active is not trusted for 30 s', async () => {
    const cache = { app: namespace('app') };
    const storage = { app: namespace('app', 'Terminating') };
    const { admit, live, advance } = setup(cache, storage);
    await admit('DELETE', NAMESPACES, namespace('app'));
    assert.equal((await status(admit('CREATE', CONFIGMAPS, configMap('app'))))?.code, 403);
    assert.deepEqual(live, ['app']);
    advance(FORCE_LIVE_LOOKUP_TTL_MS);
    assert.equal(await status(admit('CREATE', CONFIGMAPS, configMap('app'))), undefined, 'after the TTL the cache decides again');
    assert.deepEqual(live, ['app']);
  });
});
