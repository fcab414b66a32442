import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertFailure,
  CMS,
  configMap,
  deletionRequests,
  type Json,
  startDeletionServer,
  USER_FINALIZER,
} from '../support/deletion-fixtures.js';
import type { TestServer } from '../support/test-server.js';

// What the registry checks and keeps on every write: owner references, finalizer names, server-owned metadata (§1).

describe('object deletion over HTTP (§1, §2)', () => {
  let ts: TestServer;
  const { create, get, del, patch, unique } = deletionRequests(() => ts);

  before(async () => {
    ts = await startDeletionServer();
  });
  after(async () => {
    await ts.stop();
  });

  describe('ownerReferences validation (R1.24–R1.27)', () => {
    const owner = (extra: Json = {}): Json => ({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u-1', ...extra });
    const rejected = async (refs: Json[]): Promise<any> => {
      const name = unique('owned');
      const s = assertFailure(await ts.request('POST', CMS, configMap(name, { ownerReferences: refs })), 422, 'Invalid');
      assert.equal(s.details.name, name);
      assert.equal(s.details.kind, 'ConfigMap');
      return { s, name };
    };

    it('a missing uid → metadata.ownerReferences.uid: uid must not be empty', async () => {
      const { s, name } = await rejected([owner({ uid: '' })]);
      assert.equal(s.message, `ConfigMap "${name}" is invalid: metadata.ownerReferences.uid: Invalid value: "": uid must not be empty`);
      assert.deepEqual(s.details.causes, [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "": uid must not be empty', field: 'metadata.ownerReferences.uid' },
      ]);
    });

    it('an apiVersion without a version → version must not be empty (R1.25)', async () => {
      const { s, name } = await rejected([owner({ apiVersion: 'apps/' })]);
      assert.equal(
        s.message,
        `ConfigMap "${name}" is invalid: metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty`,
      );
      assert.equal(s.details.causes[0].field, 'metadata.ownerReferences.apiVersion');
    });

    it('a bare word apiVersion is a core version and accepted (R1.25)', async () => {
      const res = await ts.request('POST', CMS, configMap(unique('owned'), { ownerReferences: [owner({ apiVersion: 'apps' })] }));
      assert.equal(res.status, 201, res.text);
    });

    it('a core v1 Event owner is disallowed (R1.26)', async () => {
      const { s } = await rejected([owner({ apiVersion: 'v1', kind: 'Event', name: 'ev' })]);
      assert.equal(s.details.causes.length, 1);
      assert.equal(s.details.causes[0].field, 'metadata.ownerReferences');
      assert.equal(s.details.causes[0].reason, 'FieldValueInvalid');
      assert.match(s.details.causes[0].message, /: \/v1, Kind=Event is disallowed from being an owner$/);
    });

    it('two controllers → Only one reference can have Controller set to true (R1.27)', async () => {
      const { s } = await rejected([
        owner({ controller: true }),
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u-2', controller: true },
      ]);
      assert.equal(s.details.causes.length, 1);
      assert.equal(s.details.causes[0].field, 'metadata.ownerReferences');
      assert.match(
        s.details.causes[0].message,
        /: Only one reference can have Controller set to true\. Found "true" in references for Deployment\/d and ReplicaSet\/rs$/,
      );
    });

    it('the same checks apply on update', async () => {
      const name = unique('owned');
      await create(CMS, configMap(name));
      const s = assertFailure(await patch(`${CMS}/${name}`, { metadata: { ownerReferences: [owner({ kind: '' })] } }), 422, 'Invalid');
      assert.equal(s.message, `ConfigMap "${name}" is invalid: metadata.ownerReferences.kind: Invalid value: "": kind must not be empty`);
    });
  });

  describe('finalizer names (R1.16–R1.19)', () => {
    it('R1.17: an unqualified non-standard finalizer on a built-in type → 422 at metadata.finalizers[i]', async () => {
      const name = unique('fname');
      const s = assertFailure(await ts.request('POST', CMS, configMap(name, { finalizers: [USER_FINALIZER, 'foo'] })), 422, 'Invalid');
      assert.equal(
        s.message,
        `ConfigMap "${name}" is invalid: metadata.finalizers[1]: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified`,
      );
      assert.deepEqual(s.details.causes, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified',
          field: 'metadata.finalizers[1]',
        },
      ]);
    });

    it('R1.17: the check also runs on update; standard names are accepted', async () => {
      const name = unique('fname');
      await create(CMS, configMap(name, { finalizers: ['kubernetes'] }));
      const s = assertFailure(await patch(`${CMS}/${name}`, { metadata: { finalizers: ['foo'] } }), 422, 'Invalid');
      assert.equal(s.details.causes[0].field, 'metadata.finalizers[0]');
    });

    it('R1.16: a finalizer with two slashes is not a qualified name (one cause, un-indexed path)', async () => {
      const s = assertFailure(await ts.request('POST', CMS, configMap(unique('fname'), { finalizers: ['a.io/b/c'] })), 422, 'Invalid');
      assert.equal(s.details.causes.length, 1);
      assert.equal(s.details.causes[0].field, 'metadata.finalizers');
      assert.match(s.details.causes[0].message, /^Invalid value: "a\.io\/b\/c": a qualified name must consist of /);
    });

    it('R1.19: orphan and foregroundDeletion together → 422', async () => {
      const name = unique('fname');
      const s = assertFailure(
        await ts.request('POST', CMS, configMap(name, { finalizers: ['orphan', 'foregroundDeletion'] })),
        422,
        'Invalid',
      );
      assert.equal(
        s.message,
        `ConfigMap "${name}" is invalid: metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set`,
      );
      assert.equal(s.details.causes.length, 1);
      assert.equal(s.details.causes[0].field, 'metadata.finalizers');
    });
  });

  describe('server-owned metadata (R1.1–R1.3, R1.12–R1.14)', () => {
    it('R1.1: client-set uid, creationTimestamp and deletion fields are discarded on create', async () => {
      const name = unique('owned');
      const created = await create(
        CMS,
        configMap(name, {
          uid: 'mine',
          creationTimestamp: '2001-01-01T00:00:00Z',
          deletionTimestamp: '2001-01-01T00:00:00Z',
          deletionGracePeriodSeconds: 5,
        }),
      );
      assert.notEqual(created.metadata.uid, 'mine');
      assert.notEqual(created.metadata.creationTimestamp, '2001-01-01T00:00:00Z');
      assert.equal(created.metadata.deletionTimestamp, undefined);
      assert.equal(created.metadata.deletionGracePeriodSeconds, undefined);
    });

    it('R1.2: an update restores creationTimestamp and fills an empty uid', async () => {
      const name = unique('owned');
      const created = await create(CMS, configMap(name));
      const body = structuredClone(created);
      delete body.metadata.uid;
      body.metadata.creationTimestamp = '2001-01-01T00:00:00Z';
      body.data = { k: 'changed' };
      const res = await ts.request('PUT', `${CMS}/${name}`, body);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.metadata.uid, created.metadata.uid);
      assert.equal(res.json.metadata.creationTimestamp, created.metadata.creationTimestamp);
    });

    it('R1.3: a different uid in an update is a failed precondition → 409', async () => {
      const name = unique('owned');
      const created = await create(CMS, configMap(name));
      const body = { ...structuredClone(created), metadata: { ...created.metadata, uid: 'other-uid' } };
      const s = assertFailure(await ts.request('PUT', `${CMS}/${name}`, body), 409, 'Conflict');
      assert.equal(
        s.message,
        `Operation cannot be fulfilled on configmaps "${name}": Precondition failed: UID in precondition: other-uid, UID in object meta: ${created.metadata.uid}`,
      );
    });

    it('R1.13: setting deletionTimestamp on a live object → 422 field is immutable', async () => {
      const name = unique('owned');
      await create(CMS, configMap(name));
      const s = assertFailure(await patch(`${CMS}/${name}`, { metadata: { deletionTimestamp: '2030-01-01T00:00:00Z' } }), 422, 'Invalid');
      assert.equal(s.details.causes[0].field, 'metadata.deletionTimestamp');
      assert.match(s.details.causes[0].message, /field is immutable/);
      assert.equal((await get(`${CMS}/${name}`)).json.metadata.deletionTimestamp, undefined);
    });

    it('R1.12: on a deleting object a changed or removed deletionTimestamp is silently restored', async () => {
      const name = unique('owned');
      await create(CMS, configMap(name, { finalizers: [USER_FINALIZER] }));
      const marked = (await del(`${CMS}/${name}`)).json;
      const changed = await patch(`${CMS}/${name}`, { metadata: { deletionTimestamp: '2030-01-01T00:00:00Z' } });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.json.metadata.deletionTimestamp, marked.metadata.deletionTimestamp);
      const removed = await patch(`${CMS}/${name}`, { metadata: { deletionTimestamp: null, labels: { a: 'b' } } });
      assert.equal(removed.status, 200, removed.text);
      assert.equal(removed.json.metadata.deletionTimestamp, marked.metadata.deletionTimestamp);
    });

    it('R1.14: a different deletionGracePeriodSeconds → 422; omitting it keeps the stored value', async () => {
      const name = unique('owned');
      await create(CMS, configMap(name, { finalizers: [USER_FINALIZER] }));
      await del(`${CMS}/${name}`);
      const s = assertFailure(await patch(`${CMS}/${name}`, { metadata: { deletionGracePeriodSeconds: 5 } }), 422, 'Invalid');
      assert.equal(s.message, `ConfigMap "${name}" is invalid: metadata.deletionGracePeriodSeconds: Invalid value: 5: field is immutable`);
      const omitted = await patch(`${CMS}/${name}`, { metadata: { deletionGracePeriodSeconds: null, labels: { a: 'b' } } });
      assert.equal(omitted.status, 200, omitted.text);
      assert.equal(omitted.json.metadata.deletionGracePeriodSeconds, 0);
    });
  });
});
