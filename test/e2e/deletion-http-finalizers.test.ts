import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertFailure,
  CMS,
  configMap,
  deletionRequests,
  deployment,
  DEPLOYS,
  type Json,
  pod,
  PODS,
  type Response,
  startDeletionServer,
  successStatus,
  USER_FINALIZER,
} from '../support/deletion-fixtures.js';
import type { TestServer } from '../support/test-server.js';

// Finalizers while deleting and repeated DELETEs (§1, §2).

describe('object deletion over HTTP (§1, §2)', () => {
  let ts: TestServer;
  const { create, get, del, patch, unique, watchDuring } = deletionRequests(() => ts);

  before(async () => {
    ts = await startDeletionServer();
  });
  after(async () => {
    await ts.stop();
  });

  describe('finalizers while deleting (R1.20, R2.35)', () => {
    it('R1.20: adding a finalizer to a deleting object → 422 Forbidden; removing or reordering is allowed', async () => {
      const name = unique('fin');
      await create(CMS, configMap(name, { finalizers: [USER_FINALIZER, 'example.com/z'] }));
      assert.equal((await del(`${CMS}/${name}`)).status, 200);
      const res = await patch(`${CMS}/${name}`, { metadata: { finalizers: [USER_FINALIZER, 'example.com/z', 'example.com/y'] } });
      const s = assertFailure(res, 422, 'Invalid');
      assert.equal(
        s.message,
        `ConfigMap "${name}" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/y"}`,
      );
      assert.deepEqual(s.details, {
        name,
        kind: 'ConfigMap',
        causes: [
          {
            reason: 'FieldValueForbidden',
            message:
              'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/y"}',
            field: 'metadata.finalizers',
          },
        ],
      });
      const reordered = await patch(`${CMS}/${name}`, {
        metadata: { finalizers: ['example.com/z', USER_FINALIZER], labels: { still: 'mutable' } },
      });
      assert.equal(reordered.status, 200, reordered.text);
      assert.deepEqual(reordered.json.metadata.finalizers, ['example.com/z', USER_FINALIZER]);
      assert.equal(reordered.json.metadata.labels.still, 'mutable', 'R1.22');
    });

    it('R2.35: removing the last finalizer by PATCH removes the object; the watcher sees DELETED with the deletion mark', async () => {
      const id = unique('last');
      const name = `cm-${id}`;
      const created = await create(CMS, configMap(name, { labels: { case: id }, finalizers: [USER_FINALIZER] }));
      let patched: Response | undefined;
      const events = await watchDuring(CMS, id, created.metadata.resourceVersion, async () => {
        assert.equal((await del(`${CMS}/${name}`)).status, 200);
        patched = await patch(`${CMS}/${name}`, { metadata: { finalizers: null } });
      });
      assert.equal(patched?.status, 200, patched?.text);
      assert.equal(patched.json.kind, 'ConfigMap', 'the answer is the submitted object, not a Status');
      assert.equal(patched.json.metadata.finalizers, undefined);
      assert.equal(typeof patched.json.metadata.deletionTimestamp, 'string');
      assert.equal((await get(`${CMS}/${name}`)).status, 404);
      assert.deepEqual(
        events.map((e) => e.type),
        ['MODIFIED', 'DELETED'],
      );
      const gone = events[1]?.object.metadata;
      assert.equal(typeof gone.deletionTimestamp, 'string');
      // The DELETED event carries the last stored state; the finalizer-less update itself is never stored.
      assert.deepEqual(gone.finalizers, [USER_FINALIZER]);
    });

    it('R2.37: a pod still in its grace period is only updated when its last finalizer goes', async () => {
      const name = unique('graceful');
      await create(PODS, pod(name, { finalizers: [USER_FINALIZER] }, 'node-a'));
      assert.equal((await del(`${PODS}/${name}?gracePeriodSeconds=30`)).status, 200);
      const res = await patch(`${PODS}/${name}`, { metadata: { finalizers: null } });
      assert.equal(res.status, 200, res.text);
      const stored = await get(`${PODS}/${name}`);
      assert.equal(stored.status, 200, 'still terminating');
      assert.equal(stored.json.metadata.finalizers, undefined);
      assert.equal((await del(`${PODS}/${name}?gracePeriodSeconds=0`)).status, 200);
      assert.equal((await get(`${PODS}/${name}`)).status, 404);
    });
  });

  describe('repeated DELETEs (R2.20, R2.21, R2.31, R2.32)', () => {
    it('R2.31: Foreground → Orphan → Background switches the GC finalizer, then removes the object', async () => {
      const id = unique('switch');
      const name = `cm-${id}`;
      const created = await create(CMS, configMap(name, { labels: { case: id } }));
      const path = `${CMS}/${name}`;
      const seen: Json[] = [];
      const events = await watchDuring(CMS, id, created.metadata.resourceVersion, async () => {
        for (const policy of ['Foreground', 'Orphan']) {
          const res = await del(path, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: policy });
          assert.equal(res.status, 200, res.text);
          seen.push(res.json);
        }
        // R2.32: no options keep the current GC finalizer and write nothing.
        const same = await del(path);
        assert.equal(same.status, 200, same.text);
        assert.equal(same.json.metadata.resourceVersion, seen[1]?.metadata.resourceVersion);
        assert.deepEqual(same.json.metadata.finalizers, ['orphan']);
        const last = await del(path, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
        assert.deepEqual(last.json, successStatus(name, '', 'configmaps', created.metadata.uid));
      });
      assert.deepEqual(seen[0]?.metadata.finalizers, ['foregroundDeletion']);
      assert.deepEqual(seen[1]?.metadata.finalizers, ['orphan']);
      assert.equal(seen[1]?.metadata.deletionTimestamp, seen[0]?.metadata.deletionTimestamp, 'the first mark is kept');
      assert.deepEqual(
        events.map((e) => [e.type, e.object.metadata.finalizers]),
        [
          ['MODIFIED', ['foregroundDeletion']],
          ['MODIFIED', ['orphan']],
          ['DELETED', ['orphan']],
        ],
      );
      assert.equal((await get(path)).status, 404);
    });

    it('R2.31: with a user finalizer, Background only drops the GC finalizer', async () => {
      const name = unique('switch');
      await create(CMS, configMap(name, { finalizers: [USER_FINALIZER] }));
      await del(`${CMS}/${name}?propagationPolicy=Orphan`);
      const res = await del(`${CMS}/${name}?propagationPolicy=Background`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.metadata.finalizers, [USER_FINALIZER]);
      assert.deepEqual((await get(`${CMS}/${name}`)).json.metadata.finalizers, [USER_FINALIZER]);
    });

    it('R1.10: the first deletionTimestamp bumps a deployment generation; a second DELETE does not', async () => {
      const name = unique('gen');
      const created = await create(DEPLOYS, deployment(name));
      assert.equal(created.metadata.generation, 1);
      const first = await del(`${DEPLOYS}/${name}?propagationPolicy=Foreground`);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.json.metadata.generation, 2);
      const second = await del(`${DEPLOYS}/${name}?propagationPolicy=Orphan`);
      assert.equal(second.status, 200, second.text);
      assert.deepEqual(second.json.metadata.finalizers, ['orphan']);
      assert.equal(second.json.metadata.generation, 2);
      assert.equal((await get(`${DEPLOYS}/${name}`)).json.metadata.generation, 2);
    });

    it('R2.20: a shorter grace period moves the pod deletionTimestamp back; grace 0 then marks and removes it', async () => {
      const id = unique('shorter');
      const name = `pod-${id}`;
      const created = await create(PODS, pod(name, { labels: { case: id } }, 'node-a'));
      const path = `${PODS}/${name}`;
      let firstStamp = '';
      let removed: Response | undefined;
      const events = await watchDuring(PODS, id, created.metadata.resourceVersion, async () => {
        const first = await del(`${path}?gracePeriodSeconds=30`);
        firstStamp = first.json.metadata.deletionTimestamp;
        const longer = await del(`${path}?gracePeriodSeconds=60`);
        assert.equal(longer.json.metadata.resourceVersion, first.json.metadata.resourceVersion, 'a longer period changes nothing');
        const shorter = await del(`${path}?gracePeriodSeconds=10`);
        assert.equal(shorter.json.metadata.deletionGracePeriodSeconds, 10);
        assert.equal(Date.parse(shorter.json.metadata.deletionTimestamp), Date.parse(firstStamp) - 20_000);
        removed = await del(`${path}?gracePeriodSeconds=0`);
      });
      assert.equal(removed?.status, 200, removed?.text);
      assert.equal(removed.json.kind, 'Pod', 'R2.25: pods answer with the deleted object');
      assert.equal(removed.json.metadata.deletionGracePeriodSeconds, 0);
      assert.equal((await get(path)).status, 404);
      assert.deepEqual(
        events.map((e) => [e.type, e.object.metadata.deletionGracePeriodSeconds]),
        [
          ['MODIFIED', 30],
          ['MODIFIED', 10],
          ['MODIFIED', 0],
          ['DELETED', 0],
        ],
      );
    });

    it('R2.21: a pod marked with grace 0 (held by a finalizer) is not given a new grace period by a later DELETE', async () => {
      const name = unique('zero');
      await create(PODS, pod(name, { finalizers: [USER_FINALIZER] }, 'node-a'));
      const first = await del(`${PODS}/${name}?gracePeriodSeconds=0`);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.json.metadata.deletionGracePeriodSeconds, 0);
      const again = await del(`${PODS}/${name}`);
      assert.equal(again.status, 200, again.text);
      assert.equal(again.json.metadata.deletionGracePeriodSeconds, 0);
      assert.equal(again.json.metadata.deletionTimestamp, first.json.metadata.deletionTimestamp);
      assert.equal(again.json.metadata.resourceVersion, first.json.metadata.resourceVersion);
    });
  });
});
