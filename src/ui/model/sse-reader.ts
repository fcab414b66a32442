/** One server-sent event: its `event:` name ("message" when absent) and its joined `data:` lines. */
export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * Reads server-sent events from a fetch body. EventSource cannot send an Authorization header, so the page reads
 * the stream with fetch and parses the frames itself (the text/event-stream format: blank-line separated fields).
 */
export async function readServerSentEvents(body: ReadableStream<Uint8Array>, onEvent: (e: ServerSentEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    // The first frame holds the whole cluster (megabytes): look for its end only in what is new, not from the start.
    const from = Math.max(0, buffer.length - 1);
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n', from);
    while (end >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
      if (data.length > 0) onEvent({ event, data: data.join('\n') });
      end = buffer.indexOf('\n\n');
    }
  }
}
