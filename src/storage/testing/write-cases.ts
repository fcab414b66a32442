import assert from 'node:assert/strict';
import { KeyExistsError, KeyNotFoundError, RevisionConflictError } from '../errors.js';
import type { ConformanceGroup } from './conformance-case.js';
import { bytes, rejectionOf, summary, text } from './case-helpers.js';

const RACERS = 20;

export const writeCases: ConformanceGroup = {
  name: 'writes',
  cases: [
    {
      name: 'revision starts at 1 and grows by exactly one per successful write',
      async run(backend) {
        assert.equal(await backend.currentRevision(), 1);
        const created = await backend.create('/r/a', bytes('1'));
        assert.equal(created.createRevision, 2);
        assert.equal(created.modRevision, 2);
        assert.equal(await backend.currentRevision(), 2);

        await rejectionOf(backend.create('/r/a', bytes('x')), KeyExistsError);
        await rejectionOf(backend.update('/r/a', bytes('x'), 99), RevisionConflictError);
        await rejectionOf(backend.update('/r/missing', bytes('x'), 2), KeyNotFoundError);
        await rejectionOf(backend.delete('/r/a', 99), RevisionConflictError);
        await rejectionOf(backend.delete('/r/missing'), KeyNotFoundError);
        assert.equal(await backend.currentRevision(), 2, 'failed writes must not consume a revision');

        assert.equal((await backend.update('/r/a', bytes('2'), 2)).modRevision, 3);
        assert.equal((await backend.create('/other/b', bytes('1'))).modRevision, 4);
        assert.equal((await backend.delete('/r/a')).modRevision, 5);
        assert.equal(await backend.currentRevision(), 5);
      },
    },
    {
      name: 'create succeeds only when the key is absent',
      async run(backend) {
        const created = await backend.create('/c/a', bytes('first'));
        assert.equal(created.key, '/c/a');
        assert.equal(text(created), 'first');

        const error = await rejectionOf(backend.create('/c/a', bytes('second')), KeyExistsError);
        assert.equal(error.key, '/c/a');
        assert.equal(text((await backend.get('/c/a')).kv), 'first');

        await backend.delete('/c/a');
        const recreated = await backend.create('/c/a', bytes('third'));
        assert.equal(recreated.createRevision, recreated.modRevision, 'a re-created key starts a new life');
        assert.ok(recreated.createRevision > created.createRevision);
        assert.equal(text((await backend.get('/c/a')).kv), 'third');
      },
    },
    {
      name: 'update swaps the value only when modRevision matches',
      async run(backend) {
        const created = await backend.create('/u/a', bytes('v1'));
        const updated = await backend.update('/u/a', bytes('v2'), created.modRevision);
        assert.equal(updated.key, '/u/a');
        assert.equal(text(updated), 'v2');
        assert.equal(updated.createRevision, created.createRevision);
        assert.equal(updated.modRevision, created.modRevision + 1);
        assert.deepEqual(summary((await backend.get('/u/a')).kv), summary(updated));

        const conflict = await rejectionOf(backend.update('/u/a', bytes('v3'), created.modRevision), RevisionConflictError);
        assert.equal(conflict.key, '/u/a');
        assert.deepEqual(summary(conflict.current), summary(updated), 'a conflict carries the value that won');
        assert.equal(text((await backend.get('/u/a')).kv), 'v2');

        const missing = await rejectionOf(backend.update('/u/missing', bytes('x'), 1), KeyNotFoundError);
        assert.equal(missing.key, '/u/missing');
      },
    },
    {
      name: 'unconditional delete removes the key and returns its last value at the deletion revision',
      async run(backend) {
        const created = await backend.create('/d/a', bytes('v1'));
        const updated = await backend.update('/d/a', bytes('v2'), created.modRevision);
        const deleted = await backend.delete('/d/a');
        assert.equal(deleted.key, '/d/a');
        assert.equal(text(deleted), 'v2');
        assert.equal(deleted.createRevision, created.createRevision);
        assert.equal(deleted.modRevision, updated.modRevision + 1);
        assert.equal(await backend.currentRevision(), deleted.modRevision);
        assert.equal((await backend.get('/d/a')).kv, undefined);
        assert.deepEqual((await backend.list('/d/')).kvs, []);
        assert.equal(await backend.count('/d/'), 0);
      },
    },
    {
      name: 'conditional delete succeeds on a matching modRevision and conflicts otherwise',
      async run(backend) {
        const created = await backend.create('/d/a', bytes('v1'));
        const updated = await backend.update('/d/a', bytes('v2'), created.modRevision);

        const conflict = await rejectionOf(backend.delete('/d/a', created.modRevision), RevisionConflictError);
        assert.deepEqual(summary(conflict.current), summary(updated));
        assert.deepEqual(summary((await backend.get('/d/a')).kv), summary(updated), 'a failed delete leaves the key');

        const deleted = await backend.delete('/d/a', updated.modRevision);
        assert.equal(text(deleted), 'v2');
        assert.equal((await backend.get('/d/a')).kv, undefined);
      },
    },
    {
      name: 'delete of a missing key fails with KeyNotFoundError',
      async run(backend) {
        const never = await rejectionOf(backend.delete('/d/never'), KeyNotFoundError);
        assert.equal(never.key, '/d/never');
        await backend.create('/d/once', bytes('x'));
        await backend.delete('/d/once');
        await rejectionOf(backend.delete('/d/once'), KeyNotFoundError);
        await rejectionOf(backend.delete('/d/once', 2), KeyNotFoundError);
      },
    },
    {
      name: 'racing updates against one modRevision produce exactly one winner',
      async run(backend) {
        const created = await backend.create('/race/x', bytes('start'));
        const results = await Promise.allSettled(
          Array.from({ length: RACERS }, (_, i) => backend.update('/race/x', bytes(`racer-${i}`), created.modRevision)),
        );
        const winners = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
        assert.equal(winners.length, 1);
        const winner = winners[0];
        assert.ok(winner !== undefined);
        for (const result of results) {
          if (result.status === 'fulfilled') continue;
          assert.ok(result.reason instanceof RevisionConflictError, `unexpected failure: ${String(result.reason)}`);
          assert.deepEqual(summary(result.reason.current), summary(winner));
        }
        assert.equal(await backend.currentRevision(), created.modRevision + 1);
        assert.deepEqual(summary((await backend.get('/race/x')).kv), summary(winner));
      },
    },
    {
      name: 'racing creates of one key produce exactly one winner',
      async run(backend) {
        const results = await Promise.allSettled(
          Array.from({ length: RACERS }, (_, i) => backend.create('/race/new', bytes(`racer-${i}`))),
        );
        const winners = results.filter((result) => result.status === 'fulfilled');
        assert.equal(winners.length, 1);
        for (const result of results) {
          if (result.status === 'rejected') assert.ok(result.reason instanceof KeyExistsError);
        }
        assert.equal(await backend.currentRevision(), 2);
      },
    },
    {
      name: 'deleteAndPut removes the key and writes the record together, and neither when the guard fails',
      async run(backend) {
        const created = await backend.create('/d/a', bytes('object'));
        await rejectionOf(
          backend.deleteAndPut('/d/a', created.modRevision + 7, { key: '/archive/a', value: bytes('r') }),
          RevisionConflictError,
        );
        await rejectionOf(backend.deleteAndPut('/d/missing', undefined, { key: '/archive/m', value: bytes('r') }), KeyNotFoundError);
        assert.equal((await backend.get('/archive/a')).kv, undefined, 'a failed guard must not write the record');
        assert.equal((await backend.get('/archive/m')).kv, undefined);
        assert.equal(await backend.currentRevision(), created.modRevision, 'failed writes must not consume a revision');

        const deleted = await backend.deleteAndPut('/d/a', created.modRevision, { key: '/archive/a', value: bytes('record') });
        assert.equal(text(deleted), 'object');
        assert.ok(deleted.modRevision > created.modRevision);
        assert.equal((await backend.get('/d/a')).kv, undefined);
        const record = (await backend.get('/archive/a')).kv;
        assert.ok(record !== undefined);
        assert.equal(text(record), 'record');
        assert.ok(record.modRevision >= deleted.modRevision);

        // A second record under the same key replaces the first.
        const again = await backend.create('/d/a', bytes('object 2'));
        await backend.deleteAndPut('/d/a', undefined, { key: '/archive/a', value: bytes('record 2') });
        assert.equal(text((await backend.get('/archive/a')).kv), 'record 2');
        assert.ok(again.modRevision > deleted.modRevision);
      },
    },
  ],
};
