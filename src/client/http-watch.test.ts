import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { test } from 'node:test';
import type { KubeObject, Status } from '../api/types.js';
import type { ObjectEvent } from '../api/types.js';
import { createHttpClient } from './http-client.js';
import type { ResourceRef } from './interface.js';
import { startStubServer } from './testing/stub-server.js';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps' };

function event(type: string, name: string, data: Record<string, string> = {}): string {
  return `${JSON.stringify({ type, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data } })}\n`;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes each piece as its own chunk, flushed separately, so the client sees exactly these boundaries. */
async function writeChunks(res: ServerResponse, pieces: readonly (string | Buffer)[]): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  for (const piece of pieces) {
    res.write(piece);
    await pause(5);
  }
}

async function collect(watch: AsyncIterable<ObjectEvent>): Promise<ObjectEvent[]> {
  const events: ObjectEvent[] = [];
  for await (const e of watch) events.push(e);
  return events;
}

function summary(events: readonly ObjectEvent[]): [string, string | undefined, unknown][] {
  return events.map((e) => [e.type, (e.object as KubeObject).metadata?.name, (e.object as KubeObject).data]);
}

test('events split across chunks — mid-line, mid-character, several per chunk — arrive whole and in order', async () => {
  const first = event('ADDED', 'a', { greeting: 'grüße ✓' });
  const second = event('MODIFIED', 'a', { greeting: 'done' });
  const third = event('DELETED', 'a');
  const bytes = Buffer.from(first + second + third, 'utf8');
  const umlaut = bytes.indexOf(Buffer.from('ü', 'utf8'));
  const firstEnd = Buffer.byteLength(first);
  const pieces = [
    bytes.subarray(0, 7),
    bytes.subarray(7, umlaut + 1), // ends inside the two-byte "ü"
    bytes.subarray(umlaut + 1, firstEnd - 1), // the first line without its newline
    bytes.subarray(firstEnd - 1, firstEnd + 3), // newline plus the start of the next line
    bytes.subarray(firstEnd + 3), // the rest of the second line and the whole third in one chunk
  ];
  const stub = await startStubServer(async (_req, res) => {
    await writeChunks(res, pieces);
    res.end();
  });
  const client = createHttpClient({ server: stub.url });
  try {
    const watch = await client.watch(CONFIGMAPS, undefined, { resourceVersion: '5', allowWatchBookmarks: true });
    assert.deepEqual(summary(await collect(watch)), [
      ['ADDED', 'a', { greeting: 'grüße ✓' }],
      ['MODIFIED', 'a', { greeting: 'done' }],
      ['DELETED', 'a', {}],
    ]);
    assert.deepEqual(stub.requests, ['GET /api/v1/configmaps?resourceVersion=5&watch=true&allowWatchBookmarks=true']);
  } finally {
    client.close();
    await stub.close();
  }
});

test('a last event without a trailing newline is still delivered when the stream ends', async () => {
  const stub = await startStubServer(async (_req, res) => {
    await writeChunks(res, [event('ADDED', 'x').trimEnd()]);
    res.end();
  });
  const client = createHttpClient({ server: stub.url });
  try {
    const watch = await client.watch(CONFIGMAPS, undefined);
    assert.deepEqual(summary(await collect(watch)), [['ADDED', 'x', {}]]);
  } finally {
    client.close();
    await stub.close();
  }
});

test('stop() aborts an open watch: iteration ends and the server sees the connection close', async () => {
  let closed!: () => void;
  const serverSawClose = new Promise<void>((resolve) => {
    closed = resolve;
  });
  const stub = await startStubServer(async (req, res) => {
    req.on('close', () => closed());
    await writeChunks(res, [event('ADDED', 'one')]);
    // Never ends on its own.
  });
  const client = createHttpClient({ server: stub.url });
  try {
    const watch = await client.watch(CONFIGMAPS, undefined);
    const events: ObjectEvent[] = [];
    for await (const e of watch) {
      events.push(e);
      watch.stop();
    }
    assert.deepEqual(summary(events), [['ADDED', 'one', {}]]);
    await serverSawClose;
  } finally {
    client.close();
    await stub.close();
  }
});

test('breaking out of for-await also aborts the request', async () => {
  let closed!: () => void;
  const serverSawClose = new Promise<void>((resolve) => {
    closed = resolve;
  });
  const stub = await startStubServer(async (req, res) => {
    req.on('close', () => closed());
    await writeChunks(res, [event('ADDED', 'one'), event('ADDED', 'two')]);
  });
  const client = createHttpClient({ server: stub.url });
  try {
    const watch = await client.watch(CONFIGMAPS, undefined);
    for await (const e of watch) {
      assert.equal(e.type, 'ADDED');
      break;
    }
    await serverSawClose;
  } finally {
    client.close();
    await stub.close();
  }
});

test('a connection dropped by the server ends the stream without an error', async () => {
  const stub = await startStubServer(async (req, res) => {
    await writeChunks(res, [event('ADDED', 'one'), '{"type":"MODI']);
    req.socket.destroy();
  });
  const client = createHttpClient({ server: stub.url });
  try {
    const watch = await client.watch(CONFIGMAPS, undefined);
    assert.deepEqual(summary(await collect(watch)), [['ADDED', 'one', {}]]);
  } finally {
    client.close();
    await stub.close();
  }
});

test('a line that is not a watch event becomes one InternalError ERROR event and ends the stream, as in client-go', async () => {
  const stub = await startStubServer(async (_req, res) => {
    await writeChunks(res, [event('ADDED', 'one'), 'this is not json\n', event('ADDED', 'never')]);
    res.end();
  });
  const client = createHttpClient({ server: stub.url });
  try {
    const events = await collect(await client.watch(CONFIGMAPS, undefined));
    assert.equal(events.length, 2);
    const error = events[1] as ObjectEvent;
    assert.equal(error.type, 'ERROR');
    const status = error.object as Status;
    assert.equal(status.code, 500);
    assert.equal(status.reason, 'InternalError');
    assert.match(status.message ?? '', /unable to decode an event from the watch stream/);
  } finally {
    client.close();
    await stub.close();
  }
});

test('a watch the server refuses rejects with its StatusError', async () => {
  const stub = await startStubServer((_req, res) => {
    res.writeHead(410, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'too old resource version: 1 (5)',
        reason: 'Expired',
        code: 410,
      }),
    );
  });
  const client = createHttpClient({ server: stub.url });
  try {
    await assert.rejects(client.watch(CONFIGMAPS, undefined, { resourceVersion: '1' }), {
      name: 'StatusError',
      code: 410,
      reason: 'Expired',
      message: 'too old resource version: 1 (5)',
    });
  } finally {
    client.close();
    await stub.close();
  }
});
