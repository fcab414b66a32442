import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HpackDecoder } from './hpack-decoder.js';
import { encodeRequestHeaders } from './request-headers.js';

describe('encodeRequestHeaders', () => {
  it('encodes the gRPC request fields, in the order HTTP/2 wants pseudo-headers first', () => {
    const decoder = new HpackDecoder();
    const fields = decoder.decode(encodeRequestHeaders('http', '127.0.0.1:2379', '/etcdserverpb.KV/Txn'));
    assert.deepEqual(fields, [
      [':method', 'POST'],
      [':scheme', 'http'],
      [':path', '/etcdserverpb.KV/Txn'],
      [':authority', '127.0.0.1:2379'],
      ['content-type', 'application/grpc'],
      ['te', 'trailers'],
      ['hasleader', 'true'],
    ]);
  });

  it("leaves the peer's dynamic table empty, so one block serves every request on the connection", () => {
    const decoder = new HpackDecoder();
    const block = encodeRequestHeaders('https', 'etcd.example:2379', `/${'p'.repeat(300)}`);
    const first = decoder.decode(block);
    assert.deepEqual(first[1], [':scheme', 'https']);
    assert.equal(first[2]?.[1].length, 301);
    // Index 62 is the first dynamic entry: there is none.
    assert.throws(() => decoder.decode(Uint8Array.of(0x80 | 62)), /62/);
  });
});
