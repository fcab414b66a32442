import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EtcdKv } from './kv-client.js';
import type { EtcdKeyValue, RangeRequest, RangeResponse, TxnRequest, TxnResponse } from './kv-messages.js';
import { ReadBatcher } from './read-batcher.js';

interface Call {
  readonly keys: string[];
  readonly answer: (revision: number, values: Record<string, string>) => void;
  readonly fail: (error: Error) => void;
}

/** A KV client whose calls stay pending until the test answers them, to control what is in flight. */
function fakeKv(): { kv: Pick<EtcdKv, 'range' | 'txn'>; calls: Call[] } {
  const calls: Call[] = [];
  const kvOf = (key: string, values: Record<string, string>): EtcdKeyValue[] => {
    const value = values[key];
    if (value === undefined) return [];
    return [{ key: Buffer.from(key), value: Buffer.from(value), createRevision: 2, modRevision: 2, version: 1 }];
  };
  const kv = {
    range(request: RangeRequest): Promise<RangeResponse> {
      return new Promise((resolve, reject) => {
        const key = Buffer.from(request.key).toString();
        calls.push({
          keys: [key],
          answer: (revision, values) => resolve({ revision, kvs: kvOf(key, values), more: false, count: 0 }),
          fail: reject,
        });
      });
    },
    txn(request: TxnRequest): Promise<TxnResponse> {
      return new Promise((resolve, reject) => {
        const keys = (request.success ?? []).map((op) => ('range' in op ? Buffer.from(op.range.key).toString() : '(not a read)'));
        calls.push({
          keys,
          answer: (revision, values) =>
            resolve({
              revision,
              succeeded: true,
              responses: keys.map((key) => ({ range: { revision, kvs: kvOf(key, values), more: false, count: 0 } })),
            }),
          fail: reject,
        });
      });
    },
  };
  return { kv, calls };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('etcd point-read batching', () => {
  it('sends a read at once when none is in flight', async () => {
    const { kv, calls } = fakeKv();
    const read = new ReadBatcher(kv).read(Buffer.from('/a'));
    assert.deepEqual(
      calls.map((call) => call.keys),
      [['/a']],
    );
    calls[0]?.answer(7, { '/a': 'A' });
    const result = await read;
    assert.equal(result.revision, 7);
    assert.equal(result.kv?.value.toString(), 'A');
  });

  it('answers reads made during a round trip from one later read of their distinct keys', async () => {
    const { kv, calls } = fakeKv();
    const batcher = new ReadBatcher(kv);
    const first = batcher.read(Buffer.from('/ns'));
    const waiting = [batcher.read(Buffer.from('/ns')), batcher.read(Buffer.from('/b')), batcher.read(Buffer.from('/ns'))];
    assert.equal(calls.length, 1, 'the later reads wait for the one in flight');

    // A write lands between the first read and the later ones; they must see it.
    calls[0]?.answer(5, { '/ns': 'old' });
    assert.equal((await first).kv?.value.toString(), 'old');
    await tick();
    assert.deepEqual(
      calls.map((call) => call.keys),
      [['/ns'], ['/ns', '/b']],
      'one transaction with each key once',
    );
    calls[1]?.answer(6, { '/ns': 'new' });
    const [ns1, b, ns2] = await Promise.all(waiting);
    assert.equal(ns1?.revision, 6);
    assert.equal(ns1?.kv?.value.toString(), 'new');
    assert.equal(ns2?.kv?.value.toString(), 'new');
    assert.ok(b !== undefined && b.kv === undefined);
  });

  it('fails every read of a failed round trip and carries on with the next', async () => {
    const { kv, calls } = fakeKv();
    const batcher = new ReadBatcher(kv);
    const first = batcher.read(Buffer.from('/a'));
    const second = batcher.read(Buffer.from('/a'));
    calls[0]?.fail(new Error('unavailable'));
    await assert.rejects(first, /unavailable/);
    await tick();
    calls[1]?.fail(new Error('still unavailable'));
    await assert.rejects(second, /still unavailable/);
    const third = batcher.read(Buffer.from('/a'));
    calls[2]?.answer(9, { '/a': 'back' });
    assert.equal((await third).kv?.value.toString(), 'back');
  });

  it('splits a burst of more distinct keys than one etcd transaction may hold', async () => {
    const { kv, calls } = fakeKv();
    const batcher = new ReadBatcher(kv);
    const reads = [batcher.read(Buffer.from('/first'))];
    for (let i = 0; i < 200; i++) reads.push(batcher.read(Buffer.from(`/k${i}`)));
    calls[0]?.answer(2, {});
    await tick();
    assert.equal(calls[1]?.keys.length, 128);
    calls[1]?.answer(2, {});
    await tick();
    await tick();
    assert.equal(calls[2]?.keys.length, 72);
    calls[2]?.answer(2, {});
    assert.equal((await Promise.all(reads)).length, 201);
  });
});
