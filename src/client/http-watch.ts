import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { StatusError } from '../api/errors.js';
import type { KubeObject, Status } from '../api/types.js';
import type { ObjectEvent, ObjectEventType } from '../api/types.js';
import type { WatchStream } from './interface.js';
import type { OpenResponse } from './http-transport.js';

const EVENT_TYPES: readonly string[] = ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR'];

/** The ERROR event client-go's stream watcher reports when a line is not a watch event, after which it stops. */
function decodingError(detail: string): ObjectEvent {
  const message = `unable to decode an event from the watch stream: ${detail}`;
  const status = new StatusError(
    500,
    'InternalError',
    `an error on the server (${JSON.stringify(message)}) has prevented the request from succeeding`,
    {
      causes: [
        { reason: 'UnexpectedServerResponse', message },
        { reason: 'ClientWatchDecoding', message },
      ],
    },
  );
  return { type: 'ERROR', object: status.toStatus() };
}

/** The event a line holds, or the reason it holds none. */
function decodeLine(line: string): ObjectEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  const event = value as { type?: unknown; object?: unknown };
  if (typeof value !== 'object' || value === null || typeof event.type !== 'string' || !EVENT_TYPES.includes(event.type)) {
    return `unexpected watch event ${JSON.stringify(line.slice(0, 200))}`;
  }
  if (typeof event.object !== 'object' || event.object === null) return `watch event ${event.type} carries no object`;
  return { type: event.type as ObjectEventType, object: event.object as KubeObject | Status };
}

/**
 * Splits a watch response into events. The server sends one JSON document per line, but TCP chunks fall
 * anywhere — inside a line or a multi-byte character — so text is decoded incrementally and only complete lines
 * are parsed. A connection that drops simply ends the stream, as client-go's watcher does.
 */
async function* readEvents(message: IncomingMessage, isStopped: () => boolean): AsyncGenerator<ObjectEvent> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  try {
    for await (const chunk of message) {
      pending += decoder.write(chunk as Buffer);
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (line.trim() !== '') {
          const event = decodeLine(line);
          if (typeof event === 'string') {
            yield decodingError(event);
            return;
          }
          yield event;
        }
        newline = pending.indexOf('\n');
      }
    }
  } catch (err) {
    if (isStopped()) return;
    // A reset or aborted connection ends the watch; the caller re-watches from its last resourceVersion.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ECONNRESET' || (err instanceof Error && err.message === 'aborted')) return;
    throw err;
  }
  pending += decoder.end();
  if (pending.trim() !== '') {
    const event = decodeLine(pending);
    yield typeof event === 'string' ? decodingError(event) : event;
  }
}

/** A WatchStream over an open watch response; stop() aborts the request and ends iteration. */
export function httpWatchStream(opened: OpenResponse): WatchStream {
  let stopped = false;
  const events = readEvents(opened.message, () => stopped);
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      opened.abort();
    },
    [Symbol.asyncIterator]() {
      return {
        next: () => (stopped ? Promise.resolve({ done: true, value: undefined }) : events.next()),
        return: async () => {
          stopped = true;
          opened.abort();
          await events.return(undefined);
          return { done: true, value: undefined };
        },
      };
    },
  };
}
