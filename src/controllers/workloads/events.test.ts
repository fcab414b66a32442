import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import type { ApiClient } from '../../client/interface.js';
import { eventRecorder } from './events.js';

test('the spam filter lets 25 events per object through, then one per 5 minutes (EventSourceObjectSpamFilter)', async () => {
  const reasons: string[] = [];
  const client = {
    create: async (_ref: unknown, _ns: unknown, event: KubeObject) => {
      reasons.push(`${(event as any).involvedObject.name}/${(event as any).reason}`);
      return event;
    },
  } as unknown as ApiClient;
  let now = 0;
  const record = eventRecorder(
    client,
    'replicaset-controller',
    () => {},
    () => now,
  );
  const owner = (name: string): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'ns', uid: name },
  });
  for (let i = 0; i < 30; i++) record(owner('web'), 'Normal', 'SuccessfulCreate', `Created pod: web-${i}`);
  record(owner('other'), 'Normal', 'SuccessfulCreate', 'Created pod: other-0');
  now += 299_000;
  record(owner('web'), 'Normal', 'SuccessfulCreate', 'dropped');
  now += 1_000;
  record(owner('web'), 'Normal', 'SuccessfulCreate', 'allowed');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(reasons.filter((r) => r.startsWith('web/')).length, 26);
  assert.equal(reasons.filter((r) => r.startsWith('other/')).length, 1);
});
