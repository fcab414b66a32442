import assert from 'node:assert/strict';
import { startWatch as openEventStream } from './gc-fixtures.js';
import { startTestServer, type TestServer, WITHOUT_WORKLOAD_CONTROLLERS } from './test-server.js';

/** Objects, answers and helpers shared by the deletion-over-HTTP suites (test/e2e/deletion-http-*.test.ts). */

export const NS = 'deletion';
export const CMS = `/api/v1/namespaces/${NS}/configmaps`;
export const PODS = `/api/v1/namespaces/${NS}/pods`;
export const DEPLOYS = `/apis/apps/v1/namespaces/${NS}/deployments`;
export const JOBS = `/apis/batch/v1/namespaces/${NS}/jobs`;
export const USER_FINALIZER = 'example.com/x';
export const MERGE = { 'Content-Type': 'application/merge-patch+json' };
export const JOB_WARNING =
  '299 - "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning"';

export type Json = Record<string, any>;
export interface Response {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

export function configMap(name: string, meta: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, data: { k: 'v' } };
}

export function pod(name: string, meta: Json = {}, nodeName?: string): Json {
  const spec: Json = { containers: [{ name: 'c', image: 'nginx' }] };
  if (nodeName !== undefined) spec.nodeName = nodeName;
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...meta }, spec };
}

export function deployment(name: string): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

export function job(name: string): Json {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
  };
}

/** The common shape of a failure Status (R9.1); returns it for further checks. */
export function assertFailure(res: Response, code: number, reason: string): any {
  assert.equal(res.status, code, res.text);
  assert.equal(res.json?.kind, 'Status', res.text);
  assert.equal(res.json.status, 'Failure');
  assert.equal(res.json.reason, reason);
  assert.equal(res.json.code, code);
  return res.json;
}

/** R2.25: the Success Status of a removal, which names the plural resource and carries the uid. */
export function successStatus(name: string, group: string, plural: string, uid: string): Json {
  const details: Json = { name };
  if (group !== '') details.group = group;
  details.kind = plural;
  details.uid = uid;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}

interface WatchStream {
  readonly events: Json[];
  /** Resolves with the first event matching `match`, failing after a timeout with what was seen. */
  until(match: (e: Json) => boolean, what: string): Promise<Json>;
  close(): Promise<void>;
}

/** The shared watch collector, plus a bounded wait for one event. */
async function startWatch(url: string): Promise<WatchStream> {
  const stream = await openEventStream(url);
  const events = stream.events;
  return {
    events,
    async until(match, what) {
      const deadline = Date.now() + 5000;
      for (;;) {
        const found = events.find(match);
        if (found !== undefined) return found;
        if (Date.now() > deadline)
          throw new Error(`watch never saw ${what}; events: ${JSON.stringify(events.map((e) => [e.type, e.object?.metadata?.name]))}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () => stream.stop(),
  };
}

export function assertNearTime(actual: string | undefined, expectedMs: number, what: string): void {
  assert.equal(typeof actual, 'string', `${what} missing`);
  const diff = Math.abs(Date.parse(actual as string) - expectedMs);
  assert.ok(diff < 3000, `${what} ${actual} is ${diff}ms away from ${new Date(expectedMs).toISOString()}`);
}

/**
 * A server for the deletion suites: they pin the registry's own deletion behaviour, so with no controllers GC and
 * namespace finalizers stay (R2.30), and no workload controller writes the Deployments whose resourceVersions they check.
 */
export async function startDeletionServer(): Promise<TestServer> {
  const ts = await startTestServer({
    controllers: { ...WITHOUT_WORKLOAD_CONTROLLERS, garbageCollector: false, namespaceController: false },
  });
  const res = await ts.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  assert.equal(res.status, 201, res.text);
  return ts;
}

export interface DeletionRequests {
  create(path: string, body: Json): Promise<Json>;
  get(path: string): Promise<Response>;
  del(path: string, body?: unknown): Promise<Response>;
  patch(path: string, body: unknown): Promise<Response>;
  /** A name unique within the suite. */
  unique(prefix: string): string;
  watchDuring(collection: string, id: string, fromRv: string, act: () => Promise<void>): Promise<Json[]>;
}

/** The suites' request shorthands against the server `server()` returns (started in their before()). */
export function deletionRequests(server: () => TestServer): DeletionRequests {
  let seq = 0;
  const create = async (path: string, body: Json): Promise<Json> => {
    const res = await server().request('POST', path, body);
    assert.equal(res.status, 201, res.text);
    return res.json;
  };
  const get = (path: string): Promise<Response> => server().request('GET', path);
  const del = (path: string, body?: unknown): Promise<Response> => server().request('DELETE', path, body);
  const patch = (path: string, body: unknown): Promise<Response> => server().request('PATCH', path, body, MERGE);
  const unique = (prefix: string): string => `${prefix}-${++seq}`;

  /**
   * Runs `act` while a watch over objects labelled `case=<id>` is open, then writes a sentinel with that label:
   * once its ADDED arrives every earlier event has been delivered, so the events before it are complete.
   */
  const watchDuring = async (collection: string, id: string, fromRv: string, act: () => Promise<void>): Promise<Json[]> => {
    const watch = await startWatch(`${server().url}${collection}?watch=true&resourceVersion=${fromRv}&labelSelector=case%3D${id}`);
    try {
      await act();
      const sentinel = `sentinel-${id}`;
      await create(
        collection,
        collection === PODS ? pod(sentinel, { labels: { case: id } }) : configMap(sentinel, { labels: { case: id } }),
      );
      await watch.until((e) => e.type === 'ADDED' && e.object?.metadata?.name === sentinel, 'the sentinel');
      const end = watch.events.findIndex((e) => e.object?.metadata?.name === sentinel);
      return watch.events.slice(0, end);
    } finally {
      await watch.close();
    }
  };
  return { create, get, del, patch, unique, watchDuring };
}
