import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';

/**
 * What issue 29's figures need over plain HTTP: a fixed number of requests over keep-alive connections (written and
 * parsed by hand, as bench/load.ts does, so the client costs little CPU beside the server), single JSON requests,
 * and the server process's resident memory.
 */

export interface CountResult {
  readonly ok: number;
  readonly failures: number;
  readonly ms: number;
  /** The first unexpected status line and body, for the report when something failed. */
  readonly firstFailure?: string;
}

/** Sends `count` requests, `concurrency` in flight, each on its own keep-alive connection. */
export async function countLoad(options: {
  readonly url: string;
  readonly count: number;
  readonly concurrency: number;
  readonly method: string;
  readonly path: (i: number) => string;
  readonly body?: (i: number) => string;
  readonly expectStatus: number;
}): Promise<CountResult> {
  const target = new URL(options.url);
  let next = 0;
  let ok = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  const request = (i: number): string => {
    const body = options.body?.(i) ?? '';
    const type = body === '' ? '' : 'Content-Type: application/json\r\n';
    return `${options.method} ${options.path(i)} HTTP/1.1\r\nHost: ${target.host}\r\n${type}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  const connection = (): Promise<void> =>
    new Promise((resolve) => {
      if (next >= options.count) return resolve();
      const socket: Socket = connect(Number(target.port), target.hostname);
      socket.setNoDelay(true);
      let buffer: Buffer = Buffer.alloc(0);
      const sendNext = (): void => {
        if (next >= options.count) {
          socket.end();
          return;
        }
        socket.write(request(next++));
      };
      socket.on('connect', sendNext);
      socket.on('data', (chunk: Buffer) => {
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
        for (;;) {
          const headerEnd = buffer.indexOf('\r\n\r\n');
          if (headerEnd < 0) return;
          const head = buffer.subarray(0, headerEnd).toString('latin1');
          const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? '0');
          if (buffer.length < headerEnd + 4 + length) return;
          const status = Number(head.slice(9, 12));
          if (status === options.expectStatus) ok++;
          else {
            failures++;
            firstFailure ??= `${head.split('\r\n')[0]} ${buffer.subarray(headerEnd + 4, headerEnd + 4 + Math.min(length, 300)).toString()}`;
          }
          buffer = buffer.subarray(headerEnd + 4 + length);
          sendNext();
        }
      });
      socket.on('close', () => resolve());
      socket.on('error', () => {
        failures++;
        resolve();
      });
    });
  await Promise.all(Array.from({ length: options.concurrency }, connection));
  return { ok, failures, ms: performance.now() - started, firstFailure };
}

/** One JSON request; resolves with the status and the parsed body (undefined when it is not JSON). */
export async function jsonRequest(url: string, method: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed };
}

/** Resident set size of a process in MiB, from /proc (Linux); NaN elsewhere. */
export function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

/** Polls `check` every `intervalMs` until it returns true; throws after `timeoutMs`. */
export async function pollUntil(check: () => Promise<boolean>, timeoutMs: number, intervalMs = 20): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`not done after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
