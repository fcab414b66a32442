import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { podsToDelete } from './pod-ranking.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');

function pod(name: string, opts: { node?: string; phase?: string; ready?: boolean; cost?: string; created?: string } = {}): KubeObject {
  return {
    metadata: {
      name,
      uid: name,
      creationTimestamp: opts.created ?? '2026-01-01T00:00:00Z',
      ...(opts.cost === undefined ? {} : { annotations: { 'controller.kubernetes.io/pod-deletion-cost': opts.cost } }),
    },
    spec: opts.node === undefined ? {} : { nodeName: opts.node },
    status: {
      phase: opts.phase ?? 'Running',
      conditions: opts.ready === true ? [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:01:00Z' }] : [],
    },
  };
}

const names = (pods: KubeObject[]): string[] => pods.map((p) => p.metadata.name ?? '');

test('ActivePodsWithRanks order: unassigned, Pending < Unknown < Running, not ready, lower deletion cost, newer', () => {
  const cases: [string, KubeObject[], string[]][] = [
    ['unassigned before assigned', [pod('assigned', { node: 'n1' }), pod('unassigned')], ['unassigned']],
    ['Pending before Running', [pod('running', { node: 'n' }), pod('pending', { node: 'n', phase: 'Pending' })], ['pending']],
    ['Unknown before Running', [pod('running', { node: 'n' }), pod('unknown', { node: 'n', phase: 'Unknown' })], ['unknown']],
    ['not ready before ready', [pod('ready', { node: 'n', ready: true }), pod('notready', { node: 'n' })], ['notready']],
    ['lower deletion cost first', [pod('cheap', { node: 'n', cost: '-5' }), pod('dear', { node: 'n', cost: '10' })], ['cheap']],
    [
      'newer first',
      [pod('old', { node: 'n', created: '2026-01-01T00:00:00Z' }), pod('new', { node: 'n', created: '2026-01-01T00:09:59Z' })],
      ['new'],
    ],
  ];
  for (const [what, pods, expected] of cases) assert.deepEqual(names(podsToDelete(pods, pods, 1, NOW)), expected, what);
});

test('more co-located related pods on the node go first', () => {
  const crowded = pod('crowded', { node: 'busy' });
  const alone = pod('alone', { node: 'quiet' });
  const related = [crowded, alone, pod('other-1', { node: 'busy' }), pod('other-2', { node: 'busy' })];
  assert.deepEqual(names(podsToDelete([alone, crowded], related, 1, NOW)), ['crowded']);
});
