import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type CrdApi,
  crdApi,
  CRDS_PATH,
  crdFor,
  type CustomKind,
  crCollectionPath,
  crPath,
  customResource,
  WIDGET,
  waitForCollectorToObserve,
  widgetCrd,
} from '../support/crd-fixtures.js';
import {
  configMap,
  type GcApi,
  gcApi,
  HOLD_FINALIZER,
  type Json,
  MERGE_PATCH,
  namespaceObject,
  startWatch,
  ownerRef,
} from '../support/gc-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Custom resources in the object lifecycle over HTTP: garbage collection both ways, namespace deletion, serving
// right after the CRD is created, watch, Table output and the update/patch rules (issue 5; scenarios GC-CRD-01/02,
// CRD-01; R1.7, R4.*, R5.*).
const NS = 'crd-life';
const CRONTAB: CustomKind = { group: 'gc.example.com', version: 'v1', plural: 'crontabs', kind: 'CronTab', namespaced: true };
const TABLE = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
const CREATION_TIMESTAMP_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

describe('custom resources: lifecycle over HTTP', () => {
  let ts: TestServer;
  let gc: GcApi;
  let crds: CrdApi;
  const crontab = (name: string, meta: Json = {}, namespace = NS): Json =>
    customResource(CRONTAB, namespace, name, { spec: { schedule: '* * * * *' } }, meta);
  /** A created custom resource with apiVersion/kind restored, so ownerRef() can point at it. */
  const createCronTab = async (obj: Json): Promise<Json> => ({
    ...(await crds.create(CRONTAB, obj)),
    apiVersion: obj.apiVersion,
    kind: obj.kind,
  });
  const releaseCronTab = async (obj: Json): Promise<void> => {
    const res = await ts.request(
      'PATCH',
      crPath(CRONTAB, obj.metadata.namespace, obj.metadata.name),
      { metadata: { finalizers: null } },
      MERGE_PATCH,
    );
    assert.equal(res.status, 200, res.text);
  };

  before(async () => {
    ts = await startTestServer();
    gc = gcApi(ts);
    crds = crdApi(ts);
    await gc.create(namespaceObject(NS));
    await crds.createEstablished(crdFor(CRONTAB));
    await crds.createEstablished(widgetCrd());
  });
  after(async () => {
    await ts.stop();
  });

  for (const policy of ['Background', 'Foreground'] as const) {
    it(`GC-CRD-02: a custom resource owned by a ConfigMap is collected when the ConfigMap goes (${policy})`, async () => {
      const owner = await gc.create(configMap(NS, `cm-owner-${policy.toLowerCase()}`));
      const dependent = await createCronTab(
        crontab(`ct-dep-${policy.toLowerCase()}`, { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] }),
      );
      const res = await gc.delete(owner, { propagationPolicy: policy });
      assert.equal(res.status, 200, res.text);
      await crds.waitForGone(CRONTAB, dependent);
      await gc.waitForGone(owner);
    });

    it(`GC-CRD-02: a ConfigMap owned by a custom resource is collected when the custom resource goes (${policy})`, async () => {
      const owner = await createCronTab(crontab(`ct-owner-${policy.toLowerCase()}`));
      const dependent = await gc.create(
        configMap(NS, `cm-dep-${policy.toLowerCase()}`, { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] }),
      );
      const res = await ts.request('DELETE', crPath(CRONTAB, NS, owner.metadata.name), { propagationPolicy: policy });
      assert.equal(res.status, 200, res.text);
      await gc.waitForGone(dependent);
      await crds.waitForGone(CRONTAB, owner);
    });
  }

  it('GC-FG-01 with a custom owner: foreground deletion keeps the owner until its held dependent is gone', async () => {
    const owner = await gc.create(configMap(NS, 'cm-fg-owner'));
    const held = await createCronTab(
      crontab('ct-held', { finalizers: [HOLD_FINALIZER], ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] }),
    );
    const res = await gc.delete(owner, { propagationPolicy: 'Foreground' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.metadata.finalizers, ['foregroundDeletion']);
    await waitFor(async () => ((await crds.get(CRONTAB, held))?.metadata.deletionTimestamp === undefined ? undefined : true), {
      timeoutMs: 3000,
      what: 'the held dependent to be marked',
    });
    assert.ok(await gc.get(owner), 'the owner waits for its blocking dependent');
    await releaseCronTab(held);
    await crds.waitForGone(CRONTAB, held);
    await gc.waitForGone(owner);
  });

  it('a namespace holding custom resources deletes fully, waiting for their finalizers', async () => {
    const ns = 'crd-ns-delete';
    await gc.create(namespaceObject(ns));
    await createCronTab(crontab('a', {}, ns));
    const held = await createCronTab(crontab('b', { finalizers: [HOLD_FINALIZER] }, ns));
    await crds.create(WIDGET, customResource(WIDGET, ns, 'w', { spec: { size: 1 } }));
    await gc.create(configMap(ns, 'plain'));

    const res = await ts.request('DELETE', `/api/v1/namespaces/${ns}`);
    assert.equal(res.status, 200, res.text);
    await waitFor(
      async () => {
        const left = (await ts.request('GET', crCollectionPath(CRONTAB, ns))).json.items as Json[];
        return left.length === 1 && left[0]?.metadata.deletionTimestamp !== undefined ? true : undefined;
      },
      { timeoutMs: 5000, what: 'only the held crontab to remain, marked for deletion' },
    );
    assert.equal((await ts.request('GET', crCollectionPath(WIDGET, ns))).json.items.length, 0);
    const terminating = (await ts.request('GET', `/api/v1/namespaces/${ns}`)).json;
    assert.equal(terminating.status.phase, 'Terminating');

    await releaseCronTab(held);
    await waitFor(async () => ((await ts.request('GET', `/api/v1/namespaces/${ns}`)).status === 404 ? true : undefined), {
      timeoutMs: 5000,
      what: `namespace ${ns} to be gone`,
    });
    assert.equal((await ts.request('GET', crCollectionPath(CRONTAB, ns))).json.items.length, 0);
  });

  it('issue 5 figure: a new CRD is served within a second of its creation, and its instances are collected by the GC', async (t) => {
    const gadget: CustomKind = { group: 'fresh.example.com', version: 'v1', plural: 'gadgets', kind: 'Gadget', namespaced: true };
    const owner = await gc.create(configMap(NS, 'gadget-owner'));
    const created = await ts.request('POST', CRDS_PATH, crdFor(gadget));
    assert.equal(created.status, 201, created.text);
    const started = performance.now();
    const statuses = new Set<number>();
    const first = await waitFor(
      async () => {
        const res = await ts.request(
          'POST',
          crCollectionPath(gadget, NS),
          customResource(gadget, NS, 'g1', {}, { ownerReferences: [ownerRef(owner)] }),
        );
        statuses.add(res.status);
        return res.status === 201 ? res.json : undefined;
      },
      { timeoutMs: 2000, what: 'the first gadget to be created' },
    );
    const elapsed = performance.now() - started;
    t.diagnostic(`first instance create succeeded ${elapsed.toFixed(0)} ms after the CRD create returned`);
    assert.ok(elapsed < 1000, `instance create succeeded ${elapsed.toFixed(0)} ms after the CRD create`);
    assert.deepEqual(
      [...statuses].filter((s) => s !== 201 && s !== 404),
      [],
      'before serving, the endpoint is simply not found',
    );
    assert.equal(first.metadata.ownerReferences[0].uid, owner.metadata.uid);

    await gc.delete(owner, { propagationPolicy: 'Background' });
    await waitFor(async () => ((await ts.request('GET', crPath(gadget, NS, 'g1'))).status === 404 ? true : undefined), {
      timeoutMs: 3000,
      what: 'the gadget to be collected',
    });
    await crds.deleteCrd(`gadgets.${gadget.group}`);
  });

  it("CRD-01, CRD-02: deleting a CRD removes its instance and collects the instance's dependent; a recreated CRD starts empty and cascades again", async () => {
    const recycled: CustomKind = { group: 'recycle.example.com', version: 'v1', plural: 'bins', kind: 'Bin', namespaced: true };
    const name = `bins.${recycled.group}`;
    for (const pass of [1, 2]) {
      await crds.createEstablished(crdFor(recycled));
      const before = await ts.request('GET', crCollectionPath(recycled, NS));
      assert.deepEqual(before.json.items, [], `pass ${pass}: no instances left from an earlier CRD`);
      const owner: Json = {
        ...(await crds.create(recycled, customResource(recycled, NS, 'owner'))),
        apiVersion: 'recycle.example.com/v1',
        kind: 'Bin',
      };
      const dependent = await gc.create(configMap(NS, `bin-dependent-${pass}`, { ownerReferences: [ownerRef(owner)] }));
      if (pass === 1) {
        await waitForCollectorToObserve(ts.server, owner.metadata.uid);
        await crds.deleteCrd(name);
        assert.equal((await ts.request('GET', crPath(recycled, NS, 'owner'))).status, 404, 'the instance endpoint is gone');
      } else {
        const res = await ts.request('DELETE', crPath(recycled, NS, 'owner'));
        assert.equal(res.status, 200, res.text);
      }
      await gc.waitForGone(dependent);
    }
    await crds.deleteCrd(name);
  });

  it('watch on a custom resource reports ADDED, MODIFIED and DELETED', async () => {
    const ns = 'crd-watch';
    await gc.create(namespaceObject(ns));
    const watch = await startWatch(`${ts.url}${crCollectionPath(CRONTAB, ns)}?watch=1`);
    try {
      await createCronTab(crontab('watched', {}, ns));
      const patched = await ts.request('PATCH', crPath(CRONTAB, ns, 'watched'), { spec: { schedule: '0 * * * *' } }, MERGE_PATCH);
      assert.equal(patched.status, 200, patched.text);
      const deleted = await ts.request('DELETE', crPath(CRONTAB, ns, 'watched'));
      assert.equal(deleted.status, 200, deleted.text);
      await waitFor(() => (watch.events.length >= 3 ? true : undefined), { timeoutMs: 3000, what: 'three watch events' });
      assert.deepEqual(
        watch.events.map((e) => [e.type, e.object.apiVersion, e.object.kind, e.object.metadata.name]),
        [
          ['ADDED', 'gc.example.com/v1', 'CronTab', 'watched'],
          ['MODIFIED', 'gc.example.com/v1', 'CronTab', 'watched'],
          ['DELETED', 'gc.example.com/v1', 'CronTab', 'watched'],
        ],
      );
      assert.equal(watch.events[1]?.object.spec.schedule, '0 * * * *');
      assert.equal(watch.events[1]?.object.metadata.generation, 2);
    } finally {
      await watch.stop();
    }
  });

  it('Table output: Name plus the printer columns, or Name and Age when the CRD declares none', async () => {
    await crds.create(WIDGET, customResource(WIDGET, NS, 'tabled', { spec: { size: 5, color: 'blue' } }));
    const widgets = await ts.request('GET', crCollectionPath(WIDGET, NS), undefined, TABLE);
    assert.equal(widgets.status, 200, widgets.text);
    assert.equal(widgets.json.kind, 'Table');
    assert.equal(widgets.json.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(
      widgets.json.columnDefinitions.map((c: Json) => [c.name, c.type, c.format, c.priority]),
      [
        ['Name', 'string', 'name', 0],
        ['Size', 'integer', '', 0],
        ['Color', 'string', '', 0],
        ['Phase', 'string', '', 0],
      ],
    );
    assert.deepEqual(
      widgets.json.rows.map((r: Json) => r.cells),
      [['tabled', 5, 'blue', null]],
    );
    assert.equal(widgets.json.rows[0].object.kind, 'PartialObjectMetadata');
    assert.equal(widgets.json.rows[0].object.metadata.name, 'tabled');

    await createCronTab(crontab('aged'));
    const crontabs = await ts.request('GET', `${crPath(CRONTAB, NS, 'aged')}`, undefined, TABLE);
    assert.equal(crontabs.status, 200, crontabs.text);
    assert.deepEqual(
      crontabs.json.columnDefinitions.map((c: Json) => [c.name, c.type]),
      [
        ['Name', 'string'],
        ['Age', 'date'],
      ],
    );
    assert.equal(crontabs.json.rows[0].cells[0], 'aged');
    assert.match(crontabs.json.rows[0].cells[1], /^\d+s$/);

    // tableconvertor.New: a column without a description is described by its JSONPath; the default Age column
    // carries ObjectMeta's creationTimestamp documentation.
    assert.deepEqual(
      widgets.json.columnDefinitions.slice(1).map((c: Json) => c.description),
      [
        'Custom resource definition column (in JSONPath format): .spec.size',
        'Custom resource definition column (in JSONPath format): .spec.color',
        'Custom resource definition column (in JSONPath format): .status.phase',
      ],
    );
    assert.equal(crontabs.json.columnDefinitions[1].description, CREATION_TIMESTAMP_DESCRIPTION);
  });

  it('R1.7: an update without resourceVersion is refused for custom resources', async () => {
    await createCronTab(crontab('unconditional'));
    const res = await ts.request('PUT', crPath(CRONTAB, NS, 'unconditional'), crontab('unconditional'));
    assert.equal(res.status, 422, res.text);
    assert.equal(res.json.reason, 'Invalid');
    assert.deepEqual(res.json.details, {
      name: 'unconditional',
      group: 'gc.example.com',
      kind: 'CronTab',
      causes: [
        { reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' },
      ],
    });
    assert.equal(
      res.json.message,
      'CronTab.gc.example.com "unconditional" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    );
  });

  it('patch: strategic merge patch is unsupported (415) for custom resources; merge and JSON patch work', async () => {
    await createCronTab(crontab('patched'));
    const path = crPath(CRONTAB, NS, 'patched');
    const merge = await ts.request('PATCH', path, { spec: { schedule: '5 * * * *' } }, MERGE_PATCH);
    assert.equal(merge.status, 200, merge.text);
    assert.equal(merge.json.spec.schedule, '5 * * * *');
    const json = await ts.request('PATCH', path, [{ op: 'add', path: '/spec/suspend', value: true }], {
      'Content-Type': 'application/json-patch+json',
    });
    assert.equal(json.status, 200, json.text);
    assert.deepEqual(json.json.spec, { schedule: '5 * * * *', suspend: true });

    const smp = await ts.request(
      'PATCH',
      path,
      { spec: { schedule: '6 * * * *' } },
      { 'Content-Type': 'application/strategic-merge-patch+json' },
    );
    assert.equal(smp.status, 415, smp.text);
    assert.equal(smp.json.reason, 'UnsupportedMediaType');
    assert.equal(smp.json.code, 415);
    assert.equal((await ts.request('GET', path)).json.spec.schedule, '5 * * * *', 'unchanged');
    // crdHandler lists json-patch, merge-patch and (with server-side apply) apply-patch+yaml; the Status has no details.
    assert.match(
      smp.json.message,
      /^the body of the request was in an unknown format - accepted media types include: application\/json-patch\+json, application\/merge-patch\+json(, application\/apply-patch\+yaml)?$/,
    );
    assert.equal(smp.json.details, undefined);
  });
});
