import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { createTestClient } from '../../auth/rbac/bootstrap/testing/registry-client.js';
import type { ResourceRef } from '../../client/interface.js';
import { ValidatingAdmissionPolicyStatusController } from './controller.js';

const POLICIES: ResourceRef = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicies' };

const policy = (expression: string): KubeObject => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'p' },
  spec: {
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
    validations: [{ expression }],
  },
});

/** Polls until `check` holds; bounded by `timeoutMs`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const observed = async (client: ReturnType<typeof createTestClient>): Promise<unknown> => {
  const p = await client.get(POLICIES, undefined, 'p');
  return [p.metadata.generation, (p.status as { observedGeneration?: number } | undefined)?.observedGeneration];
};

test('status.observedGeneration follows each generation of a policy, without touching its spec (R11.174)', async () => {
  const client = createTestClient();
  await client.create(POLICIES, undefined, policy('true'));
  const controller = new ValidatingAdmissionPolicyStatusController(client);
  await controller.start();
  try {
    await until(async () => JSON.stringify(await observed(client)) === '[1,1]', 'generation 1 observed');
    const stored = await client.get(POLICIES, undefined, 'p');
    await client.update(POLICIES, undefined, { ...stored, spec: policy('1 == 1').spec });
    await until(async () => JSON.stringify(await observed(client)) === '[2,2]', 'generation 2 observed');
    const after = await client.get(POLICIES, undefined, 'p');
    assert.deepEqual((after.spec as { validations: unknown }).validations, [{ expression: '1 == 1' }]);
    // Once observed, a sync writes nothing (the stored resourceVersion stays).
    await controller.sync('p');
    assert.equal((await client.get(POLICIES, undefined, 'p')).metadata.resourceVersion, after.metadata.resourceVersion);
  } finally {
    await controller.stop();
  }
});

test('status.typeChecking carries the expressions that do not compile against the matched kind, replaced per generation (R11.174)', async () => {
  const client = createTestClient();
  await client.create(POLICIES, undefined, policy('object.spec.replicas > 1'));
  const controller = new ValidatingAdmissionPolicyStatusController(client);
  await controller.start();
  const typeChecking = async (): Promise<unknown> =>
    ((await client.get(POLICIES, undefined, 'p')).status as { typeChecking?: unknown } | undefined)?.typeChecking;
  try {
    await until(async () => (await typeChecking()) !== undefined, 'type checking written');
    assert.deepEqual(await typeChecking(), {
      expressionWarnings: [
        {
          fieldRef: 'spec.validations[0].expression',
          warning: "/v1, Kind=ConfigMap: ERROR: <input>:1:7: undefined field 'spec'\n | object.spec.replicas > 1\n | ......^\n",
        },
      ],
    });
    const stored = await client.get(POLICIES, undefined, 'p');
    await client.update(POLICIES, undefined, { ...stored, spec: policy("object.data.size() < 3 && object.metadata.name != ''").spec });
    await until(async () => JSON.stringify(await typeChecking()) === '{}', 'the warnings cleared');
  } finally {
    await controller.stop();
  }
});
