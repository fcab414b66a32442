import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { storageObjectInUseProtection } from './storage-object-in-use-protection.js';

const info = (plural: string) => BUILTIN_RESOURCES.find((r) => r.group === '' && r.plural === plural) ?? assert.fail(plural);

describe('R3.14 StorageObjectInUseProtection admission', () => {
  it('appends the protection finalizer to new PVCs and PVs, once', async () => {
    const pvc: KubeObject = { metadata: { name: 'c', finalizers: ['example.com/x'] } };
    await storageObjectInUseProtection('CREATE', info('persistentvolumeclaims'), pvc);
    assert.deepEqual(pvc.metadata.finalizers, ['example.com/x', 'kubernetes.io/pvc-protection']);
    await storageObjectInUseProtection('CREATE', info('persistentvolumeclaims'), pvc);
    assert.deepEqual(pvc.metadata.finalizers, ['example.com/x', 'kubernetes.io/pvc-protection']);
    const pv: KubeObject = { metadata: { name: 'v' } };
    await storageObjectInUseProtection('CREATE', info('persistentvolumes'), pv);
    assert.deepEqual(pv.metadata.finalizers, ['kubernetes.io/pv-protection']);
  });

  it('leaves updates and other resources alone', async () => {
    const pvc: KubeObject = { metadata: { name: 'c' } };
    await storageObjectInUseProtection('UPDATE', info('persistentvolumeclaims'), pvc);
    assert.equal(pvc.metadata.finalizers, undefined);
    const cm: KubeObject = { metadata: { name: 'm' } };
    await storageObjectInUseProtection('CREATE', info('configmaps'), cm);
    assert.equal(cm.metadata.finalizers, undefined);
  });
});
