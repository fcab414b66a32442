import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { FINALIZER_POPULATING_GRACEFUL_DELETION, PROPAGATED_GRACE_ANNOTATION, withGracePropagation } from './grace-propagation.js';
import { genericStrategy } from './resources/generic.js';

/** Extension B's DELETE path (R12.173, R12.174). */

const configMaps = BUILTIN_RESOURCES.find((r) => r.group === '' && r.plural === 'configmaps');
if (configMaps === undefined) throw new Error('configmaps are served');
const strategy = withGracePropagation(genericStrategy(configMaps));
const alive: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } };
const deleting = (finalizers: string[], grace: string): KubeObject => ({
  ...alive,
  metadata: {
    ...alive.metadata,
    deletionTimestamp: '2026-01-01T00:00:00Z',
    finalizers,
    annotations: { [PROPAGATED_GRACE_ANNOTATION]: grace },
  },
});

test('the first DELETE with a grace period adds the finalizer after the GC ones, and the annotation (R12.173)', () => {
  const gc = strategy.deletionFinalizers({ gracePeriodSeconds: 5, propagationPolicy: 'Foreground' }, [], alive);
  assert.deepEqual(gc, { changed: true, finalizers: ['foregroundDeletion', FINALIZER_POPULATING_GRACEFUL_DELETION] });
  assert.deepEqual(strategy.deletionAnnotation?.({ gracePeriodSeconds: 5 }, alive, gc.finalizers), {
    name: PROPAGATED_GRACE_ANNOTATION,
    value: '5',
  });
  assert.deepEqual(
    strategy.deletionAnnotation?.({ gracePeriodSeconds: -3 }, alive, gc.finalizers)?.value,
    '1',
    'R2.4: negative counts as 1',
  );
});

test('no finalizer without a grace period, when orphaning, or on a later DELETE (R12.173)', () => {
  assert.deepEqual(strategy.deletionFinalizers({}, [], alive), { changed: false, finalizers: [] });
  assert.deepEqual(strategy.deletionFinalizers({ gracePeriodSeconds: 5, propagationPolicy: 'Orphan' }, [], alive).finalizers, ['orphan']);
  const marked = { ...alive, metadata: { ...alive.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
  assert.deepEqual(strategy.deletionFinalizers({ gracePeriodSeconds: 5 }, [], marked).finalizers, []);
});

test('a smaller grace lowers the annotation, a larger one changes nothing, Orphan removes both (R12.174)', () => {
  const owner = deleting([FINALIZER_POPULATING_GRACEFUL_DELETION], '5');
  const kept = strategy.deletionFinalizers({ gracePeriodSeconds: 2 }, [FINALIZER_POPULATING_GRACEFUL_DELETION], owner).finalizers;
  assert.deepEqual(strategy.deletionAnnotation?.({ gracePeriodSeconds: 2 }, owner, kept), {
    name: PROPAGATED_GRACE_ANNOTATION,
    value: '2',
  });
  assert.equal(strategy.deletionAnnotation?.({ gracePeriodSeconds: 9 }, owner, kept), undefined);
  const orphaned = strategy.deletionFinalizers({ propagationPolicy: 'Orphan' }, [FINALIZER_POPULATING_GRACEFUL_DELETION], owner);
  assert.deepEqual(orphaned, { changed: true, finalizers: ['orphan'] });
  assert.deepEqual(strategy.deletionAnnotation?.({ propagationPolicy: 'Orphan' }, owner, orphaned.finalizers), {
    name: PROPAGATED_GRACE_ANNOTATION,
    value: null,
  });
});
