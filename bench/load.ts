import { Agent, request } from 'node:http';

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly failures: number;
}

/**
 * Sends POSTs over `concurrency` keep-alive connections for `durationMs`; each body comes from `body(i)`, so
 * every create has a unique name. Counts only the expected status as success.
 */
export async function postLoad(options: {
  url: string;
  path: string;
  concurrency: number;
  durationMs: number;
  expectStatus: number;
  body: (i: number) => string;
}): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const target = new URL(options.path, options.url);
  let next = 0;
  let ok = 0;
  let failures = 0;
  const deadline = performance.now() + options.durationMs;
  const started = performance.now();
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const payload = options.body(next++);
      const req = request(
        target,
        { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === options.expectStatus) ok++;
            else failures++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        failures++;
        resolve();
      });
      req.end(payload);
    });
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) await one();
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { requests: ok, seconds, perSecond: ok / seconds, failures };
}
