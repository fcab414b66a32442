import assert from 'node:assert/strict';
import { test } from 'node:test';
import { differencesFrom132 } from '../../test/support/k8s-1.32-schemas.js';
import { BUILTIN_DEFINITIONS } from './definitions.js';

const CORE = 'io.k8s.api.core.v1.';

test('every built-in definition has exactly the fields, types, formats and required fields of Kubernetes 1.32', () => {
  assert.deepEqual(differencesFrom132(BUILTIN_DEFINITIONS), []);
});

test('the legacy in-tree volume sources are described in Volume and PersistentVolumeSpec', () => {
  const volume = BUILTIN_DEFINITIONS[`${CORE}Volume`]?.properties ?? {};
  const pvSpec = BUILTIN_DEFINITIONS[`${CORE}PersistentVolumeSpec`]?.properties ?? {};
  for (const field of ['awsElasticBlockStore', 'azureDisk', 'cephfs', 'gcePersistentDisk', 'gitRepo', 'rbd', 'iscsi']) {
    assert.ok(field in volume, `Volume.${field}`);
  }
  assert.equal(pvSpec.rbd?.$ref, `#/definitions/${CORE}RBDPersistentVolumeSource`);
  assert.equal(volume.rbd?.$ref, `#/definitions/${CORE}RBDVolumeSource`);
});

test('the comparison reports a missing field, an extra field, a wrong type, a wrong format and a required mismatch', () => {
  const secret = BUILTIN_DEFINITIONS[`${CORE}Secret`];
  const keyToPath = BUILTIN_DEFINITIONS[`${CORE}KeyToPath`];
  assert.ok(secret?.properties && keyToPath?.properties);
  const { immutable: _dropped, ...secretProps } = secret.properties;
  const drifted = {
    [`${CORE}Secret`]: {
      ...secret,
      properties: { ...secretProps, data: { type: 'object', additionalProperties: { type: 'string' } }, extra: { type: 'string' } },
    },
    [`${CORE}KeyToPath`]: { ...keyToPath, properties: { ...keyToPath.properties, mode: { type: 'string' } }, required: ['key'] },
    'io.k8s.example.v1.Widget': { type: 'object' },
  };
  assert.deepEqual(differencesFrom132(drifted).sort(), [
    `${CORE}KeyToPath.mode: format "", 1.32 has "int32"`,
    `${CORE}KeyToPath.mode: type string, 1.32 has number`,
    `${CORE}KeyToPath: required [key], 1.32 has [key, path]`,
    `${CORE}Secret.data: format "", 1.32 has "byte"`,
    `${CORE}Secret.extra: not in 1.32`,
    `${CORE}Secret.immutable: missing (1.32 has boolean)`,
    'io.k8s.example.v1.Widget: not a 1.32 definition',
  ]);
});
