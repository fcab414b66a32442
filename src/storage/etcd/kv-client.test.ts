import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Etcd3 } from 'etcd3';
import { type EtcdServer, etcdUnavailableReason, startEtcd } from '../../../test/support/etcd-server.js';
import { connectEtcd } from '../../../test/support/etcd3-client.js';
import { GrpcChannel, GrpcStatusError } from './grpc-channel.js';
import { EtcdKvClient } from './kv-client.js';
import { isFutureRevision } from './revision-errors.js';
import { ETCD_TRANSPORTS } from './transport.js';

const unavailable = etcdUnavailableReason();

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Cascade's own etcd client, checked against etcd itself and against the etcd3 library: what one writes the
 * other reads back, so the hand-written messages mean to etcd what etcd's rpc.proto says. Over both HTTP/2
 * implementations.
 */
for (const transport of ETCD_TRANSPORTS) {
  describe(`etcd KV client (${transport})`, { skip: unavailable ?? false }, () => {
    let etcd: EtcdServer;
    let reference: Etcd3;
    let channel: GrpcChannel;
    let kv: EtcdKvClient;

    before(async () => {
      etcd = await startEtcd();
      reference = await connectEtcd([etcd.endpoint]);
      channel = new GrpcChannel([etcd.endpoint], { transport });
      kv = new EtcdKvClient(channel);
    });
    after(async () => {
      channel.close();
      reference.close();
      await etcd.stop();
    });

    it('creates with a guard, answers a lost guard with the failure branch, and writes what etcd3 reads', async () => {
      const key = Buffer.from('/kv/guarded');
      const created = await kv.txn({
        compare: [{ key, target: 'create', equals: 0 }],
        success: [{ put: { key, value: Buffer.from('one') } }],
      });
      assert.equal(created.succeeded, true);
      const stored = (await reference.kv.range({ key })).kvs[0];
      assert.equal(stored?.value.toString(), 'one');
      assert.equal(Number(stored?.mod_revision), created.revision);

      const again = await kv.txn({
        compare: [{ key, target: 'create', equals: 0 }],
        success: [{ put: { key, value: Buffer.from('two') } }],
        failure: [{ range: { key } }],
      });
      assert.equal(again.succeeded, false);
      assert.equal(again.revision, created.revision, 'a failed guard writes nothing');
      const current = again.responses[0]?.range?.kvs[0];
      assert.deepEqual(
        {
          value: current?.value.toString(),
          createRevision: current?.createRevision,
          modRevision: current?.modRevision,
          version: current?.version,
        },
        { value: 'one', createRevision: created.revision, modRevision: created.revision, version: 1 },
      );

      const updated = await kv.txn({
        compare: [{ key, target: 'mod', equals: created.revision }],
        success: [{ put: { key, value: Buffer.from('three'), prevKv: true } }],
      });
      assert.equal(updated.succeeded, true);
      assert.equal(updated.responses[0]?.put?.prevKv?.value.toString(), 'one');
      const versioned = await kv.txn({ compare: [{ key, target: 'version', equals: 2 }], success: [{ range: { key } }] });
      assert.equal(versioned.succeeded, true, 'the version guard sees the second write');
    });

    it('reads ranges written by etcd3 with limit, count and history, and deletes with previous values', async () => {
      for (const name of ['a', 'b', 'c']) await reference.put(`/list/${name}`).value(`value-${name}`);
      const firstRevision = Number((await reference.kv.range({ key: Buffer.from('/list/a') })).kvs[0]?.mod_revision);
      await reference.put('/list/a').value('changed');

      const page = await kv.range({ key: Buffer.from('/list/'), rangeEnd: Buffer.from('/list0'), limit: 2 });
      assert.deepEqual(
        page.kvs.map((found) => [found.key.toString(), found.value.toString()]),
        [
          ['/list/a', 'changed'],
          ['/list/b', 'value-b'],
        ],
      );
      assert.equal(page.more, true);
      assert.equal(page.count, 3);
      const old = await kv.range({ key: Buffer.from('/list/a'), revision: firstRevision });
      assert.equal(old.kvs[0]?.value.toString(), 'value-a');
      const counted = await kv.range({ key: Buffer.from('/list/'), rangeEnd: Buffer.from('/list0'), countOnly: true });
      assert.deepEqual([counted.count, counted.kvs.length], [3, 0]);

      const deleted = await kv.deleteRange({ key: Buffer.from('/list/b'), prevKv: true });
      assert.equal(deleted.deleted, 1);
      assert.equal(deleted.prevKvs[0]?.value.toString(), 'value-b');
      assert.equal((await reference.kv.range({ key: Buffer.from('/list/b') })).kvs.length, 0);
    });

    it('carries values and answers larger than one HTTP/2 frame and window', async () => {
      const big = Buffer.alloc(1024 * 1024, 'z');
      await kv.txn({ success: [{ put: { key: Buffer.from('/big/one'), value: big } }] });
      for (let i = 0; i < 4; i++) await reference.put(`/big/${i}`).value(big);
      const all = await kv.range({ key: Buffer.from('/big/'), rangeEnd: Buffer.from('/big0') });
      assert.equal(all.kvs.length, 5);
      assert.ok(all.kvs.every((found) => found.value.equals(big)));
    });

    it("reports etcd's errors with etcd's message and code", async () => {
      const latest = (await kv.range({ key: Buffer.from('/'), countOnly: true })).revision;
      const error = await kv.range({ key: Buffer.from('/'), revision: latest + 100 }).then(
        () => assert.fail('a future revision was read'),
        (rejection: unknown) => rejection,
      );
      assert.ok(error instanceof GrpcStatusError);
      assert.equal(error.code, 11, 'OUT_OF_RANGE');
      assert.ok(isFutureRevision(error), error.message);
    });

    it('moves on to the next endpoint when one cannot be reached, and reconnects after etcd restarts', async () => {
      const failover = new GrpcChannel([`http://127.0.0.1:${await closedPort()}`, etcd.endpoint], { transport });
      try {
        const viaSecond = await new EtcdKvClient(failover).range({ key: Buffer.from('/'), countOnly: true });
        assert.ok(viaSecond.revision > 0);
      } finally {
        failover.close();
      }

      const restarting = await startEtcd();
      const own = new GrpcChannel([restarting.endpoint], { transport });
      const client = new EtcdKvClient(own);
      let restarted: EtcdServer | undefined;
      try {
        await client.txn({ success: [{ put: { key: Buffer.from('/kept'), value: Buffer.from('yes') } }] });
        restarting.kill();
        await restarting.stop();
        await assert.rejects(client.range({ key: Buffer.from('/kept') }), 'a call fails while etcd is down');
        restarted = await startEtcd({ ports: { client: restarting.clientPort, peer: restarting.peerPort } });
        const back = await client.range({ key: Buffer.from('/kept') });
        assert.equal(back.kvs.length, 0, 'a fresh etcd on the same port, reached through a new connection');
      } finally {
        own.close();
        await restarted?.stop();
      }
    });

    it('refuses calls once closed', async () => {
      const closed = new GrpcChannel([etcd.endpoint], { transport });
      closed.close();
      await assert.rejects(new EtcdKvClient(closed).range({ key: Buffer.from('/') }), /closed/);
    });
  });
}
