import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFoundPath, StatusError } from '../api/errors.js';
import { responseStatus } from './error-status.js';
import type { ApiContext } from './api-context.js';
import { routeDiscovery } from './discovery-route.js';
import { createOpenApiRoute } from './openapi-route.js';
import { parseRequestPath, type RequestTarget } from './request-info.js';
import { parseRequestUrl } from '../api/request-url.js';
import { routeResource } from './resource-route.js';
import { endCommittedResponse, isPrettyPrint, markPretty, sendJson, sendRawJson, sendStatusError, sendText } from './respond.js';
import { KUBERNETES_VERSION } from './version.js';
import type { ControllerManager } from '../controllers/manager.js';
import { renderMetrics } from './metrics.js';
import { isHealthPath, serveHealth } from './health.js';
import type { Backend } from '../storage/backend.js';
import type { RequestSecurity } from './request-security.js';
import { requestAttributes, requestVerb } from './request-attributes.js';
import type { Auditor, RequestAudit } from '../audit/auditor.js';
import { runWithAudit } from '../audit/context.js';
import type { InFlightLimiter } from './limits/max-in-flight.js';
import { requestTimeoutMs, withRequestTimeout } from './limits/request-timeout.js';
import type { WatchLimiter } from './limits/watch-limit.js';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The group-version a request under /apis/<g>/<v> addresses: an aggregated API owns everything below it. */
function aggregatedGroupVersion(target: RequestTarget): { group: string; version: string } | undefined {
  if (target.type !== 'resource' && target.type !== 'discovery-version') return undefined;
  return target.group === '' ? undefined : target;
}

/** The HTTP front of the API server: health, version, discovery, OpenAPI and the resource API. */
/** The per-request limits: in-flight budgets, the watch cap and the timeout of requests that are not watches. */
export interface RequestLimits {
  readonly inFlight: InFlightLimiter;
  readonly watches: WatchLimiter;
  readonly requestTimeoutMs: number;
}

export function createApiHandler(
  ctx: ApiContext,
  security: RequestSecurity,
  limits: RequestLimits,
  isReady: () => boolean,
  controllers: () => ControllerManager | undefined = () => undefined,
  backend?: Backend,
  auditor?: Auditor,
): RequestListener {
  const openapi = createOpenApiRoute(ctx);
  const handle = async (req: IncomingMessage, res: ServerResponse, audit?: RequestAudit): Promise<void> => {
    const url = parseRequestUrl(req.url ?? '/');
    const pathname = url.pathname;
    const target = parseRequestPath(pathname);
    const verb = requestVerb(req.method ?? 'GET', url, target);
    if (isPrettyPrint(req.url ?? '/', url.searchParams, req.headers['user-agent'])) markPretty(res);
    // Kubernetes' filter order: timeout, authentication, impersonation, in-flight limit, authorization.
    // BasicLongRunningRequestCheck: watches, and the log subresource (a followed log streams until its container stops).
    const longRunning = verb === 'watch' || (target.type === 'resource' && target.subresource === 'log');
    if (!longRunning) withRequestTimeout(res, requestTimeoutMs(url.searchParams, limits.requestTimeoutMs));
    const identified = security.identify(req, url);
    const user = identified instanceof Promise ? await identified : identified;
    if (audit !== undefined) auditor?.received(audit, requestAttributes(verb, url, target, user));
    if (!limits.inFlight.admit(res, { verb, longRunning, user })) return;
    security.authorize(verb, url, target, user);
    if (verb === 'watch' && !limits.watches.admit(res)) return;
    const aggregated = aggregatedGroupVersion(target);
    if (aggregated !== undefined && ctx.aggregator?.serves(aggregated.group, aggregated.version) === true) {
      await ctx.aggregator.proxy(req, res, url, user, aggregated.group, aggregated.version);
      return;
    }
    if (isHealthPath(pathname)) {
      await serveHealth(res, pathname, url.searchParams, backend, isReady);
      return;
    }
    if (pathname === '/version' || pathname === '/version/') {
      sendRawJson(res, 200, KUBERNETES_VERSION);
      return;
    }
    if (pathname === '/metrics') {
      sendText(res, 200, renderMetrics(controllers(), backend?.requestMetrics?.()), 'text/plain; version=0.0.4; charset=utf-8');
      return;
    }
    if (pathname === '/debug/gc/graph') {
      const uid = url.searchParams.get('uid') ?? '';
      const dump = controllers()?.garbageCollector?.graphOf(uid);
      if (dump === undefined) throw new StatusError(404, 'NotFound', `uid "${uid}" is not in the garbage collector's graph`, {});
      sendJson(res, 200, dump);
      return;
    }
    if (pathname === '/openapi/v2' || pathname === '/openapi/v3' || pathname.startsWith('/openapi/v3/')) {
      openapi(req, res, pathname);
      return;
    }
    switch (target.type) {
      case 'resource':
        await routeResource(ctx, req, res, target, url, user);
        return;
      case 'unknown':
        if (pathname === '/') {
          sendRawJson(res, 200, {
            paths: ['/api', '/api/v1', '/apis', '/healthz', '/livez', '/openapi/v2', '/openapi/v3', '/readyz', '/version'],
          });
          return;
        }
        throw notFoundPath();
      default:
        routeDiscovery(ctx, req, res, target);
    }
  };
  const onError = (req: IncomingMessage, res: ServerResponse, err: unknown): void => {
    const status = responseStatus(err);
    if (!(err instanceof StatusError)) console.error(`cascade: ${req.method} ${req.url}:`, err);
    if (res.headersSent) {
      endCommittedResponse(res);
      return;
    }
    sendStatusError(res, status);
  };
  if (auditor !== undefined) {
    return (req, res) => {
      const audit = auditor.begin(req, res);
      runWithAudit(audit, () => handle(req, res, audit).catch((err: unknown) => onError(req, res, err)));
    };
  }
  return (req, res) => {
    handle(req, res).catch((err: unknown) => onError(req, res, err));
  };
}
