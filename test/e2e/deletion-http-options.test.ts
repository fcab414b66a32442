import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertFailure,
  CMS,
  configMap,
  deletionRequests,
  deployment,
  DEPLOYS,
  job,
  JOB_WARNING,
  JOBS,
  type Json,
  pod,
  PODS,
  type Response,
  startDeletionServer,
  successStatus,
  USER_FINALIZER,
} from '../support/deletion-fixtures.js';
import type { TestServer } from '../support/test-server.js';

// DeleteOptions over HTTP: decoding and validation, dry run, the Job default and DELETECOLLECTION (§2).

describe('object deletion over HTTP (§1, §2)', () => {
  let ts: TestServer;
  const { create, get, del, unique, watchDuring } = deletionRequests(() => ts);

  before(async () => {
    ts = await startDeletionServer();
  });
  after(async () => {
    await ts.stop();
  });

  describe('DeleteOptions decoding and validation (R2.1–R2.7)', () => {
    it('R2.2: options in a kubectl-style body are honoured', async () => {
      const name = unique('body');
      await create(CMS, configMap(name));
      const res = await del(`${CMS}/${name}`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.metadata.finalizers, ['foregroundDeletion']);
    });

    it('R2.2: a non-empty body wins and the query is ignored entirely', async () => {
      const a = unique('wins');
      const ca = await create(CMS, configMap(a));
      const res = await del(`${CMS}/${a}?propagationPolicy=Orphan`, {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        propagationPolicy: 'Background',
      });
      assert.deepEqual(res.json, successStatus(a, '', 'configmaps', ca.metadata.uid));

      const b = unique('wins');
      await create(CMS, configMap(b));
      const kept = await del(`${CMS}/${b}?propagationPolicy=Background`, {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        propagationPolicy: 'Orphan',
      });
      assert.equal(kept.status, 200, kept.text);
      assert.deepEqual((await get(`${CMS}/${b}`)).json.metadata.finalizers, ['orphan']);

      // Even options the body leaves out are not taken from the query.
      const c = unique('wins');
      await create(CMS, configMap(c));
      const plain = await del(`${CMS}/${c}?propagationPolicy=Orphan&orphanDependents=true`, { kind: 'DeleteOptions', apiVersion: 'v1' });
      assert.equal(plain.status, 200, plain.text);
      assert.equal(plain.json.kind, 'Status');
      assert.equal((await get(`${CMS}/${c}`)).status, 404);
    });

    const bothSet = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
      reason: 'Invalid',
      details: {
        group: 'meta.k8s.io',
        kind: 'DeleteOptions',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
            field: 'propagationPolicy',
          },
        ],
      },
      code: 422,
    };

    it('R2.3: orphanDependents and propagationPolicy together → the exact 422 Status (query and body)', async () => {
      const name = unique('both');
      await create(CMS, configMap(name));
      const viaQuery = await del(`${CMS}/${name}?orphanDependents=true&propagationPolicy=Orphan`);
      assert.equal(viaQuery.status, 422, viaQuery.text);
      assert.deepEqual(viaQuery.json, bothSet);
      const viaBody = await del(`${CMS}/${name}`, {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        orphanDependents: false,
        propagationPolicy: 'Orphan',
      });
      assert.equal(viaBody.status, 422, viaBody.text);
      assert.deepEqual(viaBody.json, bothSet);
      const stored = await get(`${CMS}/${name}`);
      assert.equal(stored.json.metadata.deletionTimestamp, undefined, 'a rejected DELETE changes nothing');
    });

    it('R2.3: an unknown propagationPolicy → 422 NotSupported', async () => {
      const name = unique('policy');
      await create(CMS, configMap(name));
      const res = await del(`${CMS}/${name}?propagationPolicy=Sideways`);
      const s = assertFailure(res, 422, 'Invalid');
      assert.equal(
        s.message,
        'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
      );
      assert.deepEqual(s.details, {
        group: 'meta.k8s.io',
        kind: 'DeleteOptions',
        causes: [
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
            field: 'propagationPolicy',
          },
        ],
      });
    });

    it('R2.3: an unknown dryRun value → 422 NotSupported', async () => {
      const name = unique('dry');
      await create(CMS, configMap(name));
      const s = assertFailure(await del(`${CMS}/${name}?dryRun=Some`), 422, 'Invalid');
      assert.equal(s.details.kind, 'DeleteOptions');
      assert.equal(s.details.causes[0].field, 'dryRun');
      assert.equal(s.details.causes[0].reason, 'FieldValueNotSupported');
      assert.match(s.details.causes[0].message, /supported values: "All"$/);
      assert.equal((await get(`${CMS}/${name}`)).status, 200);
    });

    it('R2.6: a uid precondition mismatch → 409 naming the Kind', async () => {
      const name = unique('pre');
      const created = await create(CMS, configMap(name));
      const res = await del(`${CMS}/${name}`, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-the-uid' } });
      const s = assertFailure(res, 409, 'Conflict');
      assert.equal(
        s.message,
        `Operation cannot be fulfilled on ConfigMap "${name}": the UID in the precondition (not-the-uid) does not match the UID in record (${created.metadata.uid}). The object might have been deleted and then recreated`,
      );
      assert.deepEqual(s.details, { name, kind: 'ConfigMap' });
      assert.equal((await get(`${CMS}/${name}`)).status, 200);
    });

    it('R2.6: a resourceVersion precondition mismatch → 409 (Deployment.apps)', async () => {
      const name = unique('pre');
      const created = await create(DEPLOYS, deployment(name));
      const rv = created.metadata.resourceVersion;
      const res = await del(`${DEPLOYS}/${name}`, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: '1' } });
      const s = assertFailure(res, 409, 'Conflict');
      assert.equal(
        s.message,
        `Operation cannot be fulfilled on Deployment.apps "${name}": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
      );
      assert.deepEqual(s.details, { name, group: 'apps', kind: 'Deployment' });
      const ok = await del(`${DEPLOYS}/${name}`, {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        preconditions: { uid: created.metadata.uid, resourceVersion: rv },
      });
      assert.deepEqual(ok.json, successStatus(name, 'apps', 'deployments', created.metadata.uid));
    });

    it('R2.5: DELETE of a missing object → 404 with the plural resource', async () => {
      const s = assertFailure(await del(`${DEPLOYS}/missing`), 404, 'NotFound');
      assert.equal(s.message, 'deployments.apps "missing" not found');
      assert.deepEqual(s.details, { name: 'missing', group: 'apps', kind: 'deployments' });
    });
  });

  describe('dry run (R2.27)', () => {
    it('a removal is answered as real but nothing is persisted and nothing is watched', async () => {
      const id = unique('dry');
      const name = `cm-${id}`;
      const created = await create(CMS, configMap(name, { labels: { case: id } }));
      let res: Response | undefined;
      const events = await watchDuring(CMS, id, created.metadata.resourceVersion, async () => {
        res = await del(`${CMS}/${name}?dryRun=All`);
      });
      assert.deepEqual(res?.json, successStatus(name, '', 'configmaps', created.metadata.uid));
      const stored = await get(`${CMS}/${name}`);
      assert.equal(stored.json.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.deepEqual(events, []);
    });

    it('a marking DELETE answers the marked object but stores nothing', async () => {
      const id = unique('dry');
      const name = `cm-${id}`;
      const created = await create(CMS, configMap(name, { labels: { case: id }, finalizers: [USER_FINALIZER] }));
      let res: Response | undefined;
      const events = await watchDuring(CMS, id, created.metadata.resourceVersion, async () => {
        res = await del(`${CMS}/${name}`, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'], propagationPolicy: 'Orphan' });
      });
      assert.equal(res?.status, 200, res?.text);
      assert.deepEqual(res.json.metadata.finalizers, [USER_FINALIZER, 'orphan']);
      assert.equal(typeof res.json.metadata.deletionTimestamp, 'string');
      const stored = (await get(`${CMS}/${name}`)).json;
      assert.equal(stored.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.equal(stored.metadata.deletionTimestamp, undefined);
      assert.deepEqual(stored.metadata.finalizers, [USER_FINALIZER]);
      assert.deepEqual(events, []);
    });
  });

  describe('Jobs default to orphan (R2.9)', () => {
    it('DELETE without a policy warns and leaves the job with the orphan finalizer', async () => {
      const name = unique('job');
      await create(JOBS, job(name));
      const res = await del(`${JOBS}/${name}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('warning'), JOB_WARNING);
      assert.deepEqual(res.json.metadata.finalizers, ['orphan'], 'R2.13: the orphan default adds the orphan finalizer');
      assert.equal(typeof res.json.metadata.deletionTimestamp, 'string');
    });

    it('DELETE with a policy (query or body) gives no warning', async () => {
      const a = unique('job');
      const ca = await create(JOBS, job(a));
      const background = await del(`${JOBS}/${a}?propagationPolicy=Background`);
      assert.equal(background.headers.get('warning'), null);
      assert.deepEqual(background.json, successStatus(a, 'batch', 'jobs', ca.metadata.uid));

      const b = unique('job');
      await create(JOBS, job(b));
      const orphan = await del(`${JOBS}/${b}`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' });
      assert.equal(orphan.status, 200, orphan.text);
      assert.equal(orphan.headers.get('warning'), null);
    });

    it('DELETECOLLECTION without a policy warns too', async () => {
      await create(JOBS, job(unique('job')));
      const res = await del(`${JOBS}?labelSelector=none%3Dmatches`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('warning'), JOB_WARNING);
    });
  });

  describe('DELETECOLLECTION (R2.39, R2.40)', () => {
    it('applies the options to each selected item and answers the list as it was read', async () => {
      const set = unique('set');
      const names = [`${set}-a`, `${set}-b`];
      for (const n of names) await create(CMS, configMap(n, { labels: { set } }));
      const other = await create(CMS, configMap(`${set}-other`, { labels: { set: 'other' } }));

      const res = await del(`${CMS}?labelSelector=set%3D${set}`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.kind, 'ConfigMapList');
      assert.equal(res.json.apiVersion, 'v1');
      assert.deepEqual(
        res.json.items.map((i: Json) => i.metadata.name),
        names,
      );
      for (const item of res.json.items) assert.equal(item.metadata.deletionTimestamp, undefined, 'items as listed, before deletion');
      for (const n of names) {
        const m = (await get(`${CMS}/${n}`)).json.metadata;
        assert.deepEqual(m.finalizers, ['orphan']);
        assert.equal(typeof m.deletionTimestamp, 'string');
      }
      const untouched = (await get(`${CMS}/${set}-other`)).json;
      assert.equal(untouched.metadata.resourceVersion, other.metadata.resourceVersion);

      // A Background pass drops the orphan finalizer per item, which removes them (R2.31).
      const second = await del(`${CMS}?labelSelector=set%3D${set}&propagationPolicy=Background`);
      assert.equal(second.status, 200, second.text);
      assert.equal(second.json.items.length, 2);
      for (const n of names) assert.equal((await get(`${CMS}/${n}`)).status, 404);
      assert.equal((await get(`${CMS}/${set}-other`)).status, 200);
    });

    it('graceful items follow the per-item rules (pods keep their grace period)', async () => {
      const set = unique('podset');
      await create(PODS, pod(`${set}-bound`, { labels: { set } }, 'node-a'));
      await create(PODS, pod(`${set}-unbound`, { labels: { set } }));
      const res = await del(`${PODS}?labelSelector=set%3D${set}`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 20 });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.kind, 'PodList');
      const bound = (await get(`${PODS}/${set}-bound`)).json.metadata;
      assert.equal(bound.deletionGracePeriodSeconds, 20);
      assert.equal((await get(`${PODS}/${set}-unbound`)).status, 404, 'R2.17: an unscheduled pod is removed at once');
    });
  });
});
