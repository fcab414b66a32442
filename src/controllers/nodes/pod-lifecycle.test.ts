import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { runningStatus, stopAtMs, terminatedStatus } from './pod-lifecycle.js';

// A fixed clock: the kubelet's decisions depend only on the times passed in.
const T0 = Date.parse('2026-01-01T00:00:00Z');
const ctx = { hostIP: '172.18.0.2', podIP: '10.244.0.2', startedMs: T0 };

const pod = (
  annotations: Record<string, string> = {},
  spec: Record<string, unknown> = {},
  extra: Partial<KubeObject['metadata']> = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', uid: 'u1', annotations, ...extra },
  spec: { restartPolicy: 'Always', containers: [{ name: 'a', image: 'nginx' }], ...spec },
  status: {
    phase: 'Pending',
    qosClass: 'BestEffort',
    conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-12-31T23:59:59Z' }],
  },
});

const conditions = (status: Record<string, unknown>): string[] =>
  (status.conditions as { type: string; status: string; reason?: string }[]).map(
    (c) => `${c.type}=${c.status}${c.reason ? `/${c.reason}` : ''}`,
  );

describe('simulated kubelet: pod start-up (kubelet_pods.go generateAPIPodStatus, getPhase; R12.146–R12.152)', () => {
  it('Pending → Running and Ready at once: conditions, container status, IPs; qosClass and PodScheduled kept', () => {
    const { status, wakeAtMs } = runningStatus(pod(), ctx, T0);
    assert.equal(status.phase, 'Running');
    assert.equal(status.qosClass, 'BestEffort');
    assert.deepEqual(conditions(status), [
      'PodReadyToStartContainers=True',
      'Initialized=True',
      'Ready=True',
      'ContainersReady=True',
      'PodScheduled=True',
    ]);
    assert.equal((status.conditions as { lastTransitionTime: string }[])[4]?.lastTransitionTime, '2025-12-31T23:59:59Z');
    const [c] = status.containerStatuses as Record<string, any>[];
    assert.deepEqual(
      [c?.state, c?.ready, c?.started, c?.restartCount, c?.image],
      [{ running: { startedAt: '2026-01-01T00:00:00Z' } }, true, true, 0, 'nginx'],
    );
    assert.match(c?.containerID, /^containerd:\/\/[0-9a-f]{64}$/);
    assert.deepEqual([status.podIP, status.hostIP, status.startTime], ['10.244.0.2', '172.18.0.2', '2026-01-01T00:00:00Z']);
    assert.equal(wakeAtMs, undefined);
  });

  it('cascade.dev/simulate-ready-seconds delays readiness, and says when to look again', () => {
    const p = pod({ 'cascade.dev/simulate-ready-seconds': '2' });
    const early = runningStatus(p, ctx, T0 + 1000);
    assert.deepEqual(conditions(early.status).slice(2, 4), ['Ready=False/ContainersNotReady', 'ContainersReady=False/ContainersNotReady']);
    assert.equal((early.status.conditions as { message?: string }[])[2]?.message, 'containers with unready status: [a]');
    assert.equal(early.wakeAtMs, T0 + 2000);
    assert.deepEqual(conditions(runningStatus(p, ctx, T0 + 2000).status).slice(2, 4), ['Ready=True', 'ContainersReady=True']);
  });

  it('init containers are reported terminated Completed', () => {
    const { status } = runningStatus(pod({}, { initContainers: [{ name: 'init', image: 'busybox' }] }), ctx, T0);
    const [i] = status.initContainerStatuses as Record<string, any>[];
    assert.deepEqual([i?.state.terminated.reason, i?.state.terminated.exitCode, i?.ready], ['Completed', 0, true]);
  });

  it('run-seconds with restartPolicy Never: Succeeded, or Failed with the exit code', () => {
    const ok = runningStatus(pod({ 'cascade.dev/simulate-run-seconds': '1' }, { restartPolicy: 'Never' }), ctx, T0 + 500);
    assert.equal(ok.status.phase, 'Running');
    assert.equal(ok.wakeAtMs, T0 + 1000);
    const done = runningStatus(pod({ 'cascade.dev/simulate-run-seconds': '1' }, { restartPolicy: 'Never' }), ctx, T0 + 1000).status;
    assert.equal(done.phase, 'Succeeded');
    assert.deepEqual(conditions(done).slice(2, 4), ['Ready=False/PodCompleted', 'ContainersReady=False/PodCompleted']);
    const failed = runningStatus(
      pod({ 'cascade.dev/simulate-run-seconds': '1', 'cascade.dev/simulate-exit-code': '3' }, { restartPolicy: 'Never' }),
      ctx,
      T0 + 1000,
    ).status;
    assert.equal(failed.phase, 'Failed');
    assert.deepEqual((failed.containerStatuses as any[])[0].state.terminated.reason, 'Error');
  });

  it('run-seconds with restartPolicy Always restarts: restartCount grows, the last run in lastState', () => {
    const { status } = runningStatus(pod({ 'cascade.dev/simulate-run-seconds': '1' }), ctx, T0 + 2500);
    const [c] = status.containerStatuses as Record<string, any>[];
    assert.equal(status.phase, 'Running');
    assert.equal(c?.restartCount, 2);
    assert.equal(c?.lastState.terminated.reason, 'Completed');
  });

  it("a Job's pod succeeds after 1 s without annotations", () => {
    const job = pod(
      {},
      { restartPolicy: 'Never' },
      { ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: 'j1', controller: true }] },
    );
    assert.equal(runningStatus(job, ctx, T0 + 999).status.phase, 'Running');
    assert.equal(runningStatus(job, ctx, T0 + 1000).status.phase, 'Succeeded');
  });
});

describe('simulated kubelet: graceful termination (status_manager TerminatePod; R12.154–R12.155)', () => {
  const deleting = (annotations: Record<string, string>, graceSeconds: number): KubeObject => {
    const p = pod(
      annotations,
      {},
      { deletionTimestamp: new Date(T0 + graceSeconds * 1000).toISOString(), deletionGracePeriodSeconds: graceSeconds },
    );
    return { ...p, status: runningStatus(p, ctx, T0).status };
  };

  it('containers stop after simulate-termination-seconds (exit 143), or at the end of the grace period (137)', () => {
    assert.deepEqual(stopAtMs(deleting({ 'cascade.dev/simulate-termination-seconds': '2' }, 30), T0), {
      atMs: T0 + 2000,
      graceRanOut: false,
    });
    assert.deepEqual(stopAtMs(deleting({ 'cascade.dev/simulate-termination-seconds': '60' }, 5), T0), {
      atMs: T0 + 5000,
      graceRanOut: true,
    });
    assert.deepEqual(stopAtMs(deleting({}, 30), T0), { atMs: T0, graceRanOut: false });
  });

  it('the terminal status: Failed, containers terminated with Error 143, not ready', () => {
    const status = terminatedStatus(deleting({}, 30), T0 + 100, false);
    assert.equal(status.phase, 'Failed');
    const [c] = status.containerStatuses as Record<string, any>[];
    assert.deepEqual([c?.state.terminated.exitCode, c?.state.terminated.reason, c?.ready, c?.started], [143, 'Error', false, false]);
    assert.deepEqual(conditions(status).slice(0, 4), [
      'PodReadyToStartContainers=False',
      'Initialized=True',
      'Ready=False/PodFailed',
      'ContainersReady=False/PodFailed',
    ]);
    assert.equal((terminatedStatus(deleting({}, 30), T0, true).containerStatuses as any[])[0].state.terminated.exitCode, 137);
  });
});
