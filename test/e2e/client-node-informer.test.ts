import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ApiException,
  CoreV1Api,
  KubeConfig,
  ListWatch,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  Watch,
} from '@kubernetes/client-node';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'informers';
const PATH = `/api/v1/namespaces/${NS}/configmaps`;

interface SeenEvent {
  readonly verb: 'add' | 'update' | 'delete';
  readonly name: string;
  readonly data: Record<string, string> | undefined;
}

/** Passes every watch event through while remembering it, so a test can see what the server streamed. */
class RecordingWatch extends Watch {
  readonly events: { type: string; object: any }[] = [];
  override watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: any, watchObj?: any) => void,
    done: (err: any) => void,
  ): Promise<AbortController> {
    return super.watch(
      path,
      queryParams,
      (phase, obj, watchObj) => {
        this.events.push({ type: phase, object: obj });
        callback(phase, obj, watchObj);
      },
      done,
    );
  }
}

function cacheState(cache: { list(namespace?: string): readonly V1ConfigMap[] }): Record<string, Record<string, string> | undefined> {
  return Object.fromEntries(
    cache
      .list(NS)
      .map((cm) => [cm.metadata?.name ?? '', cm.data])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

describe('@kubernetes/client-node against Cascade', () => {
  let ts: TestServer;
  let kc: KubeConfig;
  let core: CoreV1Api;

  const serverState = async (): Promise<Record<string, Record<string, string> | undefined>> => {
    const list = await core.listNamespacedConfigMap({ namespace: NS });
    return Object.fromEntries(list.items.map((cm) => [cm.metadata?.name ?? '', cm.data]));
  };
  const deleteAll = async (): Promise<void> => {
    for (const cm of (await core.listNamespacedConfigMap({ namespace: NS })).items) {
      await core.deleteNamespacedConfigMap({ name: cm.metadata?.name ?? '', namespace: NS });
    }
  };

  before(async () => {
    ts = await startTestServer();
    kc = new KubeConfig();
    kc.loadFromFile(ts.kubeconfigPath);
    core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: NS } } });
  });
  after(async () => {
    await ts.stop();
  });

  it('the typed CoreV1Api creates, reads, lists, replaces, patches and deletes a ConfigMap', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace: NS,
      body: { metadata: { name: 'typed', labels: { via: 'client-node' } }, data: { a: '1' } },
    });
    assert.equal(created.metadata?.namespace, NS);
    assert.ok(created.metadata?.uid);
    assert.ok(created.metadata?.creationTimestamp instanceof Date, 'creationTimestamp deserialises as a date');

    const read = await core.readNamespacedConfigMap({ name: 'typed', namespace: NS });
    assert.deepEqual(read.data, { a: '1' });
    assert.equal(read.metadata?.resourceVersion, created.metadata?.resourceVersion);

    const listed = await core.listNamespacedConfigMap({ namespace: NS, labelSelector: 'via=client-node' });
    assert.deepEqual(
      listed.items.map((cm) => cm.metadata?.name),
      ['typed'],
    );
    assert.match(listed.metadata?.resourceVersion ?? '', /^\d+$/);

    const replaced = await core.replaceNamespacedConfigMap({ name: 'typed', namespace: NS, body: { ...read, data: { a: '2' } } });
    assert.deepEqual(replaced.data, { a: '2' });

    const patched = await core.patchNamespacedConfigMap(
      { name: 'typed', namespace: NS, body: { data: { b: '3' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    assert.deepEqual(patched.data, { a: '2', b: '3' });

    // A stale resourceVersion surfaces as an ApiException carrying the Status (R1.6).
    await assert.rejects(
      core.replaceNamespacedConfigMap({ name: 'typed', namespace: NS, body: { ...read, data: { a: 'stale' } } }),
      (err: unknown) => {
        assert.ok(err instanceof ApiException);
        assert.equal(err.code, 409);
        assert.match(String(err.body), /the object has been modified/);
        return true;
      },
    );

    await core.deleteNamespacedConfigMap({ name: 'typed', namespace: NS });
    await assert.rejects(core.readNamespacedConfigMap({ name: 'typed', namespace: NS }), (err: unknown) => {
      assert.ok(err instanceof ApiException);
      assert.equal(err.code, 404);
      return true;
    });
  });

  it('an informer sees ADDED, MODIFIED and DELETED in order', async () => {
    await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'pre' }, data: { v: '0' } } });
    const informer = makeInformer(kc, PATH, () => core.listNamespacedConfigMap({ namespace: NS }));
    const seen: SeenEvent[] = [];
    const errors: unknown[] = [];
    for (const verb of ['add', 'update', 'delete'] as const) {
      informer.on(verb, (cm: V1ConfigMap) => seen.push({ verb, name: cm.metadata?.name ?? '', data: cm.data }));
    }
    informer.on('error', (err) => errors.push(err));
    try {
      await informer.start();
      assert.deepEqual(seen, [{ verb: 'add', name: 'pre', data: { v: '0' } }], 'the initial list fills the cache');

      await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'inf' }, data: { v: '1' } } });
      await core.patchNamespacedConfigMap(
        { name: 'inf', namespace: NS, body: { data: { v: '2' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      const current = await core.readNamespacedConfigMap({ name: 'inf', namespace: NS });
      await core.replaceNamespacedConfigMap({ name: 'inf', namespace: NS, body: { ...current, data: { v: '3' } } });
      await core.deleteNamespacedConfigMap({ name: 'inf', namespace: NS });
      await core.deleteNamespacedConfigMap({ name: 'pre', namespace: NS });

      const expected: SeenEvent[] = [
        { verb: 'add', name: 'pre', data: { v: '0' } },
        { verb: 'add', name: 'inf', data: { v: '1' } },
        { verb: 'update', name: 'inf', data: { v: '2' } },
        { verb: 'update', name: 'inf', data: { v: '3' } },
        { verb: 'delete', name: 'inf', data: { v: '3' } },
        { verb: 'delete', name: 'pre', data: { v: '0' } },
      ];
      await waitFor(() => (seen.length >= expected.length ? true : undefined), { timeoutMs: 5000, what: 'all informer events' });
      assert.deepEqual(seen, expected);
      assert.deepEqual(cacheState(informer), {});
      assert.deepEqual(errors, []);
    } finally {
      await informer.stop();
      await deleteAll();
    }
  });

  it('an informer whose watch resumes from a compacted resourceVersion gets 410 Expired, relists and converges', async () => {
    for (const [name, v] of [
      ['keep', '1'],
      ['gone', '1'],
      ['changed', '1'],
    ] as const) {
      await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name }, data: { v } } });
    }
    const watch = new RecordingWatch(kc);
    let lists = 0;
    const informer = new ListWatch<V1ConfigMap>(
      PATH,
      watch,
      () => {
        lists += 1;
        return core.listNamespacedConfigMap({ namespace: NS });
      },
      false,
    );
    const seen: SeenEvent[] = [];
    for (const verb of ['add', 'update', 'delete'] as const) {
      informer.on(verb, (cm: V1ConfigMap) => seen.push({ verb, name: cm.metadata?.name ?? '', data: cm.data }));
    }
    try {
      await informer.start();
      assert.deepEqual(cacheState(informer), { changed: { v: '1' }, gone: { v: '1' }, keep: { v: '1' } });
      const staleRv = informer.latestResourceVersion();
      assert.match(staleRv, /^\d+$/);

      // The connection goes away (client-node informers do not reconnect on their own after a broken stream)...
      await informer.stop();
      seen.length = 0;

      // ...history moves on while it is away, and the store compacts past the informer's resourceVersion.
      await core.deleteNamespacedConfigMap({ name: 'gone', namespace: NS });
      await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'fresh' }, data: { v: '1' } } });
      await core.patchNamespacedConfigMap(
        { name: 'changed', namespace: NS, body: { data: { v: '2' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      const backend = ts.server.registry.backend;
      await backend.compact(await backend.currentRevision());

      // Restarting resumes the watch from the stale resourceVersion: the server must answer with a 410 ERROR event.
      await informer.start();
      const expired = await waitFor(() => watch.events.find((e) => e.type === 'ERROR'), {
        timeoutMs: 5000,
        what: 'a 410 ERROR watch event',
      });
      assert.equal(expired.object.kind, 'Status');
      assert.equal(expired.object.code, 410);
      assert.equal(expired.object.reason, 'Expired');

      const want = await serverState();
      assert.deepEqual(want, { changed: { v: '2' }, fresh: { v: '1' }, keep: { v: '1' } });
      await waitFor(() => (lists === 2 ? true : undefined), { timeoutMs: 5000, what: 'the informer to relist' });
      await waitFor(() => (JSON.stringify(cacheState(informer)) === JSON.stringify(want) ? true : undefined), {
        timeoutMs: 5000,
        what: 'the cache to match the server',
      });
      assert.equal(informer.get('gone', NS), undefined, 'an object deleted during the gap leaves the cache');
      assert.deepEqual(informer.get('fresh', NS)?.data, { v: '1' }, 'an object created during the gap enters the cache');
      assert.ok(
        seen.some((e) => e.verb === 'delete' && e.name === 'gone'),
        'the relist reports the deletion',
      );
      assert.ok(
        seen.some((e) => e.verb === 'add' && e.name === 'fresh'),
        'the relist reports the creation',
      );
      assert.ok(
        seen.some((e) => e.verb === 'update' && e.name === 'changed' && e.data?.v === '2'),
        'the relist reports the change',
      );

      // After the relist the informer watches again from a current resourceVersion and keeps up.
      await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'after' }, data: { v: '1' } } });
      await waitFor(() => informer.get('after', NS), { timeoutMs: 5000, what: 'the post-relist watch to deliver a create' });
    } finally {
      await informer.stop();
      await deleteAll();
    }
  });
});
