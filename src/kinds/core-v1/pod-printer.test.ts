import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { POD_PRINTER, summarizePod } from './pod-printer.js';

const NOW = new Date('2024-06-01T12:00:00Z');
const ago = (seconds: number): string => new Date(NOW.getTime() - seconds * 1000).toISOString();

function pod(spec: Record<string, unknown>, status: Record<string, unknown>, metadata: Record<string, unknown> = {}): KubeObject {
  return { metadata: { name: 'p', namespace: 'ns', creationTimestamp: ago(300), ...metadata }, spec, status };
}

const running = (name: string, ready = true) => ({ name, ready, restartCount: 0, state: { running: { startedAt: ago(60) } } });
const oneContainer = { containers: [{ name: 'app', image: 'nginx' }] };
const twoContainers = { containers: [{ name: 'a' }, { name: 'b' }] };

describe('summarizePod (printPod READY/STATUS/RESTARTS)', () => {
  const cases: [title: string, input: KubeObject, ready: string, status: string, restarts: string][] = [
    [
      'all containers running',
      pod(twoContainers, { phase: 'Running', containerStatuses: [running('a'), running('b')] }),
      '2/2',
      'Running',
      '0',
    ],
    ['pending without statuses', pod(oneContainer, { phase: 'Pending' }), '0/1', 'Pending', '0'],
    [
      'waiting reason wins',
      pod(oneContainer, {
        phase: 'Pending',
        containerStatuses: [{ name: 'app', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }],
      }),
      '0/1',
      'ContainerCreating',
      '0',
    ],
    [
      'crash loop with last restart time',
      pod(oneContainer, {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            ready: false,
            restartCount: 5,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ago(180) } },
          },
        ],
      }),
      '0/1',
      'CrashLoopBackOff',
      '5 (3m ago)',
    ],
    [
      'completed',
      pod(oneContainer, {
        phase: 'Succeeded',
        containerStatuses: [{ name: 'app', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } }],
      }),
      '0/1',
      'Completed',
      '0',
    ],
    [
      'terminated by signal without a reason',
      pod(oneContainer, {
        phase: 'Failed',
        containerStatuses: [{ name: 'app', restartCount: 0, state: { terminated: { exitCode: 137, signal: 9 } } }],
      }),
      '0/1',
      'Signal:9',
      '0',
    ],
    [
      'terminated with an exit code only',
      pod(oneContainer, { phase: 'Failed', containerStatuses: [{ name: 'app', restartCount: 0, state: { terminated: { exitCode: 2 } } }] }),
      '0/1',
      'ExitCode:2',
      '0',
    ],
    [
      'completed container next to a running one, pod ready',
      pod(twoContainers, {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [{ name: 'a', restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } }, running('b')],
      }),
      '1/2',
      'Running',
      '0',
    ],
    [
      'completed container next to a running one, pod not ready',
      pod(twoContainers, {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'False' }],
        containerStatuses: [{ name: 'a', restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } }, running('b')],
      }),
      '1/2',
      'NotReady',
      '0',
    ],
    [
      'terminating',
      pod(oneContainer, { phase: 'Running', containerStatuses: [running('app')] }, { deletionTimestamp: ago(0) }),
      '1/1',
      'Terminating',
      '0',
    ],
    [
      'terminal phase is not shown as terminating',
      pod(oneContainer, { phase: 'Failed', reason: 'Evicted' }, { deletionTimestamp: ago(0) }),
      '0/1',
      'Evicted',
      '0',
    ],
    [
      'unreachable node',
      pod(oneContainer, { phase: 'Running', reason: 'NodeLost', containerStatuses: [running('app')] }, { deletionTimestamp: ago(0) }),
      '1/1',
      'Unknown',
      '0',
    ],
    [
      'scheduling gated',
      pod(oneContainer, { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }),
      '0/1',
      'SchedulingGated',
      '0',
    ],
    [
      'init container still running',
      pod(
        { ...oneContainer, initContainers: [{ name: 'i1' }, { name: 'i2' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [
            { name: 'i1', restartCount: 0, state: { running: {} } },
            { name: 'i2', restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } },
          ],
        },
      ),
      '0/1',
      'Init:0/2',
      '0',
    ],
    [
      'init container waiting with a reason',
      pod(
        { ...oneContainer, initContainers: [{ name: 'i1' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [{ name: 'i1', restartCount: 2, state: { waiting: { reason: 'ImagePullBackOff' } } }],
        },
      ),
      '0/1',
      'Init:ImagePullBackOff',
      '2',
    ],
    [
      'init container failed without a reason',
      pod(
        { ...oneContainer, initContainers: [{ name: 'i1' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [{ name: 'i1', restartCount: 0, state: { terminated: { exitCode: 3 } } }],
        },
      ),
      '0/1',
      'Init:ExitCode:3',
      '0',
    ],
    [
      'init container failed with a reason',
      pod(
        { ...oneContainer, initContainers: [{ name: 'i1' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [{ name: 'i1', restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error' } } }],
        },
      ),
      '0/1',
      'Init:Error',
      '0',
    ],
    [
      'started sidecar counts toward ready and total',
      pod(
        { ...oneContainer, initContainers: [{ name: 'proxy', restartPolicy: 'Always' }] },
        {
          phase: 'Running',
          conditions: [{ type: 'Initialized', status: 'True' }],
          initContainerStatuses: [{ name: 'proxy', ready: true, started: true, restartCount: 1, state: { running: {} } }],
          containerStatuses: [running('app')],
        },
      ),
      '2/2',
      'Running',
      '1',
    ],
  ];
  for (const [title, input, ready, status, restarts] of cases) {
    it(title, () => {
      assert.deepEqual(summarizePod(input, NOW), { ready, status, restarts });
    });
  }
});

describe('POD_PRINTER', () => {
  it('fills the wide columns with <none> when unset', () => {
    const cells = POD_PRINTER.row(pod(oneContainer, { phase: 'Pending' }), NOW);
    assert.deepEqual(cells, ['p', '0/1', 'Pending', '0', '5m', '<none>', '<none>', '<none>', '<none>']);
  });

  it('reports the first pod IP, node and readiness gates', () => {
    const input = pod(
      { ...oneContainer, nodeName: 'n1', readinessGates: [{ conditionType: 'a' }, { conditionType: 'b' }] },
      {
        phase: 'Running',
        podIPs: [{ ip: '10.1.0.5' }, { ip: 'fd00::5' }],
        conditions: [
          { type: 'a', status: 'True' },
          { type: 'b', status: 'False' },
        ],
        containerStatuses: [running('app')],
      },
    );
    assert.deepEqual(POD_PRINTER.row(input, NOW).slice(5), ['10.1.0.5', 'n1', '<none>', '1/2']);
  });

  it('marks finished pods with a Completed row condition', () => {
    assert.deepEqual(POD_PRINTER.conditions?.(pod(oneContainer, { phase: 'Succeeded' })), [
      { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' },
    ]);
    assert.deepEqual(POD_PRINTER.conditions?.(pod(oneContainer, { phase: 'Failed' })), [
      { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' },
    ]);
    assert.equal(POD_PRINTER.conditions?.(pod(oneContainer, { phase: 'Running' })), undefined);
  });
});
