import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../api/errors.js';
import { namespaceDeletionFinalizers } from '../kinds/core-v1/namespace.js';
import {
  deleteOptionsFromBody,
  deletionFinalizersForGarbageCollection,
  normaliseGrace,
  shouldDeleteDependents,
  shouldOrphanDependents,
  validateDeleteOptions,
} from './delete-policy.js';
import type { DeleteOptions } from '../api/delete-options.js';
import type { GcPolicy } from '../api/delete-options.js';

const badRequest = (message: string) => (err: unknown) => err instanceof StatusError && err.code === 400 && err.message === message;

test('DeleteOptions are read from a body, fields of the wrong type refused with Go decoding errors as 400 (R2.1, R2.2)', () => {
  assert.deepEqual(
    deleteOptionsFromBody({
      gracePeriodSeconds: 30,
      preconditions: { uid: 'u', resourceVersion: '7' },
      orphanDependents: false,
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    }),
    {
      gracePeriodSeconds: 30,
      preconditions: { uid: 'u', resourceVersion: '7' },
      orphanDependents: false,
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    },
  );
  assert.deepEqual(deleteOptionsFromBody({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: null }), {});
  assert.throws(() => deleteOptionsFromBody([]), badRequest('DeleteOptions must be a JSON object'));
  assert.throws(
    () => deleteOptionsFromBody({ gracePeriodSeconds: '5' }),
    badRequest('json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64'),
  );
  assert.throws(
    () => deleteOptionsFromBody({ gracePeriodSeconds: [1] }),
    badRequest('json: cannot unmarshal array into Go struct field DeleteOptions.gracePeriodSeconds of type int64'),
  );
  assert.throws(
    () => deleteOptionsFromBody({ gracePeriodSeconds: 1.5 }),
    badRequest('json: cannot unmarshal number 1.5 into Go struct field DeleteOptions.gracePeriodSeconds of type int64'),
  );
});

test('a grace period is checked against its source text, so integers past int64 are refused as Go refuses them', () => {
  const literal = (text: string) => (key: string) => (key === 'gracePeriodSeconds' ? text : undefined);
  assert.deepEqual(deleteOptionsFromBody({ gracePeriodSeconds: 2 ** 63 }, literal('9223372036854775807')), { gracePeriodSeconds: 2 ** 63 });
  assert.throws(
    () => deleteOptionsFromBody({ gracePeriodSeconds: 2 ** 63 }, literal('9223372036854775808')),
    badRequest('json: cannot unmarshal number 9223372036854775808 into Go struct field DeleteOptions.gracePeriodSeconds of type int64'),
  );
  assert.throws(
    () => deleteOptionsFromBody({ gracePeriodSeconds: 100 }, literal('1e2')),
    badRequest('json: cannot unmarshal number 1e2 into Go struct field DeleteOptions.gracePeriodSeconds of type int64'),
  );
});

test('validation refuses both orphan fields together, unknown policies and unknown dryRun values (R2.3)', () => {
  assert.deepEqual(validateDeleteOptions({ propagationPolicy: 'Background', dryRun: ['All'] }), []);
  assert.deepEqual(
    validateDeleteOptions({ orphanDependents: true, propagationPolicy: 'Orphan' }).map((e) => [e.type, e.field, e.detail]),
    [['FieldValueInvalid', 'propagationPolicy', 'orphanDependents and deletionPropagation cannot be both set']],
  );
  assert.deepEqual(
    validateDeleteOptions({ propagationPolicy: 'Sideways' as DeleteOptions['propagationPolicy'] }).map((e) => [e.type, e.field, e.detail]),
    [['FieldValueNotSupported', 'propagationPolicy', 'supported values: "Foreground", "Background", "Orphan", "nil"']],
  );
  assert.deepEqual(
    validateDeleteOptions({ dryRun: ['All', 'Some'] }).map((e) => [e.type, e.field, e.detail]),
    [['FieldValueNotSupported', 'dryRun', 'supported values: "All"']],
  );
});

/** [gc policy, options, existing finalizers] → [should orphan, should foreground] (R2.13, R2.14 precedence). */
const decisions: [GcPolicy, DeleteOptions, string[], boolean, boolean][] = [
  ['Unsupported', { propagationPolicy: 'Orphan' }, ['orphan'], false, false],
  ['Unsupported', { propagationPolicy: 'Foreground' }, ['foregroundDeletion'], false, false],
  ['DeleteDependents', {}, [], false, false],
  ['OrphanDependents', {}, [], true, false],
  // The legacy field wins over everything, and orphanDependents=false means background in the generic store.
  ['OrphanDependents', { orphanDependents: false }, ['orphan'], false, false],
  ['DeleteDependents', { orphanDependents: true }, ['foregroundDeletion'], true, false],
  ['DeleteDependents', { propagationPolicy: 'Orphan' }, ['foregroundDeletion'], true, false],
  ['OrphanDependents', { propagationPolicy: 'Background' }, ['orphan'], false, false],
  ['DeleteDependents', { propagationPolicy: 'Foreground' }, ['orphan'], false, true],
  // Without options, the first GC finalizer already present decides (R2.32).
  ['OrphanDependents', {}, ['foregroundDeletion', 'orphan'], false, true],
  ['DeleteDependents', {}, ['example.com/x', 'orphan', 'foregroundDeletion'], true, false],
];

test('whether a DELETE orphans or deletes in the foreground follows the precedence of options, finalizers, defaults (R2.13, R2.14)', () => {
  for (const [policy, opts, finalizers, orphan, foreground] of decisions) {
    const label = `${policy} ${JSON.stringify(opts)} ${JSON.stringify(finalizers)}`;
    assert.equal(shouldOrphanDependents(policy, opts, finalizers), orphan, `orphan: ${label}`);
    assert.equal(shouldDeleteDependents(policy, opts, finalizers), foreground, `foreground: ${label}`);
  }
});

test('the GC finalizers are replaced at the end of the list, and a change is one of the set only (R2.15, R2.31)', () => {
  assert.deepEqual(deletionFinalizersForGarbageCollection('DeleteDependents', { propagationPolicy: 'Orphan' }, ['example.com/x']), {
    changed: true,
    finalizers: ['example.com/x', 'orphan'],
  });
  // Foreground → Orphan mid-flight swaps the finalizer; Orphan → Background drops it.
  assert.deepEqual(
    deletionFinalizersForGarbageCollection('DeleteDependents', { propagationPolicy: 'Orphan' }, ['foregroundDeletion', 'example.com/x']),
    {
      changed: true,
      finalizers: ['example.com/x', 'orphan'],
    },
  );
  assert.deepEqual(deletionFinalizersForGarbageCollection('DeleteDependents', { propagationPolicy: 'Background' }, ['orphan']), {
    changed: true,
    finalizers: [],
  });
  // The same set in another order is no change: the list is kept as it is.
  assert.deepEqual(deletionFinalizersForGarbageCollection('DeleteDependents', {}, ['orphan', 'example.com/x']), {
    changed: false,
    finalizers: ['orphan', 'example.com/x'],
  });
  assert.deepEqual(deletionFinalizersForGarbageCollection('Unsupported', { propagationPolicy: 'Foreground' }, []), {
    changed: false,
    finalizers: [],
  });
});

test('namespaces read orphanDependents=false as foreground and otherwise keep the finalizers they have (R5.6, R5.9)', () => {
  assert.deepEqual(namespaceDeletionFinalizers({ orphanDependents: false }, ['kubernetes']), {
    changed: true,
    finalizers: ['kubernetes', 'foregroundDeletion'],
  });
  assert.deepEqual(namespaceDeletionFinalizers({ propagationPolicy: 'Orphan' }, []), { changed: true, finalizers: ['orphan'] });
  assert.deepEqual(namespaceDeletionFinalizers({}, ['foregroundDeletion']), { changed: false, finalizers: ['foregroundDeletion'] });
  assert.deepEqual(namespaceDeletionFinalizers({ propagationPolicy: 'Background' }, ['orphan']), { changed: true, finalizers: [] });
});

test('negative grace periods count as one second (R2.4)', () => {
  assert.equal(normaliseGrace(undefined), undefined);
  assert.equal(normaliseGrace(-5), 1);
  assert.equal(normaliseGrace(0), 0);
  assert.equal(normaliseGrace(30), 30);
});
