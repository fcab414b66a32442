import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { createTestClient } from '../../auth/rbac/bootstrap/testing/registry-client.js';
import type { ApiClient } from '../../client/interface.js';
import { FakeClock } from '../../workqueue/clock.js';
import { CronJobController } from './controller.js';

const CRONJOBS = { group: 'batch', version: 'v1', resource: 'cronjobs' };
const JOBS = { group: 'batch', version: 'v1', resource: 'jobs' };
const EVENTS = { group: '', version: 'v1', resource: 'events' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
type Obj = Record<string, any>;

async function until<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function cronJob(spec: Obj): KubeObject {
  const template = { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } };
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'cj', namespace: 'ns' },
    spec: { schedule: '* * * * *', timeZone: 'Etc/UTC', jobTemplate: template, ...spec },
  };
}

/** A fake clock 30 s past the next minute of the wall clock: the CronJob created now has one scheduled time due. */
async function setup() {
  const clock = new FakeClock(Math.floor(Date.now() / 60_000) * 60_000 + 90_000);
  const client = createTestClient();
  await client.create(NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
  const controller = new CronJobController({ client, clock, now: () => clock.now() });
  await controller.start();
  return { client, clock, controller };
}

const jobs = async (client: ApiClient): Promise<KubeObject[]> =>
  (await client.list(JOBS, 'ns')).items.filter((j) => j.metadata.deletionTimestamp === undefined);
const events = async (client: ApiClient): Promise<string[]> =>
  (await client.list(EVENTS, 'ns')).items.map((e) => `${e.reason}: ${e.message}`);

/** Marks a Job Complete as the Job controller would. */
async function complete(client: ApiClient, job: KubeObject, at: string): Promise<void> {
  const fresh = await client.get(JOBS, 'ns', job.metadata.name ?? '');
  const condition = (type: string) => ({ type, status: 'True', lastTransitionTime: at, reason: 'CompletionsReached', message: 'm' });
  const status = {
    startTime: at,
    completionTime: at,
    succeeded: 1,
    conditions: [condition('SuccessCriteriaMet'), condition('Complete')],
  };
  await client.update(JOBS, 'ns', { ...fresh, status }, 'status');
}

test('each scheduled minute gets its Job, named after it; finished Jobs leave active and beyond the history limit (R12.119, R12.122, R12.123)', async () => {
  const { client, clock, controller } = await setup();
  try {
    const created = await client.create(CRONJOBS, 'ns', cronJob({ successfulJobsHistoryLimit: 1 }));
    const [first] = await until(async () => {
      const j = await jobs(client);
      return j.length === 1 && j;
    }, 'the first Job');
    assert.ok(first);
    const minute = Math.floor(clock.now() / 60_000);
    assert.equal(first.metadata.name, `cj-${minute}`);
    assert.equal(
      first.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'],
      new Date(minute * 60_000).toISOString().replace('.000Z', 'Z'),
    );
    assert.deepEqual(first.metadata.ownerReferences, [
      { apiVersion: 'batch/v1', kind: 'CronJob', name: 'cj', uid: created.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    const status = await until(async () => {
      const s = (await client.get(CRONJOBS, 'ns', 'cj')).status as Obj | undefined;
      return s?.active?.length === 1 && s;
    }, 'status.active');
    assert.deepEqual(
      [status.active[0].name, status.active[0].kind, status.lastScheduleTime],
      [first.metadata.name, 'Job', new Date(minute * 60_000).toISOString().replace('.000Z', 'Z')],
    );
    const finishedAt = new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await complete(client, first, finishedAt);
    await until(async () => {
      const s = (await client.get(CRONJOBS, 'ns', 'cj')).status as Obj;
      return s.active === undefined && s.lastSuccessfulTime === finishedAt;
    }, 'the completed Job out of active');
    const seen = `SawCompletedJob: Saw completed job: ${first.metadata.name}, status: Complete`;
    await until(async () => (await events(client)).includes(seen), seen);

    clock.advance(60_000);
    const second = await until(async () => (await jobs(client)).find((j) => j.metadata.name !== first.metadata.name), 'the second Job');
    await complete(client, second, new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    // One successful Job is kept: the older one goes.
    await until(async () => (await jobs(client)).map((j) => j.metadata.name).join() === second.metadata.name, 'the oldest Job deleted');
    const deleted = `SuccessfulDelete: Deleted job ${first.metadata.name}`;
    await until(async () => (await events(client)).includes(deleted), deleted);
  } finally {
    await controller.stop();
  }
});

test('Forbid skips a run while one is active (R12.120)', async () => {
  const { client, clock, controller } = await setup();
  try {
    await client.create(CRONJOBS, 'ns', cronJob({ concurrencyPolicy: 'Forbid' }));
    await until(async () => ((await client.get(CRONJOBS, 'ns', 'cj')).status as Obj | undefined)?.active?.length === 1, 'one active Job');
    clock.advance(60_000);
    await until(async () => (await events(client)).some((e) => e.startsWith('JobAlreadyActive')), 'JobAlreadyActive');
    const skipped = 'JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid';
    assert.ok((await events(client)).includes(skipped));
    assert.equal((await jobs(client)).length, 1);
  } finally {
    await controller.stop();
  }
});
