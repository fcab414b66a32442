import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { storageObjectInUseProtection } from './storage-object-in-use-protection.js';
import { AdmissionChain } from '../registry/admission/chain.js';
import { admissionAttributes, type AdmissionOperation } from '../registry/admission/attributes.js';
import type { ResourceInfo } from '../api/resource-info.js';

/** Through a chain, as the store runs it: the plugin's handles() keeps it out of updates. */
const chain = new AdmissionChain([storageObjectInUseProtection], []);
const admit = (operation: AdmissionOperation, resource: ResourceInfo, object: KubeObject): Promise<void> =>
  chain.admit(admissionAttributes({ operation, resource, object }));

const info = (plural: string) => BUILTIN_RESOURCES.find((r) => r.group === '' && r.plural === plural) ?? assert.fail(plural);

describe('R3.14 StorageObjectInUseProtection admission', () => {
  it('appends the protection finalizer to new PVCs and PVs, once', async () => {
    const pvc: KubeObject = { metadata: { name: 'c', finalizers: ['example.com/x'] } };
    await admit('CREATE', info('persistentvolumeclaims'), pvc);
    assert.deepEqual(pvc.metadata.finalizers, ['example.com/x', 'kubernetes.io/pvc-protection']);
    await admit('CREATE', info('persistentvolumeclaims'), pvc);
    assert.deepEqual(pvc.metadata.finalizers, ['example.com/x', 'kubernetes.io/pvc-protection']);
    const pv: KubeObject = { metadata: { name: 'v' } };
    await admit('CREATE', info('persistentvolumes'), pv);
    assert.deepEqual(pv.metadata.finalizers, ['kubernetes.io/pv-protection']);
  });

  it('leaves updates and other resources alone', async () => {
    const pvc: KubeObject = { metadata: { name: 'c' } };
    await admit('UPDATE', info('persistentvolumeclaims'), pvc);
    assert.equal(pvc.metadata.finalizers, undefined);
    const cm: KubeObject = { metadata: { name: 'm' } };
    await admit('CREATE', info('configmaps'), cm);
    assert.equal(cm.metadata.finalizers, undefined);
  });
});
