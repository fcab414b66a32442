import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 23: Jobs and CronJobs driven by kubectl on two simulated nodes, whose kubelets run a Job's pods for a second
 * and exit with the code of `cascade.dev/simulate-exit-code` (R12.100–R12.124). The pod failure back-off is cut to
 * 100 ms so a failing Job reaches its backoffLimit quickly.
 */
const NS = 'jobs';

interface Obj {
  metadata: {
    name: string;
    uid: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    ownerReferences?: { uid: string; kind: string; name: string; controller?: boolean; blockOwnerDeletion?: boolean }[];
    deletionTimestamp?: string;
  };
  spec: Record<string, any>;
  status?: Record<string, any>;
}

function jobManifest(name: string, spec: Record<string, unknown>, podAnnotations: Record<string, string> = {}): string {
  return JSON.stringify({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: NS },
    spec: {
      ...spec,
      template: {
        metadata: { annotations: podAnnotations },
        spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] },
      },
    },
  });
}

describe('Job and CronJob controllers with kubectl (issue 23)', () => {
  let ts: TestServer;
  const k = (...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', NS]);
  const getJob = async (name: string): Promise<Obj> => (await ts.request('GET', `/apis/batch/v1/namespaces/${NS}/jobs/${name}`)).json;
  const podsOf = async (job: string): Promise<Obj[]> =>
    (await ts.request('GET', `/api/v1/namespaces/${NS}/pods?labelSelector=batch.kubernetes.io/job-name%3D${job}`)).json.items;
  const conditions = (job: Obj): string[] =>
    (job.status?.conditions ?? []).map((c: Record<string, string>) => `${c.type}=${c.status}/${c.reason}/${c.message}`);
  const eventReasons = async (name: string): Promise<string[]> =>
    (await ts.request('GET', `/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name%3D${name}`)).json.items.map(
      (e: { reason: string; message: string }) => `${e.reason}: ${e.message}`,
    );

  before(async () => {
    ts = await startTestServer({ simulateNodes: 2, controllers: { jobBackoff: { baseMs: 100, maxMs: 1000 } } });
    await ts.kubectlOk(['create', 'namespace', NS]);
  });
  after(async () => {
    await ts.stop();
  });

  it('kubectl create job: its pod runs, succeeds and is counted; kubectl wait sees Complete (R12.100, R12.107, R12.110)', async () => {
    assert.equal(await k('create', 'job', 'hello', '--image=busybox'), 'job.batch/hello created\n');
    assert.equal(await k('wait', '--for=condition=complete', 'job/hello', '--timeout=30s'), 'job.batch/hello condition met\n');
    const job = await getJob('hello');
    assert.deepEqual(conditions(job), [
      'SuccessCriteriaMet=True/CompletionsReached/Reached expected number of succeeded pods',
      'Complete=True/CompletionsReached/Reached expected number of succeeded pods',
    ]);
    assert.equal(job.status?.succeeded, 1);
    assert.equal(job.status?.ready, 0);
    assert.equal(job.status?.terminating, 0);
    assert.deepEqual(job.status?.uncountedTerminatedPods, {});
    assert.equal(job.status?.active, undefined);
    assert.equal(job.status?.completionTime, job.status?.conditions[1].lastTransitionTime);
    const [pod, ...others] = await podsOf('hello');
    assert.equal(others.length, 0);
    assert.ok(pod);
    assert.match(pod.metadata.name, /^hello-[a-z0-9]{5}$/);
    assert.equal(pod.status?.phase, 'Succeeded');
    assert.equal(pod.metadata.labels?.['batch.kubernetes.io/controller-uid'], job.metadata.uid);
    assert.equal(pod.metadata.labels?.['job-name'], 'hello');
    assert.deepEqual(pod.metadata.finalizers ?? [], [], 'the tracking finalizer is gone once counted');
    assert.deepEqual(pod.metadata.ownerReferences, [
      { apiVersion: 'batch/v1', kind: 'Job', name: 'hello', uid: job.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    const events = await waitFor(async () => {
      const e = await eventReasons('hello');
      return e.includes('Completed: Job completed') && e;
    });
    assert.ok(events.includes(`SuccessfulCreate: Created pod: ${pod.metadata.name}`), events.join('\n'));
  });

  it('completions and parallelism: 3 completions, 2 at a time (R12.102)', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: jobManifest('par', { completions: 3, parallelism: 2 }) });
    const busy = await waitFor(async () => {
      const job = await getJob('par');
      return job.status?.active === 2 && job;
    });
    assert.equal(busy.status?.succeeded, undefined);
    await k('wait', '--for=condition=complete', 'job/par', '--timeout=30s');
    const job = await getJob('par');
    assert.equal(job.status?.succeeded, 3);
    assert.equal((await podsOf('par')).length, 3);
    assert.match(await k('get', 'job', 'par'), /\npar\s+Complete\s+3\/3\s+/);
  });

  it('a failing Job stops at backoffLimit: FailureTarget then Failed with BackoffLimitExceeded (R12.104, R12.111, R12.112)', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: jobManifest('fails', { backoffLimit: 1 }, { 'cascade.dev/simulate-exit-code': '3' }),
    });
    assert.equal(await k('wait', '--for=condition=failed', 'job/fails', '--timeout=30s'), 'job.batch/fails condition met\n');
    const job = await getJob('fails');
    assert.deepEqual(conditions(job), [
      'FailureTarget=True/BackoffLimitExceeded/Job has reached the specified backoff limit',
      'Failed=True/BackoffLimitExceeded/Job has reached the specified backoff limit',
    ]);
    assert.equal(job.status?.failed, 2);
    assert.equal(job.status?.completionTime, undefined);
    const pods = await podsOf('fails');
    assert.deepEqual(
      pods.map((p) => p.status?.phase),
      ['Failed', 'Failed'],
    );
    const events = await waitFor(async () => {
      const e = await eventReasons('fails');
      return e.includes('BackoffLimitExceeded: Job has reached the specified backoff limit') && e;
    });
    assert.equal(events.filter((e) => e.startsWith('SuccessfulCreate')).length, 2);
  });

  it('an Indexed Job runs one pod per index, with hostname and JOB_COMPLETION_INDEX (R12.100, R12.107)', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: jobManifest('idx', { completions: 3, parallelism: 3, completionMode: 'Indexed' }),
    });
    await k('wait', '--for=condition=complete', 'job/idx', '--timeout=30s');
    const job = await getJob('idx');
    assert.equal(job.status?.completedIndexes, '0-2');
    assert.equal(job.status?.succeeded, 3);
    const pods = (await podsOf('idx')).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    assert.deepEqual(
      pods.map((p) => [p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'], p.spec.hostname]),
      [
        ['0', 'idx-0'],
        ['1', 'idx-1'],
        ['2', 'idx-2'],
      ],
    );
    pods.forEach((p, i) => {
      assert.match(p.metadata.name, new RegExp(`^idx-${i}-[a-z0-9]{5}$`));
      assert.equal(p.metadata.labels?.['batch.kubernetes.io/job-completion-index'], String(i));
      assert.deepEqual(p.spec.containers[0].env, [
        {
          name: 'JOB_COMPLETION_INDEX',
          valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } },
        },
      ]);
    });
  });

  it('ttlSecondsAfterFinished: 0 deletes the finished Job and its pods (R12.115, R12.116)', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: jobManifest('short-lived', { ttlSecondsAfterFinished: 0 }) });
    await waitFor(async () => (await ts.request('GET', `/apis/batch/v1/namespaces/${NS}/jobs/short-lived`)).status === 404, {
      timeoutMs: 30_000,
      what: 'the Job to be deleted',
    });
    await waitFor(async () => (await podsOf('short-lived')).length === 0, { timeoutMs: 10_000, what: 'its pods to be deleted' });
  });

  it('a suspended Job starts no pod until resumed (R12.113)', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: jobManifest('later', { suspend: true }) });
    const suspended = await waitFor(async () => {
      const job = await getJob('later');
      return conditions(job).length > 0 && job;
    });
    assert.deepEqual(conditions(suspended), ['Suspended=True/JobSuspended/Job suspended']);
    assert.equal(suspended.status?.startTime, undefined);
    assert.equal((await podsOf('later')).length, 0);
    await k('patch', 'job', 'later', '--type=merge', '-p', '{"spec":{"suspend":false}}');
    await k('wait', '--for=condition=complete', 'job/later', '--timeout=30s');
    const job = await getJob('later');
    assert.deepEqual(conditions(job).slice(0, 1), ['Suspended=False/JobResumed/Job resumed']);
    assert.ok((await eventReasons('later')).includes('Resumed: Job resumed'));
  });

  it('kubectl create cronjob, then create job --from=cronjob runs its template now (R12.119)', async () => {
    assert.equal(await k('create', 'cronjob', 'nightly', '--image=busybox', '--schedule=0 3 * * *'), 'cronjob.batch/nightly created\n');
    assert.equal(await k('create', 'job', 'nightly-manual', '--from=cronjob/nightly'), 'job.batch/nightly-manual created\n');
    await k('wait', '--for=condition=complete', 'job/nightly-manual', '--timeout=30s');
    const cronJob = (await ts.request('GET', `/apis/batch/v1/namespaces/${NS}/cronjobs/nightly`)).json as Obj;
    const job = await getJob('nightly-manual');
    assert.equal(job.metadata.annotations?.['cronjob.kubernetes.io/instantiate'], 'manual');
    assert.equal(job.metadata.ownerReferences?.[0]?.uid, cronJob.metadata.uid);
    // Nothing was scheduled yet: the CronJob's status stays empty, and the Job it did not start is reported.
    assert.equal(cronJob.status?.lastScheduleTime, undefined);
    await waitFor(async () =>
      (await eventReasons('nightly')).includes('UnexpectedJob: Saw a job that the controller did not create or forgot: nightly-manual'),
    );
  });

  it('kubectl delete job removes its running pods; a namespace with Jobs and CronJobs inside drains (R12.108, R12.31)', async () => {
    const running = { 'cascade.dev/simulate-run-seconds': '600' };
    await ts.kubectlOk(['apply', '-f', '-'], { input: jobManifest('forever', { parallelism: 2, completions: 2 }, running) });
    await waitFor(async () => (await getJob('forever')).status?.ready === 2, { timeoutMs: 10_000, what: '2 ready pods' });
    assert.equal(await k('delete', 'job', 'forever'), 'job.batch "forever" deleted\n');
    await waitFor(async () => (await podsOf('forever')).length === 0, { timeoutMs: 15_000, what: 'the pods gone' });

    await ts.kubectlOk(['create', 'namespace', 'doomed']);
    await ts.kubectlOk(['apply', '-f', '-'], {
      input: jobManifest('busy', { parallelism: 2, completions: 2 }, running).replaceAll(NS, 'doomed'),
    });
    await ts.kubectlOk(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=* * * * *', '-n', 'doomed']);
    await waitFor(async () => (await ts.request('GET', '/api/v1/namespaces/doomed/pods')).json.items.length === 2, {
      timeoutMs: 10_000,
      what: 'the pods of the doomed Job',
    });
    // kubectl waits until the namespace is gone: its Job's pods must lose their tracking finalizers for that.
    assert.equal(await ts.kubectlOk(['delete', 'namespace', 'doomed', '--timeout=30s']), 'namespace "doomed" deleted\n');
    assert.equal((await ts.request('GET', '/api/v1/namespaces/doomed')).status, 404);
  });
});
