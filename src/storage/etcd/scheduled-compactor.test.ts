import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Etcd3 } from 'etcd3';
import { type EtcdServer, etcdUnavailableReason, startEtcd } from '../../../test/support/etcd-server.js';
import type { Backend } from '../backend.js';
import { CompactedError } from '../errors.js';
import { bytes, rejectionOf } from '../testing/case-helpers.js';
import { createEtcdBackend } from './backend.js';
import { connectEtcd } from '../../../test/support/etcd3-client.js';
import { GrpcChannel } from './grpc-channel.js';
import { type EtcdKv, EtcdKvClient } from './kv-client.js';
import { COMPACT_REV_KEY, ScheduledCompactor } from './scheduled-compactor.js';

const unavailable = etcdUnavailableReason();

interface Recorded {
  readonly compactor: ScheduledCompactor;
  /** The revisions this compactor compacted etcd to. */
  readonly compactions: number[];
}

/** The compactor sends its transactions as the backend does; the checks read etcd through the etcd3 library. */
function compactorOn(kv: EtcdKv, etcd: Etcd3): Recorded {
  const compactions: number[] = [];
  const compactor = new ScheduledCompactor({
    intervalMs: 60_000,
    txn: (request) => kv.txn(request),
    compact: async (revision) => {
      compactions.push(revision);
      await etcd.kv.compact({ revision });
    },
    onError: (error) => assert.fail(`unexpected compaction error: ${String(error)}`),
  });
  return { compactor, compactions };
}

async function compactRevKey(etcd: Etcd3): Promise<{ version: number; value: string } | undefined> {
  const kv = (await etcd.kv.range({ key: Buffer.from(COMPACT_REV_KEY) })).kvs[0];
  return kv === undefined ? undefined : { version: Number(kv.version), value: kv.value.toString() };
}

async function currentRevision(etcd: Etcd3): Promise<number> {
  return Number((await etcd.kv.range({ key: Buffer.from('/'), count_only: true })).header.revision);
}

async function isReadable(etcd: Etcd3, revision: number): Promise<boolean> {
  try {
    await etcd.kv.range({ key: Buffer.from('/'), revision, count_only: true });
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('scheduled etcd compaction (kube-apiserver --etcd-compaction-interval)', { skip: unavailable ?? false }, () => {
  let server: EtcdServer;
  let etcd: Etcd3;
  let channel: GrpcChannel;
  let kv: EtcdKv;
  const opened: Backend[] = [];

  before(async () => {
    server = await startEtcd();
    etcd = await connectEtcd([server.endpoint]);
    channel = new GrpcChannel([server.endpoint]);
    kv = new EtcdKvClient(channel);
  });
  after(async () => {
    for (const backend of opened) await backend.close();
    etcd.close();
    channel.close();
    await server.stop();
  });

  it('compacts each round to the revision etcd had at the previous round, and not at the first', async () => {
    await etcd.kv.deleteRange({ key: Buffer.from(COMPACT_REV_KEY) });
    const { compactor, compactions } = compactorOn(kv, etcd);
    await etcd.put('/rounds/a').value('1');
    assert.equal(await compactor.round(), undefined, 'the first round has nothing to compact to');
    const firstRound = await currentRevision(etcd);
    assert.deepEqual(await compactRevKey(etcd), { version: 1, value: '0' });

    for (let i = 0; i < 5; i++) await etcd.put('/rounds/a').value(String(i));
    assert.equal(await compactor.round(), firstRound);
    assert.deepEqual(compactions, [firstRound]);
    assert.ok(!(await isReadable(etcd, firstRound - 1)), 'history before the previous round is gone');
    assert.ok(await isReadable(etcd, firstRound), 'the previous round itself stays readable');
    assert.deepEqual(await compactRevKey(etcd), { version: 2, value: String(firstRound) }, 'the key records what was compacted');
  });

  it('lets one of several servers on one etcd compact per round, and another take over when it stops', async () => {
    await etcd.kv.deleteRange({ key: Buffer.from(COMPACT_REV_KEY) });
    const a = compactorOn(kv, etcd);
    const b = compactorOn(kv, etcd);
    for (let round = 1; round <= 3; round++) {
      await etcd.put('/turns/a').value(String(round));
      await a.compactor.round();
      await b.compactor.round();
      assert.equal((await compactRevKey(etcd))?.version, round, 'one winner per round');
    }
    assert.equal(a.compactions.length, 2, 'the winner compacts every round after its first');
    assert.deepEqual(b.compactions, [], 'the loser never compacts');

    // a stops: b's next round finds the version it learned still current, wins, and compacts at once to the
    // revision it saw in the round it lost.
    const seenByB = await currentRevision(etcd);
    await etcd.put('/turns/a').value('after');
    assert.equal(await b.compactor.round(), seenByB);
    assert.deepEqual(b.compactions, [seenByB]);
  });

  it('runs on a timer in the backend: two backends on one etcd compact once per interval', async () => {
    await etcd.kv.deleteRange({ key: Buffer.from(COMPACT_REV_KEY) });
    const intervalMs = 200;
    const first = createEtcdBackend({ endpoints: [server.endpoint], prefix: '/timer-a', compactIntervalMs: intervalMs });
    const second = createEtcdBackend({ endpoints: [server.endpoint], prefix: '/timer-b', compactIntervalMs: intervalMs });
    opened.push(first, second);
    const started = Date.now();
    const old = await first.create('/registry/configmaps/ns/a', bytes('1'));
    await second.create('/registry/configmaps/ns/b', bytes('1'));
    let current = old;
    // Writes go on through the rounds, as on a live cluster.
    while (Date.now() - started < 6 * intervalMs) {
      current = await first.update('/registry/configmaps/ns/a', bytes(String(Date.now())), current.modRevision);
      await sleep(20);
    }
    const version = (await compactRevKey(etcd))?.version ?? 0;
    const intervals = (Date.now() - started) / intervalMs;
    assert.ok(version >= 3, `rounds happened (compact_rev_key version ${version})`);
    assert.ok(
      version <= Math.ceil(intervals) + 1,
      `at most one round per interval: version ${version} after ${intervals.toFixed(1)} intervals`,
    );

    const compacted = await second.compactedRevision();
    assert.ok(compacted > old.modRevision, `compacted to ${compacted}, past ${old.modRevision}`);
    assert.ok(compacted < current.modRevision, 'the last interval stays readable');
    const error = await rejectionOf(second.list('/registry/configmaps/', { revision: old.modRevision }), CompactedError);
    // A later round may have compacted further in between.
    assert.ok(error.compactedRevision >= compacted, `the error names compaction at ${error.compactedRevision}, at least ${compacted}`);
    await first.close();
    await second.close();
  });

  it('does not compact when the interval is 0', async () => {
    await etcd.kv.deleteRange({ key: Buffer.from(COMPACT_REV_KEY) });
    const backend = createEtcdBackend({ endpoints: [server.endpoint], prefix: '/off', compactIntervalMs: 0 });
    opened.push(backend);
    await backend.create('/registry/k/a', bytes('1'));
    await sleep(300);
    assert.equal(await compactRevKey(etcd), undefined);
    assert.throws(() => createEtcdBackend({ endpoints: [server.endpoint], compactIntervalMs: -1 }), RangeError);
  });
});
