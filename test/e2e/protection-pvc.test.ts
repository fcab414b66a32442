import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertHeld, getJson, type Json, metric, waitForGone } from '../support/protection-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PVCS = '/api/v1/namespaces/default/persistentvolumeclaims';
const PVS = '/api/v1/persistentvolumes';
const PODS = '/api/v1/namespaces/default/pods';

const claim = (name: string): Json => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
});

const volume = (name: string): Json => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name },
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/x' } },
});

const podUsing = (name: string, claimName: string, nodeName?: string): Json => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: {
    ...(nodeName === undefined ? {} : { nodeName }),
    restartPolicy: 'Never',
    containers: [{ name: 'c', image: 'busybox' }],
    volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
  },
});

async function created(ts: TestServer, path: string, body: Json): Promise<Json> {
  const res = await ts.request('POST', path, body);
  assert.equal(res.status, 201, res.text);
  return res.json;
}

async function setStatus(ts: TestServer, path: string, status: Json): Promise<void> {
  const current = await getJson(ts, path);
  const res = await ts.request('PUT', `${path}/status`, { ...current, status: { ...current?.status, ...status } });
  assert.equal(res.status, 200, res.text);
}

async function deleteNow(ts: TestServer, path: string): Promise<void> {
  const res = await ts.request('DELETE', `${path}?gracePeriodSeconds=0`);
  assert.ok(res.status === 200 || res.status === 202, res.text);
}

describe('PVC and PV protection (R3.14, R6.1–R6.9)', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(async () => {
    await ts.stop();
  });

  it('R3.14: claims and volumes are born with their protection finalizers', async () => {
    assert.deepEqual((await created(ts, PVCS, claim('born'))).metadata.finalizers, ['kubernetes.io/pvc-protection']);
    assert.deepEqual((await created(ts, PVS, volume('born-pv'))).metadata.finalizers, ['kubernetes.io/pv-protection']);
  });

  it('R6.5: a claim used by a pod bound to a node stays Terminating until the pod is deleted, then goes', async () => {
    await created(ts, PVCS, claim('data'));
    await created(ts, PODS, podUsing('db', 'data', 'node-1'));
    assert.equal((await ts.request('DELETE', `${PVCS}/data`)).status, 200);
    const held = await assertHeld(ts, `${PVCS}/data`);
    assert.deepEqual(held.metadata.finalizers, ['kubernetes.io/pvc-protection']);
    await deleteNow(ts, `${PODS}/db`);
    await waitForGone(ts, `${PVCS}/data`);
  });

  it('R6.5: an unscheduled pod does not hold its claim', async () => {
    await created(ts, PVCS, claim('pending-data'));
    await created(ts, PODS, podUsing('pending', 'pending-data'));
    assert.equal((await ts.request('DELETE', `${PVCS}/pending-data`)).status, 200);
    await waitForGone(ts, `${PVCS}/pending-data`);
    assert.ok(await getJson(ts, `${PODS}/pending`), 'the pod is untouched');
  });

  it('R6.6: a pod that gets scheduled after the claim is terminating still holds it (the live list sees it)', async () => {
    await created(ts, PVCS, claim('late'));
    await created(ts, PODS, podUsing('late-pod', 'late', 'node-1'));
    assert.equal((await ts.request('DELETE', `${PVCS}/late`)).status, 200);
    await assertHeld(ts, `${PVCS}/late`);
    await deleteNow(ts, `${PODS}/late-pod`);
    await waitForGone(ts, `${PVCS}/late`);
  });

  it('D15: a Succeeded pod still holds its claim by default', async () => {
    await created(ts, PVCS, claim('job-data'));
    await created(ts, PODS, podUsing('job', 'job-data', 'node-1'));
    await setStatus(ts, `${PODS}/job`, { phase: 'Succeeded' });
    assert.equal((await ts.request('DELETE', `${PVCS}/job-data`)).status, 200);
    await assertHeld(ts, `${PVCS}/job-data`);
    await deleteNow(ts, `${PODS}/job`);
    await waitForGone(ts, `${PVCS}/job-data`);
  });

  it('R6.1: an existing claim without the finalizer gets it back; a terminating one does not', async () => {
    const pvc = await created(ts, PVCS, claim('bare'));
    const res = await ts.request('PUT', `${PVCS}/bare`, { ...pvc, metadata: { ...pvc.metadata, finalizers: [] } });
    assert.equal(res.status, 200, res.text);
    await waitFor(async () =>
      (await getJson(ts, `${PVCS}/bare`))?.metadata.finalizers?.[0] === 'kubernetes.io/pvc-protection' ? true : undefined,
    );
    assert.ok((await metric(ts, 'cascade_protection_finalizers_added_total', 'pvcprotection')) >= 1);
  });

  it('R6.8: a Bound volume keeps its finalizer; once no longer Bound it goes', async () => {
    await created(ts, PVS, volume('pv-1'));
    await setStatus(ts, `${PVS}/pv-1`, { phase: 'Bound' });
    assert.equal((await ts.request('DELETE', `${PVS}/pv-1`)).status, 200);
    await assertHeld(ts, `${PVS}/pv-1`);
    await setStatus(ts, `${PVS}/pv-1`, { phase: 'Released' });
    await waitForGone(ts, `${PVS}/pv-1`);
  });
});

describe('--pvc-protection-count-finished-pods=false (departing from D15)', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer({ controllers: { pvcProtectionCountFinishedPods: false } });
  });
  after(async () => {
    await ts.stop();
  });

  it('a claim of a finished pod goes; a running pod still holds its claim', async () => {
    await created(ts, PVCS, claim('done-data'));
    await created(ts, PODS, podUsing('done', 'done-data', 'node-1'));
    await setStatus(ts, `${PODS}/done`, { phase: 'Failed' });
    await created(ts, PVCS, claim('busy-data'));
    await created(ts, PODS, podUsing('busy', 'busy-data', 'node-1'));
    await setStatus(ts, `${PODS}/busy`, { phase: 'Running' });
    assert.equal((await ts.request('DELETE', `${PVCS}/done-data`)).status, 200);
    assert.equal((await ts.request('DELETE', `${PVCS}/busy-data`)).status, 200);
    await waitForGone(ts, `${PVCS}/done-data`);
    await assertHeld(ts, `${PVCS}/busy-data`);
    await setStatus(ts, `${PODS}/busy`, { phase: 'Succeeded' });
    await waitForGone(ts, `${PVCS}/busy-data`);
  });
});
