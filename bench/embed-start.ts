import { performance } from 'node:perf_hooks';
import { startTestServer } from '../src/embed/index.js';
import { startApiServer } from '../src/server/api-server.js';
import { createMemoryBackend } from '../src/storage/memory/backend.js';
import { median } from './stats.js';

/**
 * How long an embedder waits for `startTestServer()` (memory storage, plain HTTP, controllers running) to be ready,
 * next to the bare API server without controllers or bootstrap, started the same way in the same process (goal: the
 * test server ready in < 100 ms, median of 20 after one warm-up start).
 */
const STARTS = 20;
const GOAL_MS = 100;

async function medianStart(start: () => Promise<{ stop(): Promise<void> } | { close(): Promise<void> }>): Promise<number> {
  const stop = async (server: { stop(): Promise<void> } | { close(): Promise<void> }): Promise<void> => {
    if ('stop' in server) await server.stop();
    else await server.close();
  };
  await stop(await start());
  const durations: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const started = performance.now();
    const server = await start();
    durations.push(performance.now() - started);
    await stop(server);
  }
  return median(durations);
}

export async function benchEmbeddedStart(): Promise<string[][]> {
  const embedded = await medianStart(() => startTestServer());
  const bare = await medianStart(() => startApiServer({ backend: createMemoryBackend(), port: 0 }));
  return [
    [
      `startTestServer() → ready, in-process, memory (median of ${STARTS}; goal < ${GOAL_MS} ms: ${embedded < GOAL_MS ? 'PASS' : 'FAIL'})`,
      `${embedded.toFixed(1)} ms`,
      `${bare.toFixed(1)} ms (startApiServer alone: no controllers, no bootstrap)`,
      `${(embedded / bare).toFixed(2)}×`,
    ],
  ];
}
