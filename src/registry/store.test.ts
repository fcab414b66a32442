import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { createMemoryBackend } from '../storage/memory/backend.js';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { Registry } from './registry.js';
import type { ResourceStore } from './store.js';
import { watchCollection } from './watch.js';
import type { ObjectEvent } from '../api/types.js';

function setup(): { registry: Registry; store: (plural: string, group?: string) => ResourceStore } {
  const registry = new Registry({
    backend: createMemoryBackend(),
    resources: BUILTIN_RESOURCES,
    clock: () => new Date('2026-01-02T03:04:05.678Z'),
  });
  return {
    registry,
    store: (plural, group = '') => {
      const found = registry.resources().find((r) => r.plural === plural && r.group === group);
      assert.ok(found);
      const s = registry.lookup(found.group, found.version, found.plural);
      assert.ok(s);
      return s;
    },
  };
}

const cm = (name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({ metadata: { name, ...extra }, data: { a: '1' } });

async function rejects(promise: Promise<unknown>, code: number, message?: RegExp): Promise<StatusError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof StatusError, `expected a StatusError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    if (message) assert.match(err.message, message);
    return err;
  }
  assert.fail('expected the call to fail');
}

describe('ResourceStore create', () => {
  it('R1.1: discards client-set system fields and assigns uid, creationTimestamp, resourceVersion', async () => {
    const { store } = setup();
    const created = await store('configmaps').create(
      'default',
      cm('a', { uid: 'mine', creationTimestamp: '2000-01-01T00:00:00Z', deletionTimestamp: '2000-01-01T00:00:00Z' }),
    );
    assert.notEqual(created.metadata.uid, 'mine');
    assert.match(created.metadata.uid ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(created.metadata.creationTimestamp, '2026-01-02T03:04:05Z');
    assert.equal(created.metadata.deletionTimestamp, undefined);
    assert.equal(created.metadata.generation, undefined, 'R1.8: configmaps have no generation');
    assert.ok(Number(created.metadata.resourceVersion) > 0);
  });

  it('R1.8: spec types start at generation 1', async () => {
    const { store } = setup();
    const d = await store('deployments', 'apps').create('default', {
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    });
    assert.equal(d.metadata.generation, 1);
  });

  it('R1.32: generateName appends five characters from the Kubernetes alphabet', async () => {
    const { store } = setup();
    const created = await store('configmaps').create('default', { metadata: { generateName: 'web-' } });
    assert.match(created.metadata.name ?? '', /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('R1.29, R9.6: a nameless object is Invalid with a field cause', async () => {
    const { store } = setup();
    const err = await rejects(
      store('configmaps').create('default', { metadata: {} }),
      422,
      /^ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required$/,
    );
    assert.deepEqual(err.toStatus().details?.causes, [
      { reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' },
    ]);
  });

  it('R9.4: a duplicate name is AlreadyExists with the plural resource in details', async () => {
    const { store } = setup();
    await store('configmaps').create('default', cm('a'));
    const err = await rejects(store('configmaps').create('default', cm('a')), 409, /^configmaps "a" already exists$/);
    assert.deepEqual(err.toStatus().details, { name: 'a', kind: 'configmaps' });
  });

  it('dry run validates but stores nothing', async () => {
    const { store } = setup();
    await store('configmaps').create('default', cm('a'), { dryRun: true });
    await rejects(store('configmaps').get('default', 'a'), 404);
  });
});

describe('ResourceStore update', () => {
  it('R1.6: a stale resourceVersion is a Conflict with the optimistic-lock message', async () => {
    const { store } = setup();
    const s = store('configmaps');
    const created = await s.create('default', cm('a'));
    await s.update('default', 'a', { ...created, data: { a: '2' } });
    await rejects(
      s.update('default', 'a', { ...created, data: { a: '3' } }),
      409,
      /the object has been modified; please apply your changes to the latest version and try again$/,
    );
  });

  it('R1.5: a write that changes nothing keeps the resourceVersion', async () => {
    const { store } = setup();
    const s = store('configmaps');
    const created = await s.create('default', cm('a'));
    const same = await s.update('default', 'a', structuredClone(created));
    assert.equal(same.metadata.resourceVersion, created.metadata.resourceVersion);
  });

  it('R1.2, R1.3: uid is restored when empty and is a precondition when set', async () => {
    const { store } = setup();
    const s = store('configmaps');
    const created = await s.create('default', cm('a'));
    const { uid: _uid, ...meta } = created.metadata;
    const updated = await s.update('default', 'a', { ...created, metadata: { ...meta, creationTimestamp: '1999-01-01T00:00:00Z' } });
    assert.equal(updated.metadata.uid, created.metadata.uid);
    assert.equal(updated.metadata.creationTimestamp, created.metadata.creationTimestamp);
    await rejects(
      s.update('default', 'a', { ...updated, metadata: { ...updated.metadata, uid: 'other' } }),
      409,
      /Precondition failed: UID in precondition: other/,
    );
  });

  it('R1.9: generation bumps on spec changes only, and status writes go through /status', async () => {
    const { store } = setup();
    const s = store('deployments', 'apps');
    const d = await s.create('default', {
      metadata: { name: 'd' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    });
    const labelled = await s.update('default', 'd', { ...d, metadata: { ...d.metadata, labels: { x: 'y' } } });
    assert.equal(labelled.metadata.generation, 1);
    const scaled = await s.update('default', 'd', {
      ...labelled,
      spec: { ...(labelled.spec as object), replicas: 3 },
      status: { replicas: 9 },
    });
    assert.equal(scaled.metadata.generation, 2);
    assert.deepEqual(scaled.status, {}, 'status is ignored on the main resource: the empty status of create stays');
    const withStatus = await s.update(
      'default',
      'd',
      { ...scaled, spec: { replicas: 7 }, status: { replicas: 3 } },
      { subresource: 'status' },
    );
    assert.deepEqual(withStatus.status, { replicas: 3 });
    assert.equal((withStatus.spec as { replicas: number }).replicas, 3, 'spec is ignored on /status');
  });
});

describe('deletion state machine (R2)', () => {
  it('R2.22: no finalizers → removed at once; answer is a Success Status (R2.25)', async () => {
    const { store } = setup();
    const s = store('configmaps');
    const created = await s.create('default', cm('a'));
    const result = await s.delete('default', 'a', {});
    assert.equal(result.code, 200);
    assert.deepEqual(result.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'a', kind: 'configmaps', uid: created.metadata.uid },
    });
    await rejects(s.get('default', 'a'), 404);
  });

  it('R2.25: pods answer with the deleted object', async () => {
    const { store } = setup();
    const s = store('pods');
    await s.create('default', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    const result = await s.delete('default', 'p', {});
    assert.equal((result.body as KubeObject).kind, 'Pod');
  });

  const table: {
    name: string;
    finalizers?: string[];
    policy?: 'Orphan' | 'Background' | 'Foreground';
    orphanDependents?: boolean;
    code: number;
    removed: boolean;
    expectFinalizers?: string[];
  }[] = [
    { name: 'R2.29 background without finalizers removes', policy: 'Background', code: 200, removed: true },
    {
      name: 'R2.30 orphan keeps the object with the orphan finalizer',
      policy: 'Orphan',
      code: 200,
      removed: false,
      expectFinalizers: ['orphan'],
    },
    {
      name: 'R2.30 foreground keeps the object with foregroundDeletion',
      policy: 'Foreground',
      code: 200,
      removed: false,
      expectFinalizers: ['foregroundDeletion'],
    },
    {
      name: 'R2.26 legacy orphanDependents=false answers 202 when kept',
      finalizers: ['example.com/x'],
      orphanDependents: false,
      code: 202,
      removed: false,
      expectFinalizers: ['example.com/x'],
    },
    {
      name: 'R2.22 a user finalizer keeps the object',
      finalizers: ['example.com/x'],
      code: 200,
      removed: false,
      expectFinalizers: ['example.com/x'],
    },
    {
      name: 'R2.15 orphan is appended after user finalizers',
      finalizers: ['example.com/x'],
      policy: 'Orphan',
      code: 200,
      removed: false,
      expectFinalizers: ['example.com/x', 'orphan'],
    },
  ];
  for (const c of table) {
    it(c.name, async () => {
      const { store } = setup();
      const s = store('configmaps');
      await s.create('default', cm('a', c.finalizers ? { finalizers: c.finalizers } : {}));
      const result = await s.delete('default', 'a', { propagationPolicy: c.policy, orphanDependents: c.orphanDependents });
      assert.equal(result.code, c.code);
      assert.equal(result.removed, c.removed);
      if (!c.removed) {
        const kept = await s.get('default', 'a');
        assert.equal(kept.metadata.deletionTimestamp, '2026-01-02T03:04:05Z');
        assert.equal(kept.metadata.deletionGracePeriodSeconds, 0);
        assert.deepEqual(kept.metadata.finalizers, c.expectFinalizers);
      }
    });
  }

  it('R2.31: a second DELETE switches Foreground to Orphan, and Background then removes it', async () => {
    const { store } = setup();
    const s = store('configmaps');
    await s.create('default', cm('a'));
    await s.delete('default', 'a', { propagationPolicy: 'Foreground' });
    await s.delete('default', 'a', { propagationPolicy: 'Orphan' });
    assert.deepEqual((await s.get('default', 'a')).metadata.finalizers, ['orphan']);
    const result = await s.delete('default', 'a', { propagationPolicy: 'Background' });
    assert.equal(result.removed, true);
  });

  it('R2.32: a second DELETE without options changes nothing', async () => {
    const { store } = setup();
    const s = store('configmaps');
    await s.create('default', cm('a'));
    await s.delete('default', 'a', { propagationPolicy: 'Orphan' });
    const before = await s.get('default', 'a');
    await s.delete('default', 'a', {});
    assert.equal((await s.get('default', 'a')).metadata.resourceVersion, before.metadata.resourceVersion);
  });

  it('R2.3: orphanDependents and propagationPolicy together are Invalid DeleteOptions', async () => {
    const { store } = setup();
    await store('configmaps').create('default', cm('a'));
    const err = await rejects(store('configmaps').delete('default', 'a', { orphanDependents: true, propagationPolicy: 'Orphan' }), 422);
    assert.equal(
      err.message,
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    );
    assert.equal(err.toStatus().details?.group, 'meta.k8s.io');
  });

  it('R2.6: uid and resourceVersion preconditions', async () => {
    const { store } = setup();
    const s = store('configmaps');
    await s.create('default', cm('a'));
    await rejects(
      s.delete('default', 'a', { preconditions: { uid: 'x' } }),
      409,
      /^Operation cannot be fulfilled on ConfigMap "a": the UID in the precondition \(x\) does not match/,
    );
    await rejects(
      s.delete('default', 'a', { preconditions: { resourceVersion: '1' } }),
      409,
      /the ResourceVersion in the precondition \(1\) does not match/,
    );
  });

  it('R2.27: dry run reports the removal but keeps the object', async () => {
    const { store } = setup();
    const s = store('configmaps');
    await s.create('default', cm('a'));
    const result = await s.delete('default', 'a', { dryRun: ['All'] });
    assert.equal(result.removed, true);
    await s.get('default', 'a');
  });

  it('R1.20, R2.35: no finalizer may be added while deleting; removing the last one removes the object with a DELETED event', async () => {
    const { store } = setup();
    const s = store('configmaps');
    await s.create('default', cm('a', { finalizers: ['example.com/x'] }));
    await s.delete('default', 'a', {});
    const deleting = await s.get('default', 'a');
    await rejects(
      s.update('default', 'a', { ...deleting, metadata: { ...deleting.metadata, finalizers: ['example.com/x', 'example.com/y'] } }),
      422,
      /no new finalizers can be added if the object is being deleted, found new finalizers \[\]string\{"example.com\/y"\}/,
    );
    const watch = await watchCollection(s, 'default', { resourceVersion: deleting.metadata.resourceVersion });
    await s.update('default', 'a', { ...deleting, metadata: { ...deleting.metadata, finalizers: [] } });
    await rejects(s.get('default', 'a'), 404);
    const events: ObjectEvent[] = [];
    for await (const e of watch) {
      events.push(e);
      break;
    }
    watch.stop();
    assert.equal(events[0]?.type, 'DELETED');
    assert.equal((events[0]?.object as KubeObject | undefined)?.metadata.deletionTimestamp, '2026-01-02T03:04:05Z');
  });

  it('R2.17, R2.18: a scheduled pod gets a grace period; a shorter second DELETE shortens it (R2.20)', async () => {
    const { store } = setup();
    const s = store('pods');
    await s.create('default', { metadata: { name: 'p' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] } });
    const first = await s.delete('default', 'p', {});
    assert.equal(first.removed, false);
    const pod = first.body as KubeObject;
    assert.equal(pod.metadata.deletionGracePeriodSeconds, 30);
    assert.equal(pod.metadata.deletionTimestamp, '2026-01-02T03:04:35Z');
    const again = await s.delete('default', 'p', { gracePeriodSeconds: 60 });
    assert.equal((again.body as KubeObject).metadata.deletionGracePeriodSeconds, 30, 'a longer period changes nothing');
    const forced = await s.delete('default', 'p', { gracePeriodSeconds: 0 });
    assert.equal(forced.removed, true);
  });
});

describe('ResourceStore list', () => {
  it('pages with limit and continue on one snapshot, reporting remainingItemCount', async () => {
    const { store } = setup();
    const s = store('configmaps');
    for (let i = 0; i < 7; i++) await s.create('default', cm(`c${i}`));
    const first = await s.list('default', { limit: 2 });
    assert.deepEqual(
      first.items.map((i) => i.metadata.name),
      ['c0', 'c1'],
    );
    assert.equal(first.metadata.remainingItemCount, 5);
    await s.create('default', cm('c9'));
    const names: string[] = first.items.map((i) => i.metadata.name ?? '');
    let token = first.metadata.continue;
    while (token) {
      const page = await s.list('default', { limit: 2, continue: token });
      assert.equal(page.metadata.resourceVersion, first.metadata.resourceVersion, "every page reads the first page's snapshot");
      names.push(...page.items.map((i) => i.metadata.name ?? ''));
      token = page.metadata.continue;
    }
    assert.deepEqual(names, ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
  });

  it('filters by label and field selectors, and rejects unsupported field labels', async () => {
    const { store } = setup();
    const s = store('configmaps');
    await s.create('default', cm('a', { labels: { app: 'x' } }));
    await s.create('default', cm('b', { labels: { app: 'y' } }));
    assert.deepEqual(
      (await s.list('default', { labelSelector: 'app in (x)' })).items.map((i) => i.metadata.name),
      ['a'],
    );
    assert.deepEqual(
      (await s.list('default', { fieldSelector: 'metadata.name!=a' })).items.map((i) => i.metadata.name),
      ['b'],
    );
    await rejects(s.list('default', { fieldSelector: 'spec.foo=1' }), 400);
  });

  it('R9.10: a continue token whose snapshot was compacted is Expired', async () => {
    const { store, registry } = setup();
    const s = store('configmaps');
    for (let i = 0; i < 3; i++) await s.create('default', cm(`c${i}`));
    const first = await s.list('default', { limit: 1 });
    await s.create('default', cm('later'));
    await registry.backend.compact(await registry.backend.currentRevision());
    await rejects(s.list('default', { limit: 1, continue: first.metadata.continue }), 410, /continue parameter is too old/);
  });
});

describe('watchCollection', () => {
  it('replays the current state as ADDED without a resourceVersion, then streams changes', async () => {
    const { store } = setup();
    const s = store('configmaps');
    await s.create('default', cm('a'));
    const watch = await watchCollection(s, 'default', {});
    const b = await s.create('default', cm('b'));
    await s.update('default', 'b', { ...b, data: { a: '2' } });
    await s.delete('default', 'b', {});
    const seen: string[] = [];
    for await (const e of watch) {
      seen.push(`${e.type} ${(e.object as KubeObject).metadata.name}`);
      if (seen.length === 4) break;
    }
    watch.stop();
    assert.deepEqual(seen, ['ADDED a', 'ADDED b', 'MODIFIED b', 'DELETED b']);
  });

  it('R2.28: a DELETED event carries the last state at the deletion revision, whole and unshared, for every watcher', async () => {
    const { registry, store } = setup();
    const s = store('configmaps');
    const created = await s.create('default', cm('gone', { labels: { app: 'x' } }));
    const first = await watchCollection(s, 'default', { resourceVersion: created.metadata.resourceVersion });
    const second = await watchCollection(s, 'default', { resourceVersion: created.metadata.resourceVersion });
    const answer = await s.delete('default', 'gone', {});
    const deletedAt = String(await registry.backend.currentRevision());
    const next = async (w: typeof first): Promise<ObjectEvent> => {
      for await (const e of w) return e;
      assert.fail('the watch ended without an event');
    };
    const [a, b] = [await next(first), await next(second)];
    first.stop();
    second.stop();
    for (const e of [a, b]) {
      assert.equal(e.type, 'DELETED');
      const obj = e.object as KubeObject;
      assert.equal(obj.metadata.resourceVersion, deletedAt);
      assert.equal(obj.metadata.uid, created.metadata.uid);
      assert.deepEqual(obj.metadata.labels, { app: 'x' });
      assert.deepEqual(obj.data, { a: '1' });
    }
    assert.notEqual(a.object, b.object, 'two watchers must not share one object');
    assert.equal((answer.body as { kind: string }).kind, 'Status');
  });
  it('turns objects leaving and entering a label selector into DELETED and ADDED', async () => {
    const { store } = setup();
    const s = store('configmaps');
    const a = await s.create('default', cm('a', { labels: { app: 'x' } }));
    const watch = await watchCollection(s, 'default', { resourceVersion: a.metadata.resourceVersion, labelSelector: 'app=x' });
    const moved = await s.update('default', 'a', { ...a, metadata: { ...a.metadata, labels: { app: 'y' } } });
    await s.update('default', 'a', { ...moved, metadata: { ...moved.metadata, labels: { app: 'x' } } });
    const seen: string[] = [];
    for await (const e of watch) {
      seen.push(e.type);
      if (seen.length === 2) break;
    }
    watch.stop();
    assert.deepEqual(seen, ['DELETED', 'ADDED']);
  });

  it('R9.10: a compacted start revision yields one ERROR event with 410 Expired', async () => {
    const { store, registry } = setup();
    const s = store('configmaps');
    await s.create('default', cm('a'));
    await s.create('default', cm('b'));
    await registry.backend.compact(await registry.backend.currentRevision());
    const watch = await watchCollection(s, 'default', { resourceVersion: '1' });
    const events: ObjectEvent[] = [];
    for await (const e of watch) events.push(e);
    assert.equal(events.length, 1);
    assert.equal(events[0]?.type, 'ERROR');
    assert.equal((events[0]?.object as { code: number } | undefined)?.code, 410);
  });
});
