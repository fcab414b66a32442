import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeList, KubeObject, Status } from '../api/types.js';
import type { DeleteOptions } from '../api/delete-options.js';
import { type DiscoveryFailure, discoverResources } from './http-discovery.js';
import type { RequestTarget } from './http-errors.js';
import { type HttpClientConfig, type HttpResponse, HttpTransport } from './http-transport.js';
import { httpWatchStream } from './http-watch.js';
import type { ApiClient, ResourceRef } from './interface.js';
import { APPLY_CONTENT_TYPE, applyQuery, listQuery, PATCH_CONTENT_TYPES, selectorQuery } from './request-params.js';

export type { HttpClientConfig } from './http-transport.js';
export type { DiscoveryFailure } from './http-discovery.js';
export { describeDiscoveryFailures } from './http-discovery.js';

/** The ApiClient over HTTP, for tools and out-of-process controllers talking to Cascade or any Kubernetes cluster. */
export interface HttpApiClient extends ApiClient {
  readonly server: string;
  /** Group-versions the latest discover() could not read (an unavailable aggregated API, a Stale version). */
  readonly lastDiscoveryErrors: readonly DiscoveryFailure[];
  /** Ends open watches and pooled connections; the client must not be used afterwards. */
  close(): void;
}

function gvrKey(ref: ResourceRef): string {
  return `${ref.group}/${ref.version}/${ref.resource}`;
}

function parse<T>(res: HttpResponse): T {
  return JSON.parse(res.body.toString('utf8')) as T;
}

function requireName(name: string): string {
  // client-go refuses these before sending: an empty name would address the collection instead.
  if (name === '') throw new Error('resource name may not be empty');
  return name;
}

/**
 * Creates an ApiClient that speaks the Kubernetes REST API. Failures are StatusErrors with the server's code and
 * reason (or client-go's equivalents for non-Status answers); unreachable servers reject with an Error naming
 * the server. As with the in-process client, a namespace passed for a cluster-scoped resource is ignored: the
 * scope comes from discovery, read once for a resource not seen before.
 */
export function createHttpClient(config: HttpClientConfig): HttpApiClient {
  const transport = new HttpTransport(config);
  const namespacedByResource = new Map<string, boolean>();
  const rediscoveredFor = new Set<string>();
  let lastDiscoveryErrors: readonly DiscoveryFailure[] = [];
  /** Concurrent first requests share one discovery instead of each starting their own. */
  let scopeDiscovery: Promise<unknown> | undefined;

  async function discover(): Promise<readonly ResourceInfo[]> {
    const result = await discoverResources((spec) => transport.request(spec));
    lastDiscoveryErrors = result.failures;
    for (const info of result.resources)
      namespacedByResource.set(gvrKey({ group: info.group, version: info.version, resource: info.plural }), info.namespaced);
    return result.resources;
  }

  async function effectiveNamespace(ref: ResourceRef, namespace: string | undefined): Promise<string | undefined> {
    if (namespace === undefined || namespace === '') return undefined;
    const key = gvrKey(ref);
    if (!namespacedByResource.has(key)) {
      if (scopeDiscovery === undefined && !rediscoveredFor.has(key)) {
        rediscoveredFor.add(key);
        // Without discovery the namespace is used as given; the request itself then reports any problem.
        scopeDiscovery = discover()
          .catch(() => undefined)
          .finally(() => {
            scopeDiscovery = undefined;
          });
      }
      if (scopeDiscovery !== undefined) await scopeDiscovery;
    }
    return namespacedByResource.get(key) === false ? undefined : namespace;
  }

  async function collectionPath(ref: ResourceRef, namespace: string | undefined): Promise<string> {
    const root = ref.group === '' ? `/api/${ref.version}` : `/apis/${ref.group}/${ref.version}`;
    const ns = await effectiveNamespace(ref, namespace);
    return ns === undefined ? `${root}/${ref.resource}` : `${root}/namespaces/${encodeURIComponent(ns)}/${ref.resource}`;
  }

  async function objectPath(ref: ResourceRef, namespace: string | undefined, name: string, subresource?: string): Promise<string> {
    const path = `${await collectionPath(ref, namespace)}/${encodeURIComponent(requireName(name))}`;
    return subresource === undefined || subresource === '' ? path : `${path}/${subresource}`;
  }

  const target = (ref: ResourceRef, name?: string): RequestTarget => ({ group: ref.group, resource: ref.resource, name });
  const deleteBody = (opts: DeleteOptions): object => ({ kind: 'DeleteOptions', apiVersion: 'v1', ...opts });

  return {
    get server() {
      return transport.server;
    },
    get lastDiscoveryErrors() {
      return lastDiscoveryErrors;
    },
    close() {
      transport.close();
    },
    discover,
    async get(ref, namespace, name, subresource) {
      const path = await objectPath(ref, namespace, name, subresource);
      const res = await transport.request({ method: 'GET', path, target: target(ref, name) });
      return parse<KubeObject>(res);
    },
    async list(ref, namespace, opts = {}) {
      const res = await transport.request({
        method: 'GET',
        path: await collectionPath(ref, namespace),
        query: listQuery(opts),
        target: target(ref),
      });
      return parse<KubeList>(res);
    },
    async watch(ref, namespace, opts = {}) {
      const query = selectorQuery(opts);
      query.set('watch', 'true');
      if (opts.allowWatchBookmarks === true) query.set('allowWatchBookmarks', 'true');
      const opened = await transport.stream({ method: 'GET', path: await collectionPath(ref, namespace), query, target: target(ref) });
      return httpWatchStream(opened);
    },
    async create(ref, namespace, obj, subresource) {
      const path =
        subresource === undefined
          ? await collectionPath(ref, namespace)
          : await objectPath(ref, namespace, obj.metadata.name ?? '', subresource);
      const res = await transport.request({ method: 'POST', path, body: obj, target: target(ref) });
      return parse<KubeObject>(res);
    },
    async update(ref, namespace, obj, subresource) {
      const name = obj.metadata.name ?? '';
      const res = await transport.request({
        method: 'PUT',
        path: await objectPath(ref, namespace, name, subresource),
        body: obj,
        target: target(ref, name),
      });
      return parse<KubeObject>(res);
    },
    async patch(ref, namespace, name, type, patch) {
      const res = await transport.request({
        method: 'PATCH',
        path: await objectPath(ref, namespace, name),
        contentType: PATCH_CONTENT_TYPES[type],
        body: patch,
        target: target(ref, name),
      });
      return parse<KubeObject>(res);
    },
    async apply(ref, namespace, config, opts) {
      const name = config.metadata.name ?? '';
      const res = await transport.request({
        method: 'PATCH',
        path: await objectPath(ref, namespace, name),
        query: applyQuery(opts),
        contentType: APPLY_CONTENT_TYPE,
        body: config,
        target: target(ref, name),
      });
      return parse<KubeObject>(res);
    },
    async delete(ref, namespace, name, opts = {}) {
      const res = await transport.request({
        method: 'DELETE',
        path: await objectPath(ref, namespace, name),
        body: deleteBody(opts),
        target: target(ref, name),
      });
      return { code: res.status, body: parse<KubeObject | Status>(res) };
    },
    async deleteCollection(ref, namespace, listOpts = {}, opts = {}) {
      const res = await transport.request({
        method: 'DELETE',
        path: await collectionPath(ref, namespace),
        query: listQuery(listOpts),
        body: deleteBody(opts),
        target: target(ref),
      });
      return parse<KubeList>(res);
    },
  };
}
