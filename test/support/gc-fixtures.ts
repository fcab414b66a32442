import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { waitFor } from '../../src/embed/index.js';
import type { TestServer } from './test-server.js';

/**
 * Objects, paths and polling helpers for the garbage collector end-to-end suites (test/e2e/gc-*.test.ts).
 * Everything goes through the server's HTTP API; no workload controllers run, so owners and dependents are
 * created by hand with ownerReferences.
 */

export type Json = Record<string, any>;

export const HOLD_FINALIZER = 'example.com/hold';
export const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };

interface Kind {
  readonly plural: string;
  readonly namespaced: boolean;
}

const KINDS: Record<string, Kind> = {
  'v1/ConfigMap': { plural: 'configmaps', namespaced: true },
  'v1/Secret': { plural: 'secrets', namespaced: true },
  'v1/Pod': { plural: 'pods', namespaced: true },
  'v1/ServiceAccount': { plural: 'serviceaccounts', namespaced: true },
  'v1/Namespace': { plural: 'namespaces', namespaced: false },
  'v1/Node': { plural: 'nodes', namespaced: false },
  'apps/v1/Deployment': { plural: 'deployments', namespaced: true },
  'apps/v1/ReplicaSet': { plural: 'replicasets', namespaced: true },
  'rbac.authorization.k8s.io/v1/ClusterRole': { plural: 'clusterroles', namespaced: false },
};

function kindOf(apiVersion: string, kind: string): Kind {
  const k = KINDS[`${apiVersion}/${kind}`];
  if (k === undefined) throw new Error(`gc-fixtures: no path known for ${apiVersion}/${kind}`);
  return k;
}

export function collectionPath(apiVersion: string, kind: string, namespace?: string): string {
  const k = kindOf(apiVersion, kind);
  const root = apiVersion === 'v1' ? '/api/v1' : `/apis/${apiVersion}`;
  if (!k.namespaced) return `${root}/${k.plural}`;
  assert.ok(namespace, `${kind} needs a namespace`);
  return `${root}/namespaces/${namespace}/${k.plural}`;
}

export function objectPath(obj: Json): string {
  return `${collectionPath(obj.apiVersion, obj.kind, obj.metadata?.namespace)}/${obj.metadata.name}`;
}

/** An ownerReference (R1.23) pointing at a created object. */
export function ownerRef(owner: Json, options: { blockOwnerDeletion?: boolean; controller?: boolean } = {}): Json {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    ...(options.controller === undefined ? {} : { controller: options.controller }),
    ...(options.blockOwnerDeletion === undefined ? {} : { blockOwnerDeletion: options.blockOwnerDeletion }),
  };
}

/** A reference to an object that never existed (R4.3: it becomes a virtual node). */
export function ghostRef(apiVersion: string, kind: string, name: string): Json {
  return { apiVersion, kind, name, uid: randomUUID() };
}

export function configMap(namespace: string, name: string, meta: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, ...meta }, data: { k: 'v' } };
}

export function secret(namespace: string, name: string, meta: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace, ...meta }, type: 'Opaque', data: { k: 'dg==' } };
}

export function pod(namespace: string, name: string, meta: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, ...meta }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
}

function podTemplate(app: string): Json {
  return { metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
}

export function deployment(namespace: string, name: string, meta: Json = {}): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, ...meta },
    spec: { selector: { matchLabels: { app: name } }, template: podTemplate(name) },
  };
}

export function replicaSet(namespace: string, name: string, meta: Json = {}): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace, ...meta },
    spec: { selector: { matchLabels: { app: name } }, template: podTemplate(name) },
  };
}

export function clusterRole(name: string, meta: Json = {}): Json {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name, ...meta }, rules: [] };
}

export function namespaceObject(name: string): Json {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

/** HTTP operations on whole objects, plus the polling that GC assertions need. */
export interface GcApi {
  /** POSTs the object and returns the stored one (with apiVersion/kind restored for ownerRef()). */
  create(obj: Json): Promise<Json>;
  /** The live object, or undefined on 404. */
  get(obj: Json): Promise<Json | undefined>;
  /** DELETE with an optional DeleteOptions body; returns status and body. */
  delete(obj: Json, options?: Json): Promise<{ status: number; json: any; text: string }>;
  mergePatch(obj: Json, patch: Json): Promise<Json>;
  /** Removes HOLD_FINALIZER (leaving any other finalizer). */
  release(obj: Json): Promise<void>;
  waitForGone(obj: Json, timeoutMs?: number): Promise<void>;
  /** Polls the live object until `check` accepts it. */
  waitFor(obj: Json, check: (live: Json) => boolean, what: string, timeoutMs?: number): Promise<Json>;
  /**
   * A causal barrier for "this did NOT happen" assertions: a sentinel owner of the given kind is deleted in the
   * background and its dependent (same monitor, so observed after everything written before it) must be collected;
   * then both GC queues must be empty.
   */
  settle(where: { namespace: string } | 'cluster'): Promise<void>;
  metrics(): Promise<string>;
  /** Events of a namespace with the given reason. */
  events(namespace: string, reason: string): Promise<Json[]>;
}

/** Anything that can send a request to a Cascade server (a TestServer, or a server started by hand). */
export type Requester = Pick<TestServer, 'request'>;

export function gcApi(ts: Requester): GcApi {
  let sentinels = 0;
  const api: GcApi = {
    async create(obj) {
      const res = await ts.request('POST', collectionPath(obj.apiVersion, obj.kind, obj.metadata?.namespace), obj);
      assert.equal(res.status, 201, `create ${obj.kind} ${obj.metadata?.name}: ${res.text}`);
      return { ...res.json, apiVersion: obj.apiVersion, kind: obj.kind };
    },
    async get(obj) {
      const res = await ts.request('GET', objectPath(obj));
      if (res.status === 404) return undefined;
      assert.equal(res.status, 200, res.text);
      return res.json;
    },
    async delete(obj, options) {
      return ts.request('DELETE', objectPath(obj), options);
    },
    async mergePatch(obj, patch) {
      const res = await ts.request('PATCH', objectPath(obj), patch, MERGE_PATCH);
      assert.equal(res.status, 200, `patch ${obj.metadata.name}: ${res.text}`);
      return res.json;
    },
    async release(obj) {
      const live = await api.get(obj);
      assert.ok(live, `${obj.metadata.name} should still exist to be released`);
      const finalizers = (live.metadata.finalizers ?? []).filter((f: string) => f !== HOLD_FINALIZER);
      const res = await ts.request(
        'PATCH',
        objectPath(obj),
        { metadata: { finalizers: finalizers.length > 0 ? finalizers : null } },
        MERGE_PATCH,
      );
      assert.ok(res.status === 200 || res.status === 404, `release ${obj.metadata.name}: ${res.text}`);
    },
    async waitForGone(obj, timeoutMs = 5000) {
      await waitFor(async () => ((await api.get(obj)) === undefined ? true : undefined), {
        timeoutMs,
        what: `${obj.kind} ${obj.metadata.name} to be gone`,
      });
    },
    async waitFor(obj, check, what, timeoutMs = 5000) {
      let last: Json | undefined;
      try {
        return await waitFor(
          async () => {
            last = await api.get(obj);
            return last !== undefined && check(last) ? last : undefined;
          },
          { timeoutMs, what },
        );
      } catch (err) {
        throw new Error(`${String(err)}; last seen: ${JSON.stringify(last?.metadata)}`);
      }
    },
    async settle(where) {
      const n = ++sentinels;
      const make = (name: string, meta: Json = {}): Json =>
        where === 'cluster' ? clusterRole(name, meta) : configMap(where.namespace, name, meta);
      const owner = await api.create(make(`gc-sentinel-owner-${n}`));
      const dependent = await api.create(make(`gc-sentinel-dependent-${n}`, { ownerReferences: [ownerRef(owner)] }));
      const res = await api.delete(owner, { propagationPolicy: 'Background' });
      assert.equal(res.status, 200, res.text);
      await api.waitForGone(dependent);
      await waitFor(
        async () => {
          const text = await api.metrics();
          return queueDepth(text, 'garbage_collector_attempt_to_delete') === 0 &&
            queueDepth(text, 'garbage_collector_attempt_to_orphan') === 0
            ? true
            : undefined;
        },
        { timeoutMs: 5000, what: 'empty garbage collector queues' },
      );
    },
    async metrics() {
      const res = await ts.request('GET', '/metrics');
      assert.equal(res.status, 200, res.text);
      return res.text;
    },
    async events(ns, reason) {
      const res = await ts.request('GET', `/api/v1/namespaces/${ns}/events`);
      assert.equal(res.status, 200, res.text);
      return (res.json.items as Json[]).filter((e) => e.reason === reason);
    },
  };
  return api;
}

/** The value of one sample in Prometheus text, or undefined if absent. */
export function metricValue(text: string, name: string, labels = ''): number | undefined {
  const prefix = labels === '' ? `${name} ` : `${name}{${labels}} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(prefix.length));
}

export function queueDepth(text: string, queue: string): number | undefined {
  return metricValue(text, 'workqueue_depth', `name="${queue}"`);
}

/** The owner uids left on an object. */
export function ownerUids(obj: Json): string[] {
  return ((obj.metadata.ownerReferences ?? []) as Json[]).map((r) => r.uid as string);
}

export interface WatchStream {
  readonly events: Json[];
  /** Ends the watch and resolves once its events are all read. */
  stop(): Promise<void>;
}

/** Collects the JSON-line events of a watch as they stream in. */
export async function startWatch(url: string): Promise<WatchStream> {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal });
  assert.equal(res.status, 200, `watch ${url}`);
  const body = res.body;
  assert.ok(body);
  const events: Json[] = [];
  const pump = (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of body) {
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
          const line = buffered.slice(0, nl).trim();
          buffered = buffered.slice(nl + 1);
          if (line !== '') events.push(JSON.parse(line) as Json);
        }
      }
    } catch {
      // Aborting on close ends the stream.
    }
  })();
  return {
    events,
    async stop() {
      abort.abort();
      await pump;
    },
  };
}
