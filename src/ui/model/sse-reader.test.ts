import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readServerSentEvents, type ServerSentEvent } from './sse-reader.js';

function streamOf(chunks: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

describe('reading server-sent events from a fetch body', () => {
  it('splits frames across chunk boundaries, names events, skips comments and joins data lines', async () => {
    const events: ServerSentEvent[] = [];
    const body = streamOf([
      ': connected\n\nevent: reso',
      'urces\ndata: [1]\n',
      '\ndata: {"a":',
      '1}\n\ndata: x\ndata: y\n\nevent: synced\ndata: {}\n\n',
    ]);
    await readServerSentEvents(body, (e) => events.push(e));
    assert.deepEqual(events, [
      { event: 'resources', data: '[1]' },
      { event: 'message', data: '{"a":1}' },
      { event: 'message', data: 'x\ny' },
      { event: 'synced', data: '{}' },
    ]);
  });

  it('finds a frame end split between two chunks, and multi-byte characters split between them', async () => {
    const events: ServerSentEvent[] = [];
    const bytes = new TextEncoder().encode('data: é\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 7));
        controller.enqueue(bytes.slice(7, 9));
        controller.enqueue(bytes.slice(9));
        controller.close();
      },
    });
    await readServerSentEvents(body, (e) => events.push(e));
    assert.deepEqual(events, [{ event: 'message', data: 'é' }]);
  });
});
