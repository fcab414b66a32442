import assert from 'node:assert/strict';
import { createServer as createHttp2Server, type ServerHttp2Stream } from 'node:http2';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { EtcdDeadlineError, GRPC_PREFIX_BYTES, GrpcChannel } from './grpc-channel.js';
import { CLIENT_PREFACE, FrameType, settingsFrame } from './http2/frames.js';
import { ETCD_TRANSPORTS } from './transport.js';

/**
 * Members that stop answering, as a frozen (SIGSTOPped) etcd does: its kernel still accepts connections and
 * takes bytes, and nothing comes back. The channel must leave such a member within its dial timeout or keepalive
 * timeout, send elsewhere only what the member cannot have applied, and end every call by its deadline.
 */

interface SilentMember {
  readonly url: string;
  /** Frame types received on each connection after the client preface. */
  readonly frameTypes: number[];
  close(): Promise<void>;
}

/** Accepts connections and reads everything; sends its SETTINGS first when `handshake`, then nothing ever. */
async function startSilentMember(handshake: boolean): Promise<SilentMember> {
  const frameTypes: number[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    if (handshake) socket.write(settingsFrame([]));
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      let at = CLIENT_PREFACE.byteLength;
      frameTypes.length = 0;
      while (received.byteLength >= at + 9) {
        frameTypes.push(received[at + 3] as number);
        at += 9 + received.readUIntBE(at, 3);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    frameTypes,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A member that answers every call with its request's payload. */
async function startEchoMember(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createHttp2Server();
  server.on('stream', (stream: ServerHttp2Stream) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(Buffer.concat(chunks));
    });
    stream.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const request = (text: string): Buffer => Buffer.concat([Buffer.alloc(GRPC_PREFIX_BYTES), Buffer.from(text)]);

// The same cases for both HTTP/2 implementations.
for (const transport of ETCD_TRANSPORTS) {
  describe(`GrpcChannel with members that stop answering (issue 25, ${transport})`, () => {
    it('sends nothing to a member that never opens its session, and moves even a write to the next within the dial timeout', async () => {
      const silent = await startSilentMember(false);
      const echo = await startEchoMember();
      const channel = new GrpcChannel([silent.url, echo.url], { dialTimeoutMs: 200, transport });
      try {
        const started = Date.now();
        assert.equal((await channel.unary('/etcdserverpb.KV/Txn', request('write'))).toString(), 'write');
        assert.ok(Date.now() - started < 2_000, `failed over after ${Date.now() - started} ms`);
        assert.ok(!silent.frameTypes.includes(FrameType.HEADERS), `the silent member got frames ${silent.frameTypes.join(',')}`);
      } finally {
        channel.close();
        await Promise.all([silent.close(), echo.close()]);
      }
    });

    it('leaves a member that stops answering PINGs: a read goes to the next member, a write fails as it may have been applied', async () => {
      const silent = await startSilentMember(true);
      const echo = await startEchoMember();
      const options = { keepaliveTimeMs: 100, keepaliveTimeoutMs: 100 };
      const reads = new GrpcChannel([silent.url, echo.url], { ...options, transport });
      const writes = new GrpcChannel([silent.url, echo.url], { ...options, transport });
      try {
        const started = Date.now();
        assert.equal((await reads.unary('/etcdserverpb.KV/Range', request('read'), true)).toString(), 'read');
        assert.ok(Date.now() - started < 2_000, `failed over after ${Date.now() - started} ms`);
        await assert.rejects(writes.unary('/etcdserverpb.KV/Txn', request('write')), /no answer to an HTTP\/2 PING within 100 ms/);
        // The failed member is left: the next write goes to the other one.
        assert.equal((await writes.unary('/etcdserverpb.KV/Txn', request('again'))).toString(), 'again');
      } finally {
        reads.close();
        writes.close();
        await Promise.all([silent.close(), echo.close()]);
      }
    });

    it('ends a call at its deadline when no member answers', async () => {
      const silent = await startSilentMember(true);
      const channel = new GrpcChannel([silent.url], { callTimeoutMs: 300, keepaliveTimeMs: 60_000, transport });
      try {
        const started = Date.now();
        await assert.rejects(channel.unary('/etcdserverpb.KV/Range', request('read'), true), (error: unknown) => {
          assert.ok(error instanceof EtcdDeadlineError);
          assert.equal(error.code, 4);
          return true;
        });
        const took = Date.now() - started;
        assert.ok(took >= 290 && took < 1_500, `the call ended after ${took} ms`);
      } finally {
        channel.close();
        await silent.close();
      }
    });
  });
}
