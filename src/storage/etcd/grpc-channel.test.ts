import assert from 'node:assert/strict';
import { createServer, type Http2Server, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { GRPC_PREFIX_BYTES, GrpcChannel, GrpcStatusError } from './grpc-channel.js';
import { ETCD_TRANSPORTS } from './transport.js';

/**
 * The channel's HTTP/2 against an independent implementation: node:http2's server (nghttp2), standing in for etcd
 * where etcd cannot be told to misbehave: tiny flow-control windows, stream limits, resets, GOAWAY, pings,
 * Huffman-coded and indexed headers. The etcd suites (kv-client, backend) cover the real server.
 */

type Handler = (stream: ServerHttp2Stream, body: Buffer) => void;

interface TestServer {
  readonly url: string;
  readonly server: Http2Server;
  handle(path: string, handler: Handler): void;
  close(): Promise<void>;
}

async function startServer(settings: { initialWindowSize?: number; maxConcurrentStreams?: number } = {}): Promise<TestServer> {
  const handlers = new Map<string, Handler>();
  const server = createServer({ settings });
  server.on('stream', (stream, headers) => {
    const path = String(headers[':path']);
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const handler = handlers.get(path);
      if (handler === undefined) {
        stream.respond({ ':status': 404 }, { endStream: true });
        return;
      }
      handler(stream, Buffer.concat(chunks));
    });
    stream.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    handle: (path, handler) => handlers.set(path, handler),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A message as the channel's callers hand it over: GRPC_PREFIX_BYTES free, then the payload. */
const request = (payload: Buffer): Buffer => Buffer.concat([Buffer.alloc(GRPC_PREFIX_BYTES), payload]);

function grpcFrame(payload: Buffer): Buffer {
  const prefix = Buffer.alloc(GRPC_PREFIX_BYTES);
  prefix.writeUInt32BE(payload.byteLength, 1);
  return Buffer.concat([prefix, payload]);
}

/** Answers like a gRPC server: headers, the message, then grpc-status in trailers. */
function reply(stream: ServerHttp2Stream, payload: Buffer): void {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0', 'grpc-message': '' }));
  stream.end(grpcFrame(payload));
}

const echo: Handler = (stream, body) => reply(stream, body.subarray(GRPC_PREFIX_BYTES));

// The contract holds for both HTTP/2 implementations (issue 25): the same cases run on each.
for (const transport of ETCD_TRANSPORTS) {
  describe(`GrpcChannel over HTTP/2 (against node:http2) (${transport})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer();
      server.handle('/test.Echo/Echo', echo);
    });
    after(() => server.close());

    it('sends a unary call and resolves with the single response message', async () => {
      const channel = new GrpcChannel([server.url], { transport });
      try {
        const answer = await channel.unary('/test.Echo/Echo', request(Buffer.from('hello')));
        assert.equal(answer.toString(), 'hello');
      } finally {
        channel.close();
      }
    });

    it('keeps many calls in flight on one connection, each answered with its own message', async () => {
      const channel = new GrpcChannel([server.url], { transport });
      let sessions = 0;
      const count = (): void => {
        sessions++;
      };
      server.server.on('session', count);
      try {
        const answers = await Promise.all(
          Array.from({ length: 200 }, (_, i) => channel.unary('/test.Echo/Echo', request(Buffer.from(`call-${i}`)))),
        );
        assert.deepEqual(
          answers.map((a) => a.toString()),
          Array.from({ length: 200 }, (_, i) => `call-${i}`),
        );
        assert.equal(sessions, 1);
      } finally {
        server.server.off('session', count);
        channel.close();
      }
    });

    it('reports a trailers-only gRPC error with its percent-decoded message', async () => {
      server.handle('/test.Echo/Fail', (stream) => {
        stream.respond(
          {
            ':status': 200,
            'content-type': 'application/grpc',
            'grpc-status': '9',
            'grpc-message': 'etcdserver%3A mvcc%3A required revision has been compacted',
          },
          { endStream: true },
        );
      });
      const channel = new GrpcChannel([server.url], { transport });
      try {
        await assert.rejects(channel.unary('/test.Echo/Fail', request(Buffer.from('x'))), (err: unknown) => {
          assert.ok(err instanceof GrpcStatusError);
          assert.equal(err.code, 9);
          assert.equal(err.message, 'etcdserver: mvcc: required revision has been compacted');
          return true;
        });
        // The connection is still good after an error answer.
        assert.equal((await channel.unary('/test.Echo/Echo', request(Buffer.from('after')))).toString(), 'after');
      } finally {
        channel.close();
      }
    });

    it('decodes header values the server Huffman-codes and indexes, across many responses', async () => {
      const long = 'a status message long enough to be Huffman-coded: etcdserver: request is too large';
      server.handle('/test.Echo/Status', (stream) => {
        stream.respond(
          { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '3', 'grpc-message': long },
          { endStream: true },
        );
      });
      const channel = new GrpcChannel([server.url], { transport });
      try {
        for (let i = 0; i < 3; i++) {
          await assert.rejects(channel.unary('/test.Echo/Status', request(Buffer.alloc(0))), { name: 'GrpcStatusError', message: long });
        }
      } finally {
        channel.close();
      }
    });

    it('fails a call whose HTTP status is not 200, naming the path', async () => {
      const channel = new GrpcChannel([server.url], { transport });
      try {
        await assert.rejects(channel.unary('/test.Echo/Missing', request(Buffer.from('x'))), /\/test\.Echo\/Missing with HTTP status 404/);
      } finally {
        channel.close();
      }
    });

    it('fails a call the server resets, and keeps serving others', async () => {
      server.handle('/test.Echo/Reset', (stream) => stream.close(2));
      const channel = new GrpcChannel([server.url], { transport });
      try {
        await assert.rejects(
          channel.unary('/test.Echo/Reset', request(Buffer.from('x'))),
          /reset the stream of \/test\.Echo\/Reset \(HTTP\/2 error code 2\)/,
        );
        assert.equal((await channel.unary('/test.Echo/Echo', request(Buffer.from('ok')))).toString(), 'ok');
      } finally {
        channel.close();
      }
    });

    it("answers the server's PING and keeps working", async () => {
      const channel = new GrpcChannel([server.url], { transport });
      const pinged = new Promise<number>((resolve, reject) => {
        server.server.once('session', (session) => {
          session.once('remoteSettings', () => {
            session.ping((err, duration) => (err ? reject(err) : resolve(duration)));
          });
        });
      });
      try {
        assert.equal((await channel.unary('/test.Echo/Echo', request(Buffer.from('p')))).toString(), 'p');
        assert.ok((await pinged) >= 0);
        assert.equal((await channel.unary('/test.Echo/Echo', request(Buffer.from('q')))).toString(), 'q');
      } finally {
        channel.close();
      }
    });

    it('streams messages both ways and ends quietly on cancel', async () => {
      server.handle('/test.Echo/Stream', () => {});
      const streams = new Promise<ServerHttp2Stream>((resolve) => {
        server.server.once('stream', (stream) => {
          stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
          resolve(stream);
        });
      });
      const channel = new GrpcChannel([server.url], { transport });
      const received: string[] = [];
      let closed: Error | undefined | 'open' = 'open';
      const stream = channel.stream('/test.Echo/Stream', {
        message: (m) => received.push(m.toString()),
        close: (error) => {
          closed = error;
        },
      });
      try {
        stream.send(request(Buffer.from('create')));
        const peer = await streams;
        const first = await new Promise<Buffer>((resolve) => peer.once('data', resolve));
        assert.equal(first.subarray(GRPC_PREFIX_BYTES).toString(), 'create');
        // Two messages in one write, and one message split across writes.
        peer.write(Buffer.concat([grpcFrame(Buffer.from('one')), grpcFrame(Buffer.from('two'))]));
        const third = grpcFrame(Buffer.from('three'));
        peer.write(third.subarray(0, 3));
        peer.write(third.subarray(3));
        await waitFor(() => received.length === 3);
        assert.deepEqual(received, ['one', 'two', 'three']);
        const peerClosed = new Promise<void>((resolve) => peer.once('close', () => resolve()));
        stream.cancel();
        await peerClosed;
        assert.equal(closed, undefined);
      } finally {
        channel.close();
      }
    });
  });

  describe(`GrpcChannel flow control and limits (${transport})`, () => {
    it("sends a request larger than the server's windows, in frames the windows allow", async () => {
      const server = await startServer({ initialWindowSize: 1024 });
      server.handle('/test.Echo/Size', (stream, body) => reply(stream, Buffer.from(String(body.byteLength - GRPC_PREFIX_BYTES))));
      const channel = new GrpcChannel([server.url], { transport });
      try {
        const sizes = [3 * 1024 * 1024, 70_000, 1];
        const answers = await Promise.all(sizes.map((size) => channel.unary('/test.Echo/Size', request(Buffer.alloc(size, 7)))));
        assert.deepEqual(
          answers.map((a) => Number(a.toString())),
          sizes,
        );
      } finally {
        channel.close();
        await server.close();
      }
    });

    it("receives responses larger than HTTP/2's default windows and the connection stays usable", async () => {
      const server = await startServer();
      const big = Buffer.alloc(40 * 1024 * 1024, 1);
      big[big.byteLength - 1] = 9;
      server.handle('/test.Echo/Big', (stream) => reply(stream, big));
      server.handle('/test.Echo/Echo', echo);
      const channel = new GrpcChannel([server.url], { transport });
      try {
        for (let i = 0; i < 3; i++) {
          const answer = await channel.unary('/test.Echo/Big', request(Buffer.alloc(0)));
          assert.equal(answer.byteLength, big.byteLength);
          assert.equal(answer[answer.byteLength - 1], 9);
        }
        assert.equal((await channel.unary('/test.Echo/Echo', request(Buffer.from('small')))).toString(), 'small');
      } finally {
        channel.close();
        await server.close();
      }
    });

    it("holds calls beyond the server's concurrent-stream limit until others finish", async () => {
      const server = await startServer({ maxConcurrentStreams: 4 });
      let open = 0;
      let peak = 0;
      server.handle('/test.Echo/Slow', (stream, body) => {
        open++;
        peak = Math.max(peak, open);
        setTimeout(() => {
          open--;
          echo(stream, body);
        }, 5);
      });
      const channel = new GrpcChannel([server.url], { transport });
      try {
        // The first call learns the limit from the server's SETTINGS.
        await channel.unary('/test.Echo/Slow', request(Buffer.from('first')));
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) => channel.unary('/test.Echo/Slow', request(Buffer.from(String(i))))),
        );
        assert.deepEqual(
          answers.map((a) => a.toString()),
          Array.from({ length: 40 }, (_, i) => String(i)),
        );
        assert.ok(peak <= 4, `at most 4 streams at once, saw ${peak}`);
      } finally {
        channel.close();
        await server.close();
      }
    });

    it('after GOAWAY opens a new connection for the next calls', async () => {
      const server = await startServer();
      server.handle('/test.Echo/Echo', echo);
      const sessions: import('node:http2').ServerHttp2Session[] = [];
      server.server.on('session', (session) => sessions.push(session));
      const channel = new GrpcChannel([server.url], { transport });
      try {
        assert.equal((await channel.unary('/test.Echo/Echo', request(Buffer.from('a')))).toString(), 'a');
        const first = sessions[0] as import('node:http2').ServerHttp2Session;
        first.goaway(0);
        // A call racing the GOAWAY may still go out on the old connection: the GOAWAY (last stream 0) says it was
        // not processed, and the channel sends it again on a new connection.
        const deadline = Date.now() + 5000;
        while (sessions.length < 2 && Date.now() < deadline) {
          assert.equal((await channel.unary('/test.Echo/Echo', request(Buffer.from('b')))).toString(), 'b');
        }
        assert.equal((await channel.unary('/test.Echo/Echo', request(Buffer.from('c')))).toString(), 'c');
        assert.equal(sessions.length, 2);
      } finally {
        channel.close();
        for (const session of sessions) session.destroy();
        await server.close();
      }
    });

    it('fails calls with the connection error when nothing listens, and moves on to the next endpoint', async () => {
      const server = await startServer();
      server.handle('/test.Echo/Echo', echo);
      const closed = await startServer();
      const deadUrl = closed.url;
      await closed.close();
      const lone = new GrpcChannel([deadUrl], { transport });
      const both = new GrpcChannel([deadUrl, server.url], { transport });
      try {
        await assert.rejects(lone.unary('/test.Echo/Echo', request(Buffer.from('x'))), /ECONNREFUSED/);
        assert.equal((await both.unary('/test.Echo/Echo', request(Buffer.from('y')))).toString(), 'y');
      } finally {
        lone.close();
        both.close();
        await server.close();
      }
    });
  });
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
