import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import type { KubeObject } from '../api/types.js';
import { deletionGrace, deletionOutcome, UNCHANGED } from './deletion.js';
import { genericStrategy } from './resources/generic.js';

const CONFIGMAPS = BUILTIN_RESOURCES.find((r) => r.plural === 'configmaps' && r.group === '');
assert.ok(CONFIGMAPS);
const clock = () => new Date('2026-01-02T03:04:05.678Z');
/** A type with graceful deletion: the requested period, 30 s by default. */
const graceful = genericStrategy(CONFIGMAPS, { gracePeriodFor: (_obj, requested) => requested ?? 30 });
const plain = genericStrategy(CONFIGMAPS);
const held = genericStrategy(CONFIGMAPS, { readyToRemove: () => false });

const object = (meta: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'a', ...meta },
});

describe('deletion decisions', () => {
  it('a plain object without finalizers is removed at once', () => {
    const grace = deletionGrace(plain, object(), {});
    if (grace === UNCHANGED) assert.fail('unexpected UNCHANGED');
    assert.deepEqual(deletionOutcome(plain, object(), grace, [], clock), { kind: 'remove', markFirst: undefined });
  });

  it('finalizers keep the object, marked now with grace 0 (R1.15)', () => {
    const grace = deletionGrace(plain, object(), {});
    if (grace === UNCHANGED) assert.fail('unexpected UNCHANGED');
    assert.deepEqual(deletionOutcome(plain, object(), grace, ['example.com/x'], clock), {
      kind: 'mark',
      deletionTimestamp: '2026-01-02T03:04:05Z',
      gracePeriodSeconds: 0,
    });
  });

  it('a graceful type is marked with its deadline, and a shorter period moves it by the difference (R2.20)', () => {
    const first = deletionGrace(graceful, object(), {});
    if (first === UNCHANGED) assert.fail('unexpected UNCHANGED');
    assert.deepEqual(deletionOutcome(graceful, object(), first, [], clock), {
      kind: 'mark',
      deletionTimestamp: '2026-01-02T03:04:35Z',
      gracePeriodSeconds: 30,
    });
    const marked = object({ deletionTimestamp: '2026-01-02T03:04:35Z', deletionGracePeriodSeconds: 30 });
    assert.equal(deletionGrace(graceful, marked, {}), UNCHANGED);
    assert.equal(deletionGrace(graceful, marked, { gracePeriodSeconds: 40 }), UNCHANGED);
    const shorter = deletionGrace(graceful, marked, { gracePeriodSeconds: 10 });
    if (shorter === UNCHANGED) assert.fail('unexpected UNCHANGED');
    assert.deepEqual(deletionOutcome(graceful, marked, shorter, [], clock), {
      kind: 'mark',
      deletionTimestamp: '2026-01-02T03:04:15Z',
      gracePeriodSeconds: 10,
    });
  });

  it('a graceful type deleted with period 0 is marked first, then removed (R2.19)', () => {
    const grace = deletionGrace(graceful, object(), { gracePeriodSeconds: 0 });
    if (grace === UNCHANGED) assert.fail('unexpected UNCHANGED');
    assert.deepEqual(deletionOutcome(graceful, object(), grace, [], clock), { kind: 'remove', markFirst: '2026-01-02T03:04:05Z' });
  });

  it('a terminating object its strategy still holds ignores DELETE (R5.7)', () => {
    assert.equal(deletionGrace(held, object({ deletionTimestamp: '2026-01-02T03:00:00Z', deletionGracePeriodSeconds: 0 }), {}), UNCHANGED);
  });
});
