import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { PodFailureBackoff, podFinishedMs } from './backoff.js';

const at = (ms: number): string => new Date(ms).toISOString();
/** A finished pod whose container terminated at `ms`. */
const finished = (ms: number): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: `p${ms}` },
  status: { containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 1, finishedAt: at(ms) } } }] },
});

test('pod failure back-off: 10 s × 2^(k−1) from when the last failed pod finished, capped, reset by a success (R12.104)', () => {
  const backoff = new PodFailureBackoff({ baseMs: 10_000, maxMs: 600_000 });
  assert.equal(backoff.remainingMs('ns/j', 0), 0);
  // Seen at 3 s, but finished at 1 s: the delay runs from 1 s.
  backoff.observe('ns/j', [], [finished(1_000)], 3_000);
  assert.equal(backoff.remainingMs('ns/j', 3_000), 8_000);
  backoff.observe('ns/j', [], [finished(5_000), finished(4_000)], 5_000);
  assert.equal(backoff.remainingMs('ns/j', 5_000), 40_000);
  backoff.observe(
    'ns/j',
    [],
    Array.from({ length: 10 }, () => finished(6_000)),
    6_000,
  );
  assert.equal(backoff.remainingMs('ns/j', 6_000), 600_000, 'capped');
  // Only failures that finished after the last success still count.
  backoff.observe('ns/j', [finished(7_000)], [finished(6_500), finished(8_000)], 8_000);
  assert.equal(backoff.remainingMs('ns/j', 8_000), 10_000);
  backoff.observe('ns/j', [finished(9_000)], [], 9_000);
  assert.equal(backoff.remainingMs('ns/j', 9_000), 0);
  // Each Job has its own record.
  assert.equal(backoff.remainingMs('ns/other', 9_000), 0);
});

test('getFinishedTime: containers (sidecars too), else the Ready=False transition, else deletion less grace, else now', () => {
  const running = { name: 'c', state: { running: { startedAt: at(0) } } };
  assert.equal(podFinishedMs(finished(2_000), 9_000), 2_000);
  const sidecar: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 's' },
    spec: { initContainers: [{ name: 'side', restartPolicy: 'Always' }] },
    status: {
      containerStatuses: [{ name: 'c', state: { terminated: { finishedAt: at(2_000) } } }],
      initContainerStatuses: [{ name: 'side', state: { terminated: { finishedAt: at(3_000) } } }],
    },
  };
  assert.equal(podFinishedMs(sidecar, 9_000), 3_000);
  const notReady: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'r' },
    status: { containerStatuses: [running], conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: at(4_000) }] },
  };
  assert.equal(podFinishedMs(notReady, 9_000), 4_000);
  const deleted: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'd', deletionTimestamp: at(30_000), deletionGracePeriodSeconds: 20 },
    status: { containerStatuses: [running] },
  };
  assert.equal(podFinishedMs(deleted, 50_000), 10_000);
  assert.equal(podFinishedMs({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } }, 50_000), 50_000);
});
