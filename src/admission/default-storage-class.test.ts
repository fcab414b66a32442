import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { chooseDefaultStorageClass } from './default-storage-class.js';

const storageClass = (name: string, created: string, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name, creationTimestamp: created, ...(annotations === undefined ? {} : { annotations }) },
  provisioner: 'example.com/p',
});

test('no class is the default unless annotated exactly "true", with the GA or the beta annotation', () => {
  assert.equal(chooseDefaultStorageClass([]), undefined);
  assert.equal(
    chooseDefaultStorageClass([
      storageClass('a', '2026-01-01T00:00:00Z'),
      storageClass('b', '2026-01-01T00:00:00Z', { 'storageclass.kubernetes.io/is-default-class': 'True' }),
    ]),
    undefined,
  );
  assert.equal(
    chooseDefaultStorageClass([
      storageClass('beta', '2026-01-01T00:00:00Z', { 'storageclass.beta.kubernetes.io/is-default-class': 'true' }),
    ]),
    'beta',
  );
});

test('the newest default wins; ties go to the first name', () => {
  const yes = { 'storageclass.kubernetes.io/is-default-class': 'true' };
  assert.equal(
    chooseDefaultStorageClass([storageClass('older', '2026-01-01T00:00:00Z', yes), storageClass('newer', '2026-01-02T00:00:00Z', yes)]),
    'newer',
  );
  assert.equal(
    chooseDefaultStorageClass([storageClass('zeta', '2026-01-01T00:00:00Z', yes), storageClass('alpha', '2026-01-01T00:00:00Z', yes)]),
    'alpha',
  );
});
