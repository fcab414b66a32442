import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type EtcdServer, etcdUnavailableReason, startEtcd } from '../../../test/support/etcd-server.js';
import type { Backend } from '../backend.js';
import { CompactedError } from '../errors.js';
import { bytes, keysOf, rejectionOf, text } from '../testing/case-helpers.js';
import { runBackendConformance } from '../testing/conformance.js';
import { EventReader } from '../testing/event-reader.js';
import { createEtcdBackend } from './backend.js';

const unavailable = etcdUnavailableReason();
if (unavailable !== undefined) console.log(`# etcd backend tests skipped: ${unavailable}`);

/** The next case's etcd starts while the current case runs. */
let spare: Promise<EtcdServer> | undefined;
function freshEtcd(): Promise<EtcdServer> {
  const next = spare ?? startEtcd();
  spare = startEtcd();
  return next;
}
after(async () => {
  await (await spare)?.stop();
});

if (unavailable === undefined) {
  // The contract's cases count revisions from an empty store (revision 1), which only a fresh etcd has; etcd
  // starts in a fraction of a second, so every case gets its own and none has to be skipped.
  runBackendConformance({
    name: 'etcd',
    async newBackend() {
      const etcd = await freshEtcd();
      const backend = createEtcdBackend({ endpoints: [etcd.endpoint] });
      return {
        ...backend,
        async close() {
          await backend.close();
          await etcd.stop();
        },
      };
    },
  });
}

describe('etcd backend', { skip: unavailable ?? false }, () => {
  let etcd: EtcdServer;
  const opened: Backend[] = [];
  const open = (prefix?: string): Backend => {
    const backend = createEtcdBackend({ endpoints: [etcd.endpoint], ...(prefix === undefined ? {} : { prefix }) });
    opened.push(backend);
    return backend;
  };

  before(async () => {
    etcd = await startEtcd();
  });
  after(async () => {
    for (const backend of opened) await backend.close();
    await etcd.stop();
  });

  it('stores keys under --etcd-prefix in place of /registry, isolated from other prefixes', async () => {
    const tenantA = open('/tenant-a');
    const tenantB = open('tenant-b/');
    const raw = open();
    const created = await tenantA.create('/registry/configmaps/ns/x', bytes('a'));
    assert.equal(created.key, '/registry/configmaps/ns/x');
    assert.equal(text((await raw.get('/tenant-a/configmaps/ns/x')).kv), 'a', 'etcd holds it under the prefix');
    assert.equal((await raw.get('/registry/configmaps/ns/x')).kv, undefined);
    assert.equal((await tenantB.get('/registry/configmaps/ns/x')).kv, undefined);

    await tenantB.create('/registry/configmaps/ns/y', bytes('b'));
    assert.deepEqual(keysOf((await tenantA.list('/registry/configmaps/')).kvs), ['/registry/configmaps/ns/x']);
    assert.deepEqual(keysOf((await tenantA.list('')).kvs), ['/registry/configmaps/ns/x']);
    assert.equal(await tenantB.count('/registry/'), 1);

    const watcher = await tenantA.watch('/registry/', await tenantA.currentRevision());
    await tenantB.create('/registry/configmaps/ns/z', bytes('not seen'));
    const updated = await tenantA.update('/registry/configmaps/ns/x', bytes('a2'), created.modRevision);
    const [event] = await new EventReader(watcher).take(1);
    assert.equal(event?.kv.key, '/registry/configmaps/ns/x');
    assert.equal(event?.revision, updated.modRevision);
    assert.equal(event?.prevKv?.key, '/registry/configmaps/ns/x');
    watcher.stop();

    await assert.rejects(tenantA.create('/other/x', bytes('x')), RangeError);
  });

  it('finds a compaction made through another client', async () => {
    const writer = open('/compact-other');
    const reader = open('/compact-other');
    const first = await writer.create('/registry/k/a', bytes('1'));
    let last = first;
    for (let i = 0; i < 20; i++) last = await writer.update('/registry/k/a', bytes(`${i}`), last.modRevision);
    const compactAt = last.modRevision - 5;
    await writer.compact(compactAt);
    assert.equal(await reader.compactedRevision(), compactAt);
    const error = await rejectionOf(reader.get('/registry/k/a', { revision: compactAt - 1 }), CompactedError);
    assert.equal(error.compactedRevision, compactAt);
    await rejectionOf(reader.watch('/registry/k/', compactAt - 2), CompactedError);
    const watcher = await reader.watch('/registry/k/', compactAt - 1);
    const [event] = await new EventReader(watcher).take(1);
    assert.equal(event?.revision, compactAt);
    watcher.stop();
    await writer.compact(compactAt - 3);
    assert.equal(await writer.compactedRevision(), compactAt, 'compacting backwards changes nothing');
  });

  it('ends a watch that compaction overtakes while it catches up with CompactedError', async () => {
    const backend = open('/overtaken');
    let last = await backend.create('/registry/k/a', bytes('0'));
    // etcd replays history to a new watch in a background pass every 100 ms; a compaction before that pass ends
    // the watch. The pass can come first (the watch then just delivers), so a few attempts are allowed.
    let overtaken: CompactedError | undefined;
    for (let attempt = 0; attempt < 5 && overtaken === undefined; attempt++) {
      const from = last.modRevision;
      for (let i = 0; i < 20; i++) last = await backend.update('/registry/k/a', bytes(`${attempt}-${i}`), last.modRevision);
      const watcher = await backend.watch('/registry/k/', from);
      await backend.compact(last.modRevision);
      try {
        const events = await new EventReader(watcher).take(20);
        assert.equal(events.at(-1)?.revision, last.modRevision);
      } catch (error) {
        overtaken = await rejectionOf(Promise.reject(error), CompactedError);
      } finally {
        watcher.stop();
      }
    }
    assert.ok(overtaken !== undefined, 'etcd replayed before the compaction in every attempt');
    assert.equal(overtaken.compactedRevision, last.modRevision);
    assert.equal(await backend.compactedRevision(), last.modRevision, 'the watch told the backend the compact revision');
  });

  it('stopping one watch leaves the other watches and calls on the same client working', async () => {
    const backend = open();
    const start = await backend.currentRevision();
    const stopped = await backend.watch('/stop/', start);
    const kept = await backend.watch('/stop/', start);
    stopped.stop();
    const written = await backend.create('/stop/a', bytes('a'));
    const [event] = await new EventReader(kept).take(1);
    assert.equal(event?.revision, written.modRevision);
    assert.equal(text((await backend.get('/stop/a')).kv), 'a');
    kept.stop();
  });

  it('lists values beyond gRPC default 4 MiB message size', async () => {
    const backend = open();
    const big = new Uint8Array(1024 * 1024).fill(0x61);
    for (let i = 0; i < 6; i++) await backend.create(`/big/${i}`, big);
    const listed = await backend.list('/big/');
    assert.equal(listed.kvs.length, 6);
    assert.equal(listed.kvs[5]?.value.byteLength, big.byteLength);
  });

  it('fails a watch whose etcd goes away instead of leaving it hanging', async () => {
    const doomed = await startEtcd();
    const backend = createEtcdBackend({ endpoints: [doomed.endpoint] });
    try {
      const watcher = await backend.watch('/w/', await backend.currentRevision());
      const reading = watcher[Symbol.asyncIterator]().next();
      doomed.kill();
      await assert.rejects(reading, /etcd/);
    } finally {
      await backend.close();
      await doomed.stop();
    }
  });

  it('rejects every call after close', async () => {
    const backend = open();
    await backend.close();
    await assert.rejects(backend.get('/a'), /closed/);
    await assert.rejects(backend.create('/a', bytes('a')), /closed/);
    await assert.rejects(backend.watch('/', 1), /closed/);
    await backend.close();
  });
});
