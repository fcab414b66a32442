import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { createTestClient, recordingWrites } from '../../auth/rbac/bootstrap/testing/registry-client.js';
import type { ApiClient } from '../../client/interface.js';
import { JobController, JOBS } from './controller.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };
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

function job(name: string, spec: Obj): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'ns' },
    spec: { ...spec, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } },
  };
}

async function setup(options: { now?: () => number } = {}) {
  const base = createTestClient();
  await base.create(NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
  const { client, writes } = recordingWrites(base);
  const controller = new JobController({ client, backoff: { baseMs: 1, maxMs: 1 }, ...options });
  await controller.start();
  return { base, writes, controller };
}

const livePods = async (client: ApiClient): Promise<KubeObject[]> =>
  (await client.list(PODS, 'ns')).items.filter((p) => p.status !== undefined && (p.status as Obj).phase === 'Pending');

/** What a kubelet reports when the pod's only container exits with `code`. */
async function finish(client: ApiClient, pod: KubeObject, code: number): Promise<void> {
  const fresh = await client.get(PODS, 'ns', pod.metadata.name ?? '');
  const terminated = { exitCode: code, reason: code === 0 ? 'Completed' : 'Error', finishedAt: new Date().toISOString() };
  const status = { phase: code === 0 ? 'Succeeded' : 'Failed', containerStatuses: [{ name: 'main', state: { terminated } }] };
  await client.update(PODS, 'ns', { ...fresh, status }, 'status');
}

const jobStatus = async (client: ApiClient, name: string): Promise<Obj> => ((await client.get(JOBS, 'ns', name)).status ?? {}) as Obj;
const types = (status: Obj): string[] => (status.conditions ?? []).map((c: Obj) => `${c.type}:${c.reason}`);

test('pods are counted in three steps: uncounted, finalizer removed, counted; then Complete (R12.107, R12.110)', async () => {
  const { base, writes, controller } = await setup();
  try {
    await base.create(JOBS, 'ns', job('two', { completions: 2, parallelism: 1 }));
    const [first] = await until(async () => {
      const pods = await livePods(base);
      return pods.length === 1 && pods;
    }, 'the first pod');
    assert.ok(first);
    assert.deepEqual(first.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
    assert.match(first.metadata.generateName ?? '', /^two-$/);
    writes.length = 0;
    await finish(base, first, 0);
    const second = await until(async () => (await livePods(base)).find((p) => p.metadata.uid !== first.metadata.uid), 'a second pod');
    // The sync that creates the second pod removes the first's finalizer after it (manageJob runs before
    // trackJobStatusAndRemoveFinalizers), so the removal is waited for, not expected at once.
    const counted = await until(async () => {
      const pod = await base.get(PODS, 'ns', first.metadata.name ?? '');
      return (pod.metadata.finalizers ?? []).length === 0 && pod;
    }, "the first pod's tracking finalizer to go");
    assert.deepEqual(counted.metadata.finalizers ?? [], []);
    // The uid went into uncountedTerminatedPods before the finalizer was removed, and the counter after.
    const release = writes.indexOf(`patch pods ${first.metadata.name}`);
    assert.deepEqual(writes.slice(release - 1, release + 2), ['update jobs two', `patch pods ${first.metadata.name}`, 'update jobs two']);
    assert.equal((await jobStatus(base, 'two')).succeeded, 1);
    await finish(base, second, 0);
    const done = await until(async () => {
      const s = await jobStatus(base, 'two');
      return s.completionTime !== undefined && s;
    }, 'Complete');
    assert.deepEqual(types(done), ['SuccessCriteriaMet:CompletionsReached', 'Complete:CompletionsReached']);
    assert.deepEqual([done.succeeded, done.active, done.ready, done.terminating, done.uncountedTerminatedPods], [2, undefined, 0, 0, {}]);
  } finally {
    await controller.stop();
  }
});

test('a podFailurePolicy FailJob rule fails the Job at once, naming container, pod and rule (R12.111)', async () => {
  const { base, controller } = await setup();
  try {
    const rules = [
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] },
      { action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } },
    ];
    await base.create(JOBS, 'ns', job('policy', { backoffLimit: 6, podFailurePolicy: { rules } }));
    const [pod] = await until(async () => {
      const pods = await livePods(base);
      return pods.length === 1 && pods;
    }, 'a pod');
    assert.ok(pod);
    await finish(base, pod, 42);
    const failed = await until(async () => {
      const s = await jobStatus(base, 'policy');
      return types(s).includes('Failed:PodFailurePolicy') && s;
    }, 'Failed');
    const message = `Container main for pod ns/${pod.metadata.name} failed with exit code 42 matching FailJob rule at index 1`;
    assert.deepEqual(
      failed.conditions.map((c: Obj) => [c.type, c.message]),
      [
        ['FailureTarget', message],
        ['Failed', message],
      ],
    );
    assert.equal(failed.failed, 1);
  } finally {
    await controller.stop();
  }
});

test('activeDeadlineSeconds: DeadlineExceeded, active pods deleted and counted as failed (R12.111, R12.112)', async () => {
  let offset = 0;
  const { base, controller } = await setup({ now: () => Date.now() + offset });
  try {
    await base.create(JOBS, 'ns', job('slow', { activeDeadlineSeconds: 5 }));
    const [pod] = await until(async () => {
      const pods = await livePods(base);
      return pods.length === 1 && pods;
    }, 'a pod');
    assert.ok(pod);
    offset = 6000;
    // Any event makes the controller look again; the requeue for the deadline itself is 5 s of real time away.
    await base.patch(JOBS, 'ns', 'slow', 'merge', { metadata: { labels: { poke: 'yes' } } });
    // The pod is deleted keeping its finalizer; terminating while the Job fails, it counts as failed and is freed.
    const failed = await until(async () => {
      const s = await jobStatus(base, 'slow');
      return types(s).includes('Failed:DeadlineExceeded') && s;
    }, 'Failed');
    assert.deepEqual(types(failed), ['FailureTarget:DeadlineExceeded', 'Failed:DeadlineExceeded']);
    await until(async () => (await base.list(PODS, 'ns')).items.length === 0, 'the pod gone');
    assert.equal(failed.failed, 1);
    assert.equal(failed.conditions[1].message, 'Job was active longer than specified deadline');
  } finally {
    await controller.stop();
  }
});

test('an orphaned pod loses the tracking finalizer; a suspended Job deletes its pods uncounted (R12.108, R12.113)', async () => {
  const { base, controller } = await setup();
  try {
    await base.create(JOBS, 'ns', job('held', {}));
    const [pod] = await until(async () => {
      const pods = await livePods(base);
      return pods.length === 1 && pods;
    }, 'a pod');
    assert.ok(pod);
    await base.patch(JOBS, 'ns', 'held', 'merge', { spec: { suspend: true } });
    await until(async () => (await base.list(PODS, 'ns')).items.length === 0, 'the pod gone');
    const suspended = await jobStatus(base, 'held');
    assert.deepEqual(types(suspended), ['Suspended:JobSuspended']);
    assert.equal(suspended.failed, undefined);

    await base.patch(JOBS, 'ns', 'held', 'merge', { spec: { suspend: false } });
    const [next] = await until(async () => {
      const pods = await livePods(base);
      return pods.length === 1 && pods;
    }, 'a new pod');
    assert.ok(next);
    await base.delete(JOBS, 'ns', 'held', { propagationPolicy: 'Orphan' });
    // Without a garbage collector the Job stays, terminating with the orphan finalizer: being deleted, it frees its pods.
    await until(
      async () => ((await base.get(PODS, 'ns', next.metadata.name ?? '')).metadata.finalizers ?? []).length === 0,
      'the finalizer removed',
    );
  } finally {
    await controller.stop();
  }
});

test('backoffLimitPerIndex: an index fails after its retries, the others still run, then FailedIndexes (R12.111)', async () => {
  const { base, controller } = await setup();
  const indexOf = (p: KubeObject): string | undefined => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'];
  try {
    await base.create(JOBS, 'ns', job('per-index', { completions: 2, parallelism: 2, completionMode: 'Indexed', backoffLimitPerIndex: 1 }));
    const firstRound = await until(async () => {
      const pods = await livePods(base);
      return pods.length === 2 && pods;
    }, 'one pod per index');
    const zero = firstRound.find((p) => indexOf(p) === '0');
    const one = firstRound.find((p) => indexOf(p) === '1');
    assert.ok(zero && one);
    assert.equal(zero.metadata.annotations?.['batch.kubernetes.io/job-index-failure-count'], '0');
    await finish(base, zero, 1);
    const retry = await until(
      async () => (await livePods(base)).find((p) => indexOf(p) === '0' && p.metadata.uid !== zero.metadata.uid),
      'index 0 retried',
    );
    assert.equal(retry.metadata.annotations?.['batch.kubernetes.io/job-index-failure-count'], '1');
    await finish(base, retry, 1);
    await until(async () => (await jobStatus(base, 'per-index')).failedIndexes === '0', 'index 0 failed');
    assert.equal((await livePods(base)).filter((p) => indexOf(p) === '0').length, 0, 'a failed index is not retried');
    await finish(base, one, 0);
    const failed = await until(async () => {
      const s = await jobStatus(base, 'per-index');
      return types(s).includes('Failed:FailedIndexes') && s;
    }, 'Failed');
    assert.deepEqual([failed.completedIndexes, failed.failedIndexes, failed.failed, failed.succeeded], ['1', '0', 2, 1]);
    assert.equal(failed.conditions[1].message, 'Job has failed indexes');
  } finally {
    await controller.stop();
  }
});
