import { type ApiServer, startApiServer } from '../../src/server/api-server.js';
import type { Backend } from '../../src/storage/backend.js';
import { createMemoryBackend } from '../../src/storage/memory/backend.js';
import { type GcApi, gcApi, type Requester } from './gc-fixtures.js';

/** A server whose garbage collector started on storage that already held objects. */
export interface SeededServer extends Requester {
  readonly url: string;
  readonly server: ApiServer;
  stop(): Promise<void>;
}

function requester(url: string): Requester['request'] {
  return async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(`${url}${path}`, init);
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, json, text };
  };
}

/**
 * Writes objects through a server without a garbage collector, then starts a second server with one on the same
 * storage. The collector's monitors then learn everything from their initial lists, which come back in key order
 * (namespace, then name), and no worker runs before all monitors have synced (R4.8) — so the order in which the
 * graph observes owners and dependents is fixed by their names, not by timing.
 */
export async function startSeededServer<T>(seed: (gc: GcApi) => Promise<T>): Promise<{ server: SeededServer; seeded: T }> {
  const backend = createMemoryBackend();
  // The seeding server closes its backend on stop; the storage must outlive it.
  const keepOpen: Backend = new Proxy(backend, {
    get: (target, prop, receiver) => (prop === 'close' ? async () => {} : Reflect.get(target, prop, receiver)),
  });
  const seeder = await startApiServer({ backend: keepOpen, port: 0, controllers: { garbageCollector: false } });
  let seeded: T;
  try {
    seeded = await seed(gcApi({ request: requester(seeder.url) }));
  } finally {
    await seeder.close();
  }
  const server = await startApiServer({ backend, port: 0, bookmarkIntervalMs: 200 });
  return { server: { url: server.url, server, request: requester(server.url), stop: () => server.close() }, seeded };
}
