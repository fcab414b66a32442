import type { DiscoveryFailure } from '../client/http-discovery.js';
/**
 * An ApiClient for resources served by aggregated API servers, for controllers running inside Cascade: each call
 * goes straight to the backend over the front-proxy TLS connection, as the given user, and fails exactly as the
 * same call through the HTTP front and client-go would (an unavailable APIService is the plain-text 503 that
 * client-go reports as ServiceUnavailable, R8.15).
 */

import type { OutgoingHttpHeaders } from 'node:http';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeList, KubeObject, Status } from '../api/types.js';
import type { UserInfo } from '../api/user.js';
import { type FailedResponse, type RequestTarget, statusErrorFromResponse } from '../client/http-errors.js';
import type { OpenResponse } from '../client/http-transport.js';
import { httpWatchStream } from '../client/http-watch.js';
import type { ApiClient, ResourceRef } from '../client/interface.js';
import type { DeleteOptions } from '../api/delete-options.js';
import { type BackendTarget, openBackendRequest, shouldRetry } from './backend-transport.js';
import { hostPort } from './endpoint-resolver.js';
import { identityHeaders } from './identity-headers.js';
import { describeNetworkError } from './network-errors.js';
import { SERVICE_UNAVAILABLE_TEXT } from './proxy.js';
import { APPLY_CONTENT_TYPE, applyQuery, listQuery, PATCH_CONTENT_TYPES, selectorQuery } from '../client/request-params.js';

/** What the client needs from the aggregator. */
export interface AggregatedBackends {
  /** Where requests for the group-version go now; undefined while its APIService is unavailable. */
  backendFor(group: string, version: string): BackendTarget | undefined;
  /** The aggregated resources currently discoverable. */
  resources(): readonly ResourceInfo[];
  /** Group-versions listed but not discoverable now. */
  discoveryFailures(): readonly DiscoveryFailure[];
}

interface Call {
  readonly ref: ResourceRef;
  readonly method: string;
  readonly path: string;
  readonly query?: URLSearchParams;
  readonly body?: unknown;
  readonly contentType?: string;
  readonly target: RequestTarget;
}

function textResponse(status: number, text: string): FailedResponse {
  return { status, contentType: 'text/plain; charset=utf-8', retryAfter: undefined, body: Buffer.from(`${text}\n`) };
}

function requireName(name: string): string {
  if (name === '') throw new Error('resource name may not be empty');
  return name;
}

export function createAggregatedApiClient(backends: AggregatedBackends, user: UserInfo): ApiClient {
  const namespaced = (ref: ResourceRef): boolean | undefined =>
    backends.resources().find((info) => info.group === ref.group && info.version === ref.version && info.plural === ref.resource)
      ?.namespaced;

  const collectionPath = (ref: ResourceRef, namespace: string | undefined): string => {
    const root = `/apis/${ref.group}/${ref.version}`;
    const scoped = namespace !== undefined && namespace !== '' && namespaced(ref) !== false;
    return scoped ? `${root}/namespaces/${encodeURIComponent(namespace)}/${ref.resource}` : `${root}/${ref.resource}`;
  };
  const objectPath = (ref: ResourceRef, namespace: string | undefined, name: string, subresource?: string): string => {
    const path = `${collectionPath(ref, namespace)}/${encodeURIComponent(requireName(name))}`;
    return subresource === undefined || subresource === '' ? path : `${path}/${subresource}`;
  };
  const target = (ref: ResourceRef, name?: string): RequestTarget => ({ group: ref.group, resource: ref.resource, name });

  /** Starts a call; resolves with the open response, or rejects as client-go would report the failure. */
  const open = (call: Call): Promise<OpenResponse & { backend: BackendTarget }> => {
    const backend = backends.backendFor(call.ref.group, call.ref.version);
    if (backend === undefined)
      return Promise.reject(statusErrorFromResponse(textResponse(503, SERVICE_UNAVAILABLE_TEXT), call.method, call.target));
    const headers: OutgoingHttpHeaders = { Accept: 'application/json', ...identityHeaders(user) };
    let payload: Buffer | undefined;
    if (call.body !== undefined) {
      payload = Buffer.from(JSON.stringify(call.body));
      headers['Content-Type'] = call.contentType ?? 'application/json';
      headers['Content-Length'] = payload.length;
    }
    const query = call.query?.toString() ?? '';
    const spec = { method: call.method, path: query === '' ? call.path : `${call.path}?${query}`, headers };
    return new Promise((resolve, reject) => {
      const attempt = (retried: boolean): void => {
        const req = openBackendRequest(backend, spec);
        req.on('error', (err) => {
          if (!retried && shouldRetry(req, call.method, err)) {
            attempt(true);
            return;
          }
          // The proxy would have answered 503 with the transport error's text; the caller sees what client-go makes of it.
          const text = describeNetworkError(err, hostPort(backend.endpoint), backend.serverName);
          reject(statusErrorFromResponse(textResponse(503, text), call.method, call.target));
        });
        req.once('response', (message) => resolve({ message, abort: () => req.destroy(), backend }));
        req.end(payload);
      };
      attempt(false);
    });
  };

  const failure = async (opened: OpenResponse, call: Call): Promise<never> => {
    const chunks: Buffer[] = [];
    for await (const chunk of opened.message) chunks.push(chunk as Buffer);
    const retryAfter = opened.message.headers['retry-after'];
    throw statusErrorFromResponse(
      {
        status: opened.message.statusCode ?? 0,
        contentType: String(opened.message.headers['content-type'] ?? ''),
        retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
        body: Buffer.concat(chunks),
      },
      call.method,
      call.target,
    );
  };

  const isSuccess = (opened: OpenResponse): boolean => {
    const status = opened.message.statusCode ?? 0;
    return status >= 200 && status <= 299;
  };

  const request = async <T>(call: Call): Promise<{ code: number; body: T }> => {
    const opened = await open(call);
    if (!isSuccess(opened)) return failure(opened, call);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of opened.message) chunks.push(chunk as Buffer);
    } catch (err) {
      const text = describeNetworkError(err, hostPort(opened.backend.endpoint), opened.backend.serverName);
      throw statusErrorFromResponse(textResponse(503, text), call.method, call.target);
    }
    return { code: opened.message.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as T };
  };

  const deleteBody = (opts: DeleteOptions): object => ({ kind: 'DeleteOptions', apiVersion: 'v1', ...opts });

  return {
    async discover() {
      return backends.resources();
    },
    get lastDiscoveryErrors() {
      return backends.discoveryFailures();
    },
    async get(ref, namespace, name) {
      return (await request<KubeObject>({ ref, method: 'GET', path: objectPath(ref, namespace, name), target: target(ref, name) })).body;
    },
    async list(ref, namespace, opts = {}) {
      return (
        await request<KubeList>({ ref, method: 'GET', path: collectionPath(ref, namespace), query: listQuery(opts), target: target(ref) })
      ).body;
    },
    async watch(ref, namespace, opts = {}) {
      const query = selectorQuery(opts);
      query.set('watch', 'true');
      if (opts.allowWatchBookmarks === true) query.set('allowWatchBookmarks', 'true');
      const call: Call = { ref, method: 'GET', path: collectionPath(ref, namespace), query, target: target(ref) };
      const opened = await open(call);
      if (!isSuccess(opened)) return failure(opened, call);
      return httpWatchStream(opened);
    },
    async create(ref, namespace, obj) {
      return (await request<KubeObject>({ ref, method: 'POST', path: collectionPath(ref, namespace), body: obj, target: target(ref) }))
        .body;
    },
    async update(ref, namespace, obj, subresource) {
      const name = obj.metadata.name ?? '';
      return (
        await request<KubeObject>({
          ref,
          method: 'PUT',
          path: objectPath(ref, namespace, name, subresource),
          body: obj,
          target: target(ref, name),
        })
      ).body;
    },
    async patch(ref, namespace, name, type, patch) {
      const call: Call = {
        ref,
        method: 'PATCH',
        path: objectPath(ref, namespace, name),
        body: patch,
        contentType: PATCH_CONTENT_TYPES[type],
        target: target(ref, name),
      };
      return (await request<KubeObject>(call)).body;
    },
    async apply(ref, namespace, config, opts) {
      const name = config.metadata.name ?? '';
      const call: Call = {
        ref,
        method: 'PATCH',
        path: objectPath(ref, namespace, name),
        query: applyQuery(opts),
        body: config,
        contentType: APPLY_CONTENT_TYPE,
        target: target(ref, name),
      };
      return (await request<KubeObject>(call)).body;
    },
    async delete(ref, namespace, name, opts = {}) {
      const res = await request<KubeObject | Status>({
        ref,
        method: 'DELETE',
        path: objectPath(ref, namespace, name),
        body: deleteBody(opts),
        target: target(ref, name),
      });
      return { code: res.code, body: res.body };
    },
    async deleteCollection(ref, namespace, listOpts = {}, opts = {}) {
      const call: Call = {
        ref,
        method: 'DELETE',
        path: collectionPath(ref, namespace),
        query: listQuery(listOpts),
        body: deleteBody(opts),
        target: target(ref),
      };
      return (await request<KubeList>(call)).body;
    },
  };
}
