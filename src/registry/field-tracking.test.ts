import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import { admissionAttributes } from './admission/attributes.js';
import { AdmissionChain } from './admission/chain.js';
import { admitKeepingManagedFields } from './field-tracking.js';

const CONFIGMAPS = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true } as ResourceInfo;
const ENTRY = {
  manager: 'kubectl',
  operation: 'Update',
  apiVersion: 'v1',
  time: '2026-11-27T22:43:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:data': { 'f:a': {} } },
};

/** A mutating plugin that writes `managedFields` over the object's, as an outdated webhook might. */
function chainSetting(managedFields: unknown[]): AdmissionChain {
  return new AdmissionChain(
    [
      {
        name: 'outdated',
        handles: () => true,
        admit: async (attributes) => {
          const object = attributes.object as KubeObject;
          object.metadata = { ...object.metadata, managedFields, labels: { mutated: 'true' } };
        },
      },
    ],
    [],
  );
}

async function admit(managedFields: unknown[], before: unknown[] | undefined) {
  const object: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cm', namespace: 'ns', ...(before ? { managedFields: before } : {}) },
  };
  const attributes = admissionAttributes({ operation: 'UPDATE', resource: CONFIGMAPS, object });
  await admitKeepingManagedFields(chainSetting(managedFields), attributes);
  return { object, warnings: attributes.warnings };
}

describe('managedFields after mutating admission (R10.24)', () => {
  it('puts back the entries from before admission, keeping the rest of the mutation, with the warning', async () => {
    const { object, warnings } = await admit([{ ...ENTRY, operation: 'Replace' }], [ENTRY]);
    assert.deepEqual(object.metadata.managedFields, [ENTRY]);
    assert.deepEqual(object.metadata.labels, { mutated: 'true' });
    assert.deepEqual(warnings, [
      '.metadata.managedFields was in an invalid state after admission; this could be caused by an outdated mutating admission controller; please fix your requests: operation must be `Apply` or `Update`',
    ]);
  });

  it("words each of DecodeManagedFields' refusals as it does", async () => {
    const { fieldsType: _omitted, ...noType } = ENTRY;
    const cases: [unknown, string][] = [
      [{ ...ENTRY, apiVersion: '' }, 'apiVersion must not be empty'],
      [noType, 'missing fieldsType in managed fields entry 1'],
      [{ ...ENTRY, fieldsType: 'FieldsV2' }, 'invalid fieldsType "FieldsV2" in managed fields entry 1'],
    ];
    for (const [bad, message] of cases) {
      const { object, warnings } = await admit([ENTRY, bad], undefined);
      assert.equal(object.metadata.managedFields, undefined);
      assert.equal(warnings[0]?.endsWith(`please fix your requests: ${message}`), true, warnings[0]);
    }
  });

  it('keeps decodable changes a plugin makes, without a warning', async () => {
    const changed = [{ ...ENTRY, manager: 'webhook' }];
    const { object, warnings } = await admit(changed, [ENTRY]);
    assert.deepEqual(object.metadata.managedFields, changed);
    assert.deepEqual(warnings, []);
  });
});
