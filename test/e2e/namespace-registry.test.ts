import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clusterRole, configMap, type GcApi, gcApi, HOLD_FINALIZER, type Json, MERGE_PATCH, ownerRef } from '../support/gc-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// The namespace registry (spec §5, R5.1–R5.7) and what the namespace controller leaves behind (R5.19, R5.22),
// over HTTP with the namespace controller and the garbage collector running.
const NAMESPACES = '/api/v1/namespaces';
const NAME_LABEL = 'kubernetes.io/metadata.name';
const NEITHER = 'name is neither a standard finalizer name nor is it fully qualified';

const nsPath = (name: string): string => `${NAMESPACES}/${name}`;

function namespace(name: string, spec: Json = {}, meta: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...meta }, spec };
}

describe('namespace registry and termination (R5.1–R5.7, R5.19, R5.22)', () => {
  let ts: TestServer;
  let gc: GcApi;

  const create = async (obj: Json): Promise<Json> => {
    const res = await ts.request('POST', NAMESPACES, obj);
    assert.equal(res.status, 201, res.text);
    return res.json;
  };
  const stored = async (name: string): Promise<Json | undefined> => {
    const res = await ts.request('GET', nsPath(name));
    if (res.status === 404) return undefined;
    assert.equal(res.status, 200, res.text);
    return res.json;
  };
  const waitForNamespace = async (name: string, check: (ns: Json) => boolean, what: string): Promise<Json> => {
    let last: Json | undefined;
    try {
      return await waitFor(
        async () => {
          last = await stored(name);
          return last !== undefined && check(last) ? last : undefined;
        },
        { timeoutMs: 5000, what },
      );
    } catch (err) {
      throw new Error(`${String(err)}; last seen: ${JSON.stringify(last)}`);
    }
  };
  const waitForGone = (name: string): Promise<true> =>
    waitFor(async () => ((await stored(name)) === undefined ? true : undefined), { timeoutMs: 5000, what: `namespace ${name} to be gone` });
  /** The controller has finished its part once `kubernetes` has left spec.finalizers (R5.19). */
  const controllerDone = (name: string): Promise<Json> =>
    waitForNamespace(name, (ns) => !(ns.spec.finalizers ?? []).includes('kubernetes'), `the namespace controller to finalize ${name}`);
  const finalize = async (ns: Json, finalizers: string[]): Promise<{ status: number; json: any; text: string }> =>
    ts.request('PUT', `${nsPath(ns.metadata.name)}/finalize`, { ...ns, spec: { ...ns.spec, finalizers } });
  /** Clears spec.finalizers; the namespace controller may write in between, so a conflict is re-read and retried. */
  const release = async (name: string): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      const live = await stored(name);
      if (live === undefined) return;
      const res = await finalize(live, []);
      if (res.status === 409 && attempt < 5) continue;
      assert.equal(res.status, 200, res.text);
      return;
    }
  };

  before(async () => {
    ts = await startTestServer();
    gc = gcApi(ts);
  });
  after(async () => {
    await ts.stop();
  });

  it('R5.1: create keeps the client spec finalizers, appends kubernetes, forces Active and sets the name label', async () => {
    const created = await create({ ...namespace('ns-create', { finalizers: [HOLD_FINALIZER] }), status: { phase: 'Terminating' } });
    assert.deepEqual(created.spec.finalizers, [HOLD_FINALIZER, 'kubernetes']);
    assert.deepEqual(created.status, { phase: 'Active' });
    assert.equal(created.metadata.labels[NAME_LABEL], 'ns-create');
    const plain = await create(namespace('ns-plain', {}, { labels: { [NAME_LABEL]: 'wrong' } }));
    assert.deepEqual(plain.spec.finalizers, ['kubernetes']);
    assert.equal(plain.metadata.labels[NAME_LABEL], 'ns-plain', 'the defaulted label wins over a client value');
    const patched = await ts.request('PATCH', nsPath('ns-plain'), { metadata: { labels: { [NAME_LABEL]: 'other' } } }, MERGE_PATCH);
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json.metadata.labels[NAME_LABEL], 'ns-plain', 'and is maintained on update');
    const res = await ts.request('DELETE', nsPath('ns-plain'));
    assert.equal(res.status, 200, res.text);
    await waitForGone('ns-plain');
  });

  it('R5.2: an unqualified non-standard spec finalizer is refused on create, at the un-indexed spec.finalizers', async () => {
    const res = await ts.request('POST', NAMESPACES, namespace('ns-bad', { finalizers: [HOLD_FINALIZER, 'bogus'] }));
    assert.equal(res.status, 422, res.text);
    assert.equal(res.json.reason, 'Invalid');
    // ValidateNamespace hands validateFinalizerName the path spec.finalizers for every entry, without an index.
    assert.equal(res.json.message, `Namespace "ns-bad" is invalid: spec.finalizers: Invalid value: "bogus": ${NEITHER}`);
    assert.deepEqual(res.json.details.causes, [
      { reason: 'FieldValueInvalid', message: `Invalid value: "bogus": ${NEITHER}`, field: 'spec.finalizers' },
    ]);
    assert.equal(await stored('ns-bad'), undefined);
  });

  it('R5.2: /finalize refuses an unqualified non-standard spec finalizer at spec.finalizers[i]', async () => {
    // ValidateNamespaceFinalizeUpdate, unlike ValidateNamespace, indexes the path.
    const ns = await create(namespace('ns-bad-finalize'));
    const fin = await finalize(ns, ['kubernetes', 'bogus']);
    assert.equal(fin.status, 422, fin.text);
    assert.equal(fin.json.message, `Namespace "ns-bad-finalize" is invalid: spec.finalizers[1]: Invalid value: "bogus": ${NEITHER}`);
    assert.deepEqual(fin.json.details.causes, [
      { reason: 'FieldValueInvalid', message: `Invalid value: "bogus": ${NEITHER}`, field: 'spec.finalizers[1]' },
    ]);
    assert.deepEqual((await stored('ns-bad-finalize'))?.spec.finalizers, ['kubernetes']);
  });

  it('R5.3: PUT and PATCH keep spec.finalizers and status; /finalize changes only spec.finalizers; /status only status', async () => {
    const ns = await create(namespace('ns-fields'));

    const put = await ts.request('PUT', nsPath('ns-fields'), {
      ...ns,
      metadata: { ...ns.metadata, labels: { ...ns.metadata.labels, via: 'put' } },
      spec: { finalizers: [HOLD_FINALIZER] },
      status: { phase: 'Terminating' },
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.json.metadata.labels.via, 'put');
    assert.deepEqual(put.json.spec.finalizers, ['kubernetes']);
    assert.deepEqual(put.json.status, { phase: 'Active' });

    const patch = await ts.request(
      'PATCH',
      nsPath('ns-fields'),
      { metadata: { labels: { via: 'patch' } }, spec: { finalizers: [] }, status: { phase: 'Terminating' } },
      MERGE_PATCH,
    );
    assert.equal(patch.status, 200, patch.text);
    assert.equal(patch.json.metadata.labels.via, 'patch');
    assert.deepEqual(patch.json.spec.finalizers, ['kubernetes']);
    assert.deepEqual(patch.json.status, { phase: 'Active' });

    const fin = await ts.request('PUT', `${nsPath('ns-fields')}/finalize`, {
      ...patch.json,
      spec: { finalizers: ['kubernetes', HOLD_FINALIZER] },
      status: { phase: 'Active', conditions: [{ type: 'Example', status: 'True', reason: 'ByFinalize', message: 'ignored' }] },
    });
    assert.equal(fin.status, 200, fin.text);
    assert.deepEqual(fin.json.spec.finalizers, ['kubernetes', HOLD_FINALIZER]);
    assert.deepEqual(fin.json.status, { phase: 'Active' });

    const condition = { type: 'Example', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'ByStatus', message: 'kept' };
    const status = await ts.request('PUT', `${nsPath('ns-fields')}/status`, {
      ...fin.json,
      spec: { finalizers: [] },
      status: { phase: 'Active', conditions: [condition] },
    });
    assert.equal(status.status, 200, status.text);
    assert.deepEqual(status.json.spec.finalizers, ['kubernetes', HOLD_FINALIZER]);
    assert.deepEqual(status.json.status, { phase: 'Active', conditions: [condition] });

    const live = await stored('ns-fields');
    assert.deepEqual(live?.spec.finalizers, ['kubernetes', HOLD_FINALIZER]);
    assert.deepEqual(live?.status.conditions, [condition]);
  });

  it('R5.5: the first DELETE answers 200 with the namespace, now Terminating with a deletionTimestamp and no grace period', async () => {
    await create(namespace('ns-first-delete', { finalizers: [HOLD_FINALIZER] }));
    const before = Date.now();
    const res = await ts.request('DELETE', nsPath('ns-first-delete'));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.kind, 'Namespace');
    assert.equal(res.json.metadata.name, 'ns-first-delete');
    assert.equal(res.json.status.phase, 'Terminating');
    const at = Date.parse(res.json.metadata.deletionTimestamp);
    assert.ok(Math.abs(at - before) < 3000, `deletionTimestamp ${res.json.metadata.deletionTimestamp} is now`);
    assert.equal(res.json.metadata.deletionGracePeriodSeconds, undefined);
    assert.equal(res.json.metadata.finalizers, undefined, 'no options add no GC finalizer (R5.6)');
    assert.deepEqual(res.json.spec.finalizers, [HOLD_FINALIZER, 'kubernetes'], 'nothing is removed by the DELETE itself');
    await controllerDone('ns-first-delete');
    await release('ns-first-delete');
    await waitForGone('ns-first-delete');
  });

  // The legacy orphanDependents=false answers 202 whenever the object was not removed at once (R2.26).
  const options: [string, string, Json | undefined, string[] | undefined, number][] = [
    ['propagationPolicy=Orphan', '?propagationPolicy=Orphan', undefined, ['orphan'], 200],
    ['orphanDependents=true', '?orphanDependents=true', undefined, ['orphan'], 200],
    ['propagationPolicy=Foreground', '?propagationPolicy=Foreground', undefined, ['foregroundDeletion'], 200],
    ['orphanDependents=false (foreground, unlike R2.14; 202 per R2.26)', '?orphanDependents=false', undefined, ['foregroundDeletion'], 202],
    [
      'a DeleteOptions body with propagationPolicy=Orphan',
      '',
      { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' },
      ['orphan'],
      200,
    ],
    ['propagationPolicy=Background', '?propagationPolicy=Background', undefined, undefined, 200],
  ];
  for (const [what, query, body, expected, code] of options) {
    it(`R5.6: ${what} leaves metadata.finalizers ${JSON.stringify(expected ?? [])}; the garbage collector then removes them`, async () => {
      const name = `ns-opt-${query.replace(/[^a-zA-Z]/g, '').toLowerCase() || 'body'}`;
      await create(namespace(name, { finalizers: [HOLD_FINALIZER] }));
      const res = await ts.request('DELETE', `${nsPath(name)}${query}`, body);
      assert.equal(res.status, code, res.text);
      assert.deepEqual(res.json.metadata.finalizers, expected);
      assert.equal(res.json.status.phase, 'Terminating');
      // HOLD_FINALIZER keeps the namespace after the controller is done, so the GC's work on it can be seen.
      const done = await waitForNamespace(
        name,
        (ns) => (ns.metadata.finalizers ?? []).length === 0 && !ns.spec.finalizers.includes('kubernetes'),
        'GC finalizers to be processed',
      );
      assert.deepEqual(done.spec.finalizers, [HOLD_FINALIZER]);
      await release(name);
      await waitForGone(name);
    });
  }

  it('R5.6: with no options an existing orphan finalizer stays; Background removes it', async () => {
    await create(namespace('ns-keep-orphan', { finalizers: [HOLD_FINALIZER] }, { finalizers: ['orphan'] }));
    await create(namespace('ns-drop-orphan', { finalizers: [HOLD_FINALIZER] }, { finalizers: ['orphan'] }));
    const kept = await ts.request('DELETE', nsPath('ns-keep-orphan'));
    assert.equal(kept.status, 200, kept.text);
    assert.deepEqual(kept.json.metadata.finalizers, ['orphan']);
    const dropped = await ts.request('DELETE', `${nsPath('ns-drop-orphan')}?propagationPolicy=Background`);
    assert.equal(dropped.status, 200, dropped.text);
    assert.equal(dropped.json.metadata.finalizers, undefined);
    for (const name of ['ns-keep-orphan', 'ns-drop-orphan']) {
      await waitForNamespace(
        name,
        (ns) => (ns.metadata.finalizers ?? []).length === 0 && !ns.spec.finalizers.includes('kubernetes'),
        'the namespace to be processed',
      );
      await release(name);
      await waitForGone(name);
    }
  });

  it('R5.7: later DELETEs answer 200 and change nothing while spec finalizers remain; emptying both lists removes the namespace', async () => {
    await create(namespace('ns-again', { finalizers: [HOLD_FINALIZER] }));
    const first = await ts.request('DELETE', nsPath('ns-again'));
    assert.equal(first.status, 200, first.text);
    const settled = await controllerDone('ns-again');
    for (const [query, code] of [
      ['', 200],
      ['?propagationPolicy=Foreground', 200],
      ['?orphanDependents=true', 200],
      ['?gracePeriodSeconds=0', 200],
    ] as const) {
      const again = await ts.request('DELETE', `${nsPath('ns-again')}${query}`);
      assert.equal(again.status, code, again.text);
      assert.equal(again.json.kind, 'Namespace');
      assert.equal(again.json.metadata.resourceVersion, settled.metadata.resourceVersion, `DELETE${query} changed nothing`);
      assert.equal(again.json.metadata.deletionTimestamp, settled.metadata.deletionTimestamp);
      assert.equal(again.json.metadata.finalizers, undefined);
    }
    assert.equal((await stored('ns-again'))?.metadata.resourceVersion, settled.metadata.resourceVersion);
    const fin = await finalize(settled, []);
    assert.equal(fin.status, 200, fin.text);
    assert.equal(await stored('ns-again'), undefined);
  });

  it('R5.7, R2.26: a later DELETE with orphanDependents=false answers 202, as the namespace was not removed', async () => {
    await create(namespace('ns-again-legacy', { finalizers: [HOLD_FINALIZER] }));
    const first = await ts.request('DELETE', nsPath('ns-again-legacy'));
    assert.equal(first.status, 200, first.text);
    const settled = await controllerDone('ns-again-legacy');
    const again = await ts.request('DELETE', `${nsPath('ns-again-legacy')}?orphanDependents=false`);
    try {
      // The namespace REST answers (namespace, deleted=false); the handler turns that into 202 for this legacy option.
      assert.equal(again.status, 202, again.text);
      assert.equal(again.json.metadata.resourceVersion, settled.metadata.resourceVersion);
      assert.equal(again.json.metadata.finalizers, undefined, 'options of a later DELETE are ignored');
    } finally {
      await release('ns-again-legacy');
    }
  });

  it('R5.7: a metadata finalizer keeps the namespace after spec.finalizers is empty; removing it removes the namespace', async () => {
    await create(namespace('ns-meta-held', {}, { finalizers: [HOLD_FINALIZER] }));
    const res = await ts.request('DELETE', nsPath('ns-meta-held'));
    assert.equal(res.status, 200, res.text);
    const done = await controllerDone('ns-meta-held');
    assert.deepEqual(done.spec.finalizers ?? [], []);
    assert.deepEqual(done.metadata.finalizers, [HOLD_FINALIZER]);
    assert.equal(done.status.phase, 'Terminating');
    const patch = await ts.request('PATCH', nsPath('ns-meta-held'), { metadata: { finalizers: null } }, MERGE_PATCH);
    assert.equal(patch.status, 200, patch.text);
    assert.equal(await stored('ns-meta-held'), undefined);
  });

  it('R5.19: the controller removes only kubernetes, leaving the other spec finalizers deduplicated and sorted', async () => {
    const created = await create(
      namespace('ns-sorted', { finalizers: ['z.example.com/last', HOLD_FINALIZER, 'z.example.com/last', 'a.example.com/first'] }),
    );
    assert.deepEqual(created.spec.finalizers, [
      'z.example.com/last',
      HOLD_FINALIZER,
      'z.example.com/last',
      'a.example.com/first',
      'kubernetes',
    ]);
    await gc.create(configMap('ns-sorted', 'content'));
    const res = await ts.request('DELETE', nsPath('ns-sorted'));
    assert.equal(res.status, 200, res.text);
    const done = await controllerDone('ns-sorted');
    assert.deepEqual(done.spec.finalizers, ['a.example.com/first', HOLD_FINALIZER, 'z.example.com/last']);
    assert.equal(done.status.phase, 'Terminating');
    const content = await ts.request('GET', '/api/v1/namespaces/ns-sorted/configmaps');
    assert.deepEqual(content.json.items, [], 'the content went before the finalizer');
    await release('ns-sorted');
    await waitForGone('ns-sorted');
  });

  it('R5.22, issue item 5: cluster-scoped owners of namespaced content survive namespace deletion; the content goes', async () => {
    const role = await gc.create(clusterRole('ns-owner-role'));
    const bystander = await gc.create(clusterRole('ns-bystander-role'));
    await create(namespace('ns-cluster-owner'));
    const owned = [];
    for (let i = 0; i < 3; i++)
      owned.push(
        await gc.create(configMap('ns-cluster-owner', `owned-${i}`, { ownerReferences: [ownerRef(role, { blockOwnerDeletion: true })] })),
      );
    const res = await ts.request('DELETE', nsPath('ns-cluster-owner'));
    assert.equal(res.status, 200, res.text);
    await waitForGone('ns-cluster-owner');
    for (const cm of owned) assert.equal(await gc.get(cm), undefined);
    await gc.settle('cluster');
    const live = await gc.get(role);
    assert.ok(live, 'the ClusterRole owner is never deleted by namespace deletion');
    assert.equal(live.metadata.deletionTimestamp, undefined);
    assert.ok(await gc.get(bystander));
  });

  it('issue item 5: a cluster-scoped object owned by a namespace stays while it terminates and is collected once it is gone', async () => {
    const ns = await create(namespace('ns-owns-role', { finalizers: [HOLD_FINALIZER] }));
    const role = await gc.create(
      clusterRole('ns-owned-role', { ownerReferences: [ownerRef({ ...ns, apiVersion: 'v1', kind: 'Namespace' })] }),
    );
    const res = await ts.request('DELETE', nsPath('ns-owns-role'));
    assert.equal(res.status, 200, res.text);
    const held = await controllerDone('ns-owns-role');
    await gc.settle('cluster');
    assert.ok(await gc.get(role), 'a background dependent stays while its owner exists');
    const fin = await finalize(held, []);
    assert.equal(fin.status, 200, fin.text);
    await waitForGone('ns-owns-role');
    await gc.waitForGone(role);
  });

  it('R5.19: foreground deletion of a namespace collects its cluster-scoped dependents before the GC lets go of it', async () => {
    const ns = await create(namespace('ns-foreground-owner', { finalizers: [HOLD_FINALIZER] }));
    const role = await gc.create(
      clusterRole('ns-foreground-role', {
        ownerReferences: [ownerRef({ ...ns, apiVersion: 'v1', kind: 'Namespace' }, { blockOwnerDeletion: true })],
      }),
    );
    const res = await ts.request('DELETE', `${nsPath('ns-foreground-owner')}?propagationPolicy=Foreground`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.metadata.finalizers, ['foregroundDeletion']);
    await gc.waitForGone(role);
    const done = await waitForNamespace(
      'ns-foreground-owner',
      (n) => (n.metadata.finalizers ?? []).length === 0,
      'the GC to drop foregroundDeletion',
    );
    assert.equal(done.status.phase, 'Terminating');
    await release('ns-foreground-owner');
    await waitForGone('ns-foreground-owner');
  });
});
