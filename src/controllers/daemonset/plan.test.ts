import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { nodeShouldRunDaemonPod, pinnedToNode, targetNode, withDaemonTolerations } from './daemon-pods.js';
import { planManage, planRollingUpdate } from './plan.js';
import { computeDaemonStatus } from './status.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');

function node(name: string, extra: { labels?: Record<string, string>; taints?: unknown[]; unschedulable?: boolean } = {}): KubeObject {
  return { metadata: { name, labels: extra.labels ?? {} }, spec: { taints: extra.taints ?? [], unschedulable: extra.unschedulable } };
}

function daemonSet(
  templateSpec: Record<string, unknown> = {},
  strategy: unknown = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
): KubeObject {
  return {
    metadata: {
      name: 'ds',
      namespace: 'ns',
      uid: 'ds-uid',
      generation: 1,
      annotations: { 'deprecated.daemonset.template.generation': '2' },
    },
    spec: {
      selector: { matchLabels: { app: 'd' } },
      updateStrategy: strategy,
      template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'x' }], ...templateSpec } },
    },
  };
}

function daemonPod(name: string, nodeName: string, hash: string, ready = true): KubeObject {
  return {
    metadata: { name, namespace: 'ns', creationTimestamp: '2026-01-01T00:00:00Z', labels: { app: 'd', 'controller-revision-hash': hash } },
    spec: { nodeName },
    status: { phase: 'Running', conditions: ready ? [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] : [] },
  };
}

test('R12.93: daemon pods tolerate node problems and cordons; network-unavailable only with hostNetwork', () => {
  const keys = (spec: Record<string, unknown>): string[] =>
    (withDaemonTolerations(spec).tolerations as { key: string; effect: string }[]).map((t) => `${t.key}:${t.effect}`);
  assert.deepEqual(keys({}), [
    'node.kubernetes.io/not-ready:NoExecute',
    'node.kubernetes.io/unreachable:NoExecute',
    'node.kubernetes.io/disk-pressure:NoSchedule',
    'node.kubernetes.io/memory-pressure:NoSchedule',
    'node.kubernetes.io/pid-pressure:NoSchedule',
    'node.kubernetes.io/unschedulable:NoSchedule',
  ]);
  assert.ok(keys({ hostNetwork: true }).includes('node.kubernetes.io/network-unavailable:NoSchedule'));
  const own = { tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] };
  assert.equal(keys(own).length, 6, 'an equal toleration is replaced, not duplicated');
});

test('R12.94: pods are pinned with a metadata.name matchFields term, which also says where they belong', () => {
  const spec = pinnedToNode(
    { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [] }] } } } },
    'n1',
  );
  assert.deepEqual(spec.affinity, {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }],
      },
    },
  });
  assert.equal(targetNode({ metadata: {}, spec }), 'n1');
  assert.equal(targetNode({ metadata: {}, spec: { ...spec, nodeName: 'n2' } }), 'n2');
});

test('R12.92: node selector, taints (NoSchedule keeps a running pod, NoExecute does not) and cordons', () => {
  const ds = daemonSet({ nodeSelector: { disk: 'ssd' } });
  assert.deepEqual(nodeShouldRunDaemonPod(node('a'), ds), { shouldRun: false, shouldContinueRunning: false });
  assert.deepEqual(nodeShouldRunDaemonPod(node('b', { labels: { disk: 'ssd' } }), ds), { shouldRun: true, shouldContinueRunning: true });
  const plain = daemonSet();
  const noSchedule = node('c', { taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] });
  assert.deepEqual(nodeShouldRunDaemonPod(noSchedule, plain), { shouldRun: false, shouldContinueRunning: true });
  const noExecute = node('d', { taints: [{ key: 'dedicated', value: 'x', effect: 'NoExecute' }] });
  assert.deepEqual(nodeShouldRunDaemonPod(noExecute, plain), { shouldRun: false, shouldContinueRunning: false });
  const cordoned = node('e', { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] });
  assert.equal(nodeShouldRunDaemonPod(cordoned, plain).shouldRun, true);
  const tolerant = daemonSet({ tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'x', effect: 'NoSchedule' }] });
  assert.equal(nodeShouldRunDaemonPod(noSchedule, tolerant).shouldRun, true);
});

test('R12.95: manage creates on nodes without a pod, removes extras and pods of ineligible nodes', () => {
  const ds = daemonSet({ nodeSelector: { run: 'yes' } });
  const nodes = [node('a', { labels: { run: 'yes' } }), node('b', { labels: { run: 'yes' } }), node('c')];
  const pods = [
    daemonPod('p-b1', 'b', 'h'),
    { ...daemonPod('p-b2', 'b', 'h'), metadata: { ...daemonPod('p-b2', 'b', 'h').metadata, creationTimestamp: '2026-01-01T00:05:00Z' } },
    daemonPod('p-c', 'c', 'h'),
  ];
  const plan = planManage({ ds, nodes, pods, hash: 'h', now: NOW, mayReplaceFailed: () => true });
  assert.deepEqual(plan.createOn, ['a']);
  assert.deepEqual(plan.remove.sort(), ['p-b2', 'p-c']);
  const status = computeDaemonStatus(ds, nodes, pods, 'h', NOW);
  assert.deepEqual(status, {
    desiredNumberScheduled: 2,
    currentNumberScheduled: 1,
    numberMisscheduled: 1,
    numberReady: 1,
    updatedNumberScheduled: 1,
    numberAvailable: 1,
    numberUnavailable: 1,
  });
});

test('R12.95: a failed pod is killed with a FailedDaemonPod event unless its node is backing off', () => {
  const ds = daemonSet();
  const failed = { ...daemonPod('p-a', 'a', 'h'), status: { phase: 'Failed' } };
  const plan = planManage({ ds, nodes: [node('a')], pods: [failed], hash: 'h', now: NOW, mayReplaceFailed: () => true });
  assert.deepEqual(plan.remove, ['p-a']);
  assert.deepEqual(plan.events, [
    { type: 'Warning', reason: 'FailedDaemonPod', message: 'Found failed daemon pod ns/p-a on node a, will try to kill it' },
  ]);
  assert.deepEqual(planManage({ ds, nodes: [node('a')], pods: [failed], hash: 'h', now: NOW, mayReplaceFailed: () => false }).remove, []);
});

test('R12.96: maxUnavailable 1 replaces one old pod at a time; unavailable old pods go at once', () => {
  const ds = daemonSet();
  const nodes = [node('a'), node('b'), node('c')];
  const old = [daemonPod('p-a', 'a', 'old'), daemonPod('p-b', 'b', 'old'), daemonPod('p-c', 'c', 'old')];
  assert.deepEqual(planRollingUpdate({ ds, nodes, pods: old, hash: 'new', now: NOW }).remove.length, 1);
  const oneNew = [daemonPod('p-a2', 'a', 'new', false), daemonPod('p-b', 'b', 'old'), daemonPod('p-c', 'c', 'old')];
  assert.deepEqual(planRollingUpdate({ ds, nodes, pods: oneNew, hash: 'new', now: NOW }).remove, [], 'a node is already unavailable');
  const brokenOld = [daemonPod('p-a', 'a', 'old', false), daemonPod('p-b', 'b', 'old', false), daemonPod('p-c', 'c', 'old')];
  // Old pods already unavailable do not use up maxUnavailable: one available old pod goes with them.
  assert.deepEqual(planRollingUpdate({ ds, nodes, pods: brokenOld, hash: 'new', now: NOW }).remove, ['p-a', 'p-b', 'p-c']);
});

test('R12.96: with maxSurge the updated pod starts beside the old one, which goes once the new one is available', () => {
  const ds = daemonSet({}, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
  const nodes = [node('a'), node('b')];
  const start = planRollingUpdate({ ds, nodes, pods: [daemonPod('p-a', 'a', 'old'), daemonPod('p-b', 'b', 'old')], hash: 'new', now: NOW });
  assert.deepEqual([start.createOn, start.remove], [['a'], []]);
  const surged = [daemonPod('p-a', 'a', 'old'), daemonPod('p-a2', 'a', 'new'), daemonPod('p-b', 'b', 'old')];
  const next = planRollingUpdate({ ds, nodes, pods: surged, hash: 'new', now: NOW });
  assert.deepEqual([next.createOn, next.remove], [['b'], ['p-a']]);
});
