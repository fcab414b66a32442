import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { containerRun, logContainer, renderLog } from './container-log.js';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const at = (s: number): string => new Date(T0 + s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

function pod(status: Record<string, unknown>, annotations: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', annotations },
    spec: {
      nodeName: 'n',
      initContainers: [{ name: 'init', image: 'busybox' }],
      containers: [
        { name: 'a', image: 'nginx' },
        { name: 'b', image: 'nginx' },
      ],
    },
    status,
  };
}

describe('simulated container logs (pods/log)', () => {
  it('resolves the container as LogLocation does', () => {
    const p = pod({});
    assert.throws(() => logContainer(p, ''), { message: 'a container name must be specified for pod p, choose one of: [init a b]' });
    assert.throws(() => logContainer(p, 'c'), { message: 'container c is not valid for pod p' });
    assert.equal(logContainer(p, 'init'), 'init');
  });

  it('writes start, ready after the readiness delay, and exit lines of the run', () => {
    const running = pod(
      { containerStatuses: [{ name: 'a', image: 'nginx', containerID: 'c1', state: { running: { startedAt: at(0) } } }] },
      {
        'cascade.dev/simulate-ready-seconds': '5',
      },
    );
    assert.deepEqual(
      containerRun(running, 'a', false, T0 + 4000).lines.map((l) => l.text),
      ['[simulated] container a started from image nginx'],
    );
    const later = containerRun(running, 'a', false, T0 + 6000);
    assert.deepEqual(
      later.lines.map((l) => l.atMs),
      [T0, T0 + 5000],
    );
    assert.equal(later.finished, false);
    const done = pod({
      containerStatuses: [
        {
          name: 'a',
          image: 'nginx',
          containerID: 'c1',
          state: { terminated: { startedAt: at(0), finishedAt: at(9), exitCode: 2, reason: 'Error', containerID: 'c1' } },
        },
      ],
    });
    const run = containerRun(done, 'a', false, T0 + 20_000);
    assert.equal(run.finished, true);
    assert.equal(run.lines.at(-1)?.text, '[simulated] container a exited with code 2 (Error)');
  });

  it("answers the kubelet's errors for containers without a log", () => {
    assert.throws(() => containerRun(pod({}), 'a', false, T0), {
      message: 'container "a" in pod "p" is waiting to start: ContainerCreating',
    });
    const waiting = pod({ containerStatuses: [{ name: 'a', state: { waiting: { reason: 'ImagePullBackOff' } } }] });
    assert.throws(() => containerRun(waiting, 'a', false, T0), {
      message: 'container "a" in pod "p" is waiting to start: trying and failing to pull image',
    });
    const fresh = pod({ containerStatuses: [{ name: 'a', containerID: 'c', state: { running: { startedAt: at(0) } } }] });
    assert.throws(() => containerRun(fresh, 'a', true, T0), { message: 'previous terminated container "a" in pod "p" not found' });
  });

  it('renders with since, tail, timestamps and the byte limit', () => {
    const lines = [
      { atMs: T0, text: 'one' },
      { atMs: T0 + 1000, text: 'two' },
      { atMs: T0 + 2000, text: 'three' },
    ];
    assert.equal(renderLog(lines, { timestamps: false, tailLines: 2 }), 'two\nthree\n');
    assert.equal(renderLog(lines, { timestamps: false, sinceMs: T0 + 1500 }), 'three\n');
    assert.equal(renderLog(lines, { timestamps: true, tailLines: 1 }), '2026-11-27T10:00:02.000000000Z three\n');
    assert.equal(renderLog(lines, { timestamps: false, limitBytes: 5 }), 'one\nt');
    assert.equal(renderLog(lines, { timestamps: false, tailLines: 0 }), '');
  });
});
