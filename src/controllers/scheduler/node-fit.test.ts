import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { emptyUsage, filterNode, leastAllocatedScore, unschedulableMessage } from './node-fit.js';
import { podRequests } from './pod-requests.js';

const node = (
  name: string,
  extra: { labels?: Record<string, string>; spec?: Record<string, unknown>; allocatable?: Record<string, string> } = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...extra.labels } },
  spec: extra.spec ?? {},
  status: { allocatable: extra.allocatable ?? { cpu: '32', memory: '256Gi', pods: '110' } },
});

const pod = (spec: Record<string, unknown> = {}, requests?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'nginx', resources: requests === undefined ? {} : { requests } }], ...spec },
});

const fit = (p: KubeObject, n: KubeObject, usage = emptyUsage()) => filterNode(p, podRequests(p), n, usage)?.reasons;

describe('scheduler filters (pkg/scheduler/framework/plugins: nodeunschedulable, tainttoleration, nodeaffinity, noderesources/fit)', () => {
  const cases: [string, KubeObject, KubeObject, string[] | undefined][] = [
    ['a plain pod fits an empty node', pod(), node('n'), undefined],
    ['NodeUnschedulable: a cordoned node', pod(), node('n', { spec: { unschedulable: true } }), ['node(s) were unschedulable']],
    [
      'NodeUnschedulable: tolerated by the unschedulable taint',
      pod({ tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }),
      node('n', { spec: { unschedulable: true } }),
      undefined,
    ],
    [
      'TaintToleration: an untolerated NoSchedule taint',
      pod(),
      node('n', { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } }),
      ['node(s) had untolerated taint {dedicated: gpu}'],
    ],
    [
      'TaintToleration: PreferNoSchedule is not a filter',
      pod(),
      node('n', { spec: { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] } }),
      undefined,
    ],
    [
      'TaintToleration: Equal toleration with the value',
      pod({ tolerations: [{ key: 'dedicated', value: 'gpu', effect: 'NoExecute' }] }),
      node('n', { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoExecute' }] } }),
      undefined,
    ],
    [
      'TaintToleration: an empty-key Exists toleration tolerates everything',
      pod({ tolerations: [{ operator: 'Exists' }] }),
      node('n', { spec: { taints: [{ key: 'a', value: 'b', effect: 'NoSchedule' }] } }),
      undefined,
    ],
    [
      'NodeAffinity: nodeSelector mismatch',
      pod({ nodeSelector: { disk: 'ssd' } }),
      node('n'),
      ["node(s) didn't match Pod's node affinity/selector"],
    ],
    ['NodeAffinity: nodeSelector match', pod({ nodeSelector: { disk: 'ssd' } }), node('n', { labels: { disk: 'ssd' } }), undefined],
    [
      'NodeAffinity: matchFields metadata.name In',
      pod({
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['other'] }] }],
            },
          },
        },
      }),
      node('n'),
      ["node(s) didn't match Pod's node affinity/selector"],
    ],
    [
      'NodeAffinity: terms are ORed, expressions ANDed, Gt compares integers',
      pod({
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
                {
                  matchExpressions: [
                    { key: 'cores', operator: 'Gt', values: ['8'] },
                    { key: 'spot', operator: 'DoesNotExist' },
                  ],
                },
              ],
            },
          },
        },
      }),
      node('n', { labels: { cores: '16' } }),
      undefined,
    ],
    ['NodeResourcesFit: Insufficient cpu', pod({}, { cpu: '33' }), node('n'), ['Insufficient cpu']],
    [
      'NodeResourcesFit: pods, cpu and memory reported together',
      pod({}, { cpu: '2', memory: '2Gi' }),
      node('n', { allocatable: { cpu: '1', memory: '1Gi', pods: '0' } }),
      ['Too many pods', 'Insufficient cpu', 'Insufficient memory'],
    ],
  ];
  for (const [name, p, n, expected] of cases) {
    it(name, () => assert.deepEqual(fit(p, n), expected));
  }

  it('NodeResourcesFit counts what is already bound, and the 110-pod limit', () => {
    const usage = { ...emptyUsage(), cpu: 31.5, pods: 110 };
    assert.deepEqual(fit(pod({}, { cpu: '500m' }), node('n'), usage), ['Too many pods']);
    assert.deepEqual(fit(pod({}, { cpu: '501m' }), node('n'), { ...usage, pods: 0 }), ['Insufficient cpu']);
  });

  it('PodRequests: the largest init container wins over the sum of containers; overhead is added', () => {
    const p = pod(
      { initContainers: [{ name: 'i', image: 'x', resources: { requests: { cpu: '3' } } }], overhead: { cpu: '250m' } },
      { cpu: '1' },
    );
    assert.equal(podRequests(p).cpu, 3.25);
  });
});

describe('LeastAllocated scoring and FitError messages', () => {
  it('prefers the node with more free cpu and memory (non-zero defaults for pods asking nothing)', () => {
    const busy = { ...emptyUsage(), nonZeroCpu: 16, nonZeroMemory: 128 * 2 ** 30 };
    const p = pod();
    assert.ok(leastAllocatedScore(podRequests(p), node('a'), emptyUsage()) > leastAllocatedScore(podRequests(p), node('b'), busy));
  });

  it('histogram sorted as strings, then the preemption post-filter message (FitError.Error)', () => {
    const message = unschedulableMessage(pod(), 3, [
      { reasons: ['Insufficient cpu'], resolvable: true },
      { reasons: ["node(s) didn't match Pod's node affinity/selector"], resolvable: false },
      { reasons: ["node(s) didn't match Pod's node affinity/selector"], resolvable: false },
    ]);
    assert.equal(
      message,
      "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
    );
  });

  it('preemptionPolicy Never and no nodes at all', () => {
    assert.equal(
      unschedulableMessage(pod({ preemptionPolicy: 'Never' }), 1, [{ reasons: ['node(s) were unschedulable'], resolvable: false }]),
      '0/1 nodes are available: 1 node(s) were unschedulable. preemption: not eligible due to preemptionPolicy=Never.',
    );
    assert.equal(unschedulableMessage(pod(), 0, []), 'no nodes available to schedule pods');
  });
});
