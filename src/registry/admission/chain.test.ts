import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forbidden, StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { UserInfo } from '../../api/user.js';
import { BUILTIN_RESOURCES } from '../../kinds/index.js';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import { Registry } from '../registry.js';
import type { AdmissionAttributes } from './attributes.js';
import { AdmissionChain } from './chain.js';
import type { MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from './plugin.js';

const ALICE: UserInfo = { name: 'alice', groups: ['system:authenticated'] };

/** Records what each phase saw; the mutating plugin labels ConfigMaps and can break them to show validation follows it. */
function setup(options: { readonly breakData?: boolean; readonly refuseValidating?: boolean } = {}) {
  const seen: { phase: string; attributes: AdmissionAttributes; labels: unknown }[] = [];
  const mutating: MutatingAdmissionPlugin = {
    name: 'Labeler',
    handles: () => true,
    admit: async (attributes) => {
      seen.push({ phase: 'mutating', attributes, labels: structuredClone(attributes.object?.metadata.labels) });
      if (attributes.object === undefined) return;
      attributes.object.metadata.labels = { ...attributes.object.metadata.labels, admitted: 'yes' };
      if (options.breakData === true) attributes.object.metadata.labels['bad key!'] = 'x';
    },
  };
  const createOnly: MutatingAdmissionPlugin = {
    name: 'CreateOnly',
    handles: (operation) => operation === 'CREATE',
    admit: async (attributes) => {
      seen.push({ phase: 'create-only', attributes, labels: undefined });
    },
  };
  const validating: ValidatingAdmissionPlugin = {
    name: 'Recorder',
    handles: () => true,
    validate: async (attributes) => {
      seen.push({ phase: 'validating', attributes, labels: structuredClone(attributes.object?.metadata.labels) });
      if (options.refuseValidating === true) throw forbidden({ group: '', resource: 'configmaps' }, attributes.name, 'no');
    },
  };
  const registry = new Registry({
    backend: createMemoryBackend(),
    resources: BUILTIN_RESOURCES,
    admission: new AdmissionChain([mutating, createOnly], [validating]),
  });
  const store = registry.lookup('', 'v1', 'configmaps');
  assert.ok(store);
  return { store, seen };
}

const configMap = (name: string): KubeObject => ({ metadata: { name }, data: { a: '1' } });

describe('admission chain (k8s.io/apiserver admission: mutating, then the strategy validation, then validating)', () => {
  it('CREATE: mutating plugins in order, their changes validated and stored, then the validating plugins', async () => {
    const { store, seen } = setup();
    const created = await store.create('ns', configMap('cm'), { user: ALICE, fieldManager: 'kubectl-create' });
    assert.deepEqual(
      seen.map((s) => s.phase),
      ['mutating', 'create-only', 'validating'],
    );
    assert.deepEqual(seen[2]?.labels, { admitted: 'yes' }, 'validating plugins see the mutated object');
    assert.deepEqual(created.metadata.labels, { admitted: 'yes' });
    const attributes = seen[0]?.attributes;
    assert.equal(attributes?.operation, 'CREATE');
    assert.deepEqual(attributes?.kind, { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.equal(attributes?.namespace, 'ns');
    assert.equal(attributes?.name, 'cm');
    assert.equal(attributes?.user, ALICE);
    assert.equal(attributes?.dryRun, false);
    assert.equal(attributes?.oldObject, undefined);
    assert.deepEqual(attributes?.options, { fieldManager: 'kubectl-create' });
  });

  it('a mutation the object validation refuses fails the write before any validating plugin runs', async () => {
    const { store, seen } = setup({ breakData: true });
    await assert.rejects(store.create('ns', configMap('cm')), (err: unknown) => err instanceof StatusError && err.code === 422);
    assert.deepEqual(
      seen.map((s) => s.phase),
      ['mutating', 'create-only'],
    );
  });

  it('UPDATE: handles() keeps a create-only plugin out; oldObject is the stored object; dryRun is passed', async () => {
    const { store, seen } = setup();
    await store.create('ns', configMap('cm'));
    seen.length = 0;
    const current = await store.get('ns', 'cm');
    await store.update('ns', 'cm', { ...current, data: { a: '2' } }, { user: ALICE, dryRun: true });
    assert.deepEqual(
      seen.map((s) => s.phase),
      ['mutating', 'validating'],
    );
    assert.equal(seen[0]?.attributes.oldObject?.metadata.labels?.admitted, 'yes');
    assert.equal(seen[1]?.attributes.dryRun, true);
    assert.deepEqual(seen[1]?.attributes.options, { dryRun: ['All'] });
    assert.deepEqual((await store.get('ns', 'cm')).data, { a: '1' }, 'a dry run stores nothing');
  });

  it('DELETE goes through both phases with the stored object as oldObject and the requester', async () => {
    const { store, seen } = setup();
    await store.create('ns', configMap('cm'));
    seen.length = 0;
    await store.delete('ns', 'cm', { propagationPolicy: 'Background' }, { user: ALICE });
    assert.deepEqual(
      seen.map((s) => [s.phase, s.attributes.operation]),
      [
        ['mutating', 'DELETE'],
        ['validating', 'DELETE'],
      ],
    );
    const attributes = seen[1]?.attributes;
    assert.equal(attributes?.object, undefined);
    assert.equal(attributes?.oldObject?.metadata.name, 'cm');
    assert.equal(attributes?.user, ALICE);
    assert.deepEqual(attributes?.options, { propagationPolicy: 'Background' });
  });

  it('a validating refusal stores nothing', async () => {
    const { store } = setup({ refuseValidating: true });
    await assert.rejects(store.create('ns', configMap('cm')), (err: unknown) => err instanceof StatusError && err.code === 403);
    await assert.rejects(store.get('ns', 'cm'), (err: unknown) => err instanceof StatusError && err.code === 404);
  });
});
