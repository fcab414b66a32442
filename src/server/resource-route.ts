import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, methodNotAllowedRoute, notFoundPath } from '../api/errors.js';
import { goQuote } from '../util/go-quote.js';
import type { ResourceInfo, SubresourceInfo, Verb } from '../api/resource-info.js';
import type { UserInfo } from '../api/user.js';
import type { ApiContext, ResourceRequest } from './api-context.js';
import { handleDelete, handleDeleteCollection } from './handlers/delete.js';
import { handleGet, handleList } from './handlers/read.js';
import { handleReview } from './handlers/review.js';
import { handleComponentStatuses } from './handlers/component-statuses.js';
import { handleLegacyBinding, handlePodBinding } from './handlers/pod-binding.js';
import { handlePodEviction } from './handlers/pod-eviction.js';
import { handlePodLog } from './handlers/pod-log.js';
import { handleScale } from './handlers/scale.js';
import { handleTokenRequest } from './handlers/token-request.js';
import { assertRenderable } from './handlers/transform.js';
import { handleLegacyWatch, handleWatch } from './handlers/watch.js';
import { handleCreate, handlePatch, handleUpdate } from './handlers/write.js';
import { negotiate } from './negotiation.js';
import { pathSegmentNameErrors } from './path-segment.js';
import { requestVerb } from './request-attributes.js';
import { sendPageNotFound } from './respond.js';
import { Query } from './query.js';
import type { RequestTarget } from './request-info.js';
import type { RequestUrl } from '../api/request-url.js';

type ResourceTarget = Extract<RequestTarget, { type: 'resource' }>;

type Route = readonly [method: string, verb: Verb];
const ITEM_ROUTES: readonly Route[] = [
  ['GET', 'get'],
  ['PUT', 'update'],
  ['PATCH', 'patch'],
  ['DELETE', 'delete'],
];
const COLLECTION_ROUTES: readonly Route[] = [
  ['GET', 'list'],
  ['POST', 'create'],
  ['DELETE', 'deletecollection'],
];
/** A subresource that is created (serviceaccounts/token) takes POST at the item's subresource path. */
const SUBRESOURCE_CREATE_ROUTES: readonly Route[] = [...ITEM_ROUTES, ['POST', 'create']];
const LIST_ROUTE: readonly Route[] = [['GET', 'list']];
const WATCH_ROUTE: readonly Route[] = [['GET', 'watch']];
const NO_ROUTE: readonly Route[] = [];

/**
 * The routes kube-apiserver's installer registers at the request's path shape, each present when the resource
 * (or subresource) has its verb: a namespaced resource has its collection under namespaces/{ns} and, across
 * namespaces, only its list (and legacy watch) route; items, subresources and legacy named watches always sit
 * under namespaces/{ns}. A legacy list watch needs both list and watch.
 */
function routesAt(info: ResourceInfo, sub: SubresourceInfo | undefined, target: ResourceTarget): readonly Route[] {
  const allNamespaces = info.namespaced && target.namespace === undefined;
  if (target.pathVerb === 'watch') {
    if (sub !== undefined) return NO_ROUTE;
    if (target.name === undefined) return info.verbs.includes('list') ? WATCH_ROUTE : NO_ROUTE;
    return allNamespaces ? NO_ROUTE : WATCH_ROUTE;
  }
  if (target.name !== undefined) {
    if (allNamespaces) return NO_ROUTE;
    return sub?.verbs.includes('create') === true ? SUBRESOURCE_CREATE_ROUTES : ITEM_ROUTES;
  }
  return allNamespaces ? LIST_ROUTE : COLLECTION_ROUTES;
}

/** The verb of the route a request takes: a 404 without a route at its path, a 405 without one for its method. */
function routeVerb(method: string, routes: readonly Route[], verbs: readonly Verb[], query: Query): Verb {
  const wanted = method === 'HEAD' ? 'GET' : method;
  let routed = false;
  for (const [routeMethod, verb] of routes) {
    if (!verbs.includes(verb)) continue;
    routed = true;
    // Only the list route looks at ?watch.
    if (routeMethod === wanted) return verb === 'list' && query.bool('watch') ? 'watch' : verb;
  }
  throw routed ? methodNotAllowedRoute() : notFoundPath();
}

/** path.IsValidPathSegmentName, which the store's key function applies to the name of every item request. */
function checkPathSegmentName(name: string): void {
  if (name === '') throw badRequest('name must be provided');
  const msgs = pathSegmentNameErrors(name);
  if (msgs.length > 0) throw badRequest(`Name parameter invalid: ${goQuote(name)}: ${msgs.join(';')}`);
}

/**
 * Whether one of kube-apiserver's go-restful web services claims the group's paths (the core group's /api and
 * /api/v1, and /apis/<group> of every built-in group), so an unknown version or resource gets its NotFound Status;
 * paths of other groups fall through the apiextensions handler to the plain-text 404.
 */
export function claimedByRestful(resources: readonly ResourceInfo[], group: string): boolean {
  return group === '' || resources.some((info) => info.group === group && info.custom !== true);
}

/**
 * The apiextensions handler passes a custom resource's request on (to the plain-text 404) when its scope and the
 * path's disagree: a namespace on a cluster-scoped resource, or none on a namespaced one except to list or watch.
 */
function crdHandlerServes(info: ResourceInfo, target: ResourceTarget, method: string, url: RequestUrl): boolean {
  const namespaced = (target.namespace ?? '') !== '';
  if (!info.namespaced) return !namespaced;
  if (namespaced) return true;
  const verb = requestVerb(method, url, target);
  return verb === 'list' || verb === 'watch';
}

export async function routeResource(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: ResourceTarget,
  url: RequestUrl,
  user: UserInfo,
): Promise<void> {
  if (!target.routable) throw notFoundPath();
  const store = ctx.registry.lookup(target.group, target.version, target.resource);
  if (store === undefined) {
    if (claimedByRestful(ctx.registry.resources(), target.group)) throw notFoundPath();
    sendPageNotFound(res);
    return;
  }
  const info = store.info;
  if (info.custom === true) {
    if (!crdHandlerServes(info, target, req.method ?? 'GET', url)) {
      sendPageNotFound(res);
      return;
    }
    // A cluster-scoped custom resource's handler ignores an empty namespace segment.
    if (!info.namespaced && target.namespace === '') target = { ...target, namespace: undefined };
  }
  if (!info.namespaced && target.namespace !== undefined) throw notFoundPath();
  let sub: SubresourceInfo | undefined;
  if (target.subresource !== undefined) {
    sub = info.subresources.find((s) => s.name === target.subresource);
    if (sub === undefined || target.name === undefined) throw notFoundPath();
  }
  const query = new Query(url.searchParams);
  const verb = routeVerb(req.method ?? 'GET', routesAt(info, sub, target), sub?.verbs ?? info.verbs, query);
  if (verb === 'watch' && !info.verbs.includes('watch')) throw methodNotAllowedRoute();
  // An empty namespace segment reaches the namespaced route with namespace "": reads and deletecollection then
  // span every namespace (as authorized), a create fails validation (metadata.namespace is required), while a
  // request on one object has no key to address.
  const namespace = target.namespace === '' && verb !== 'create' ? undefined : target.namespace;
  if (target.namespace === '' && verb !== 'list' && verb !== 'watch' && verb !== 'deletecollection' && verb !== 'create') {
    throw badRequest('Namespace parameter required.');
  }
  // A legacy named watch selects its object by name; no key is built from it.
  if (target.name !== undefined && target.pathVerb === undefined) checkPathSegmentName(target.name);
  const r: ResourceRequest = {
    ctx,
    req,
    res,
    store,
    namespace: info.namespaced ? namespace : undefined,
    name: target.name,
    subresource: target.subresource,
    query,
    format: negotiate(req.headers.accept),
    user,
  };
  const name = target.name ?? '';
  assertRenderable(r, sub?.name !== 'scale' && (verb === 'list' || verb === 'watch' || verb === 'deletecollection'));
  if (sub?.name === 'scale') return handleScale(r, verb as 'get' | 'update' | 'patch', name);
  if (sub?.name === 'token' && info.group === '' && info.plural === 'serviceaccounts') return handleTokenRequest(r, name);
  if (sub?.name === 'binding' && info.group === '' && info.plural === 'pods') return handlePodBinding(r, name);
  if (sub?.name === 'eviction' && info.group === '' && info.plural === 'pods') return handlePodEviction(r, name);
  if (sub?.name === 'log' && info.group === '' && info.plural === 'pods') return handlePodLog(r, name);
  if (info.group === '' && info.plural === 'bindings') return handleLegacyBinding(r);
  if (info.group === '' && info.plural === 'componentstatuses') return handleComponentStatuses(r, verb as 'get' | 'list', name);
  switch (verb) {
    case 'get':
      return handleGet(r, name);
    case 'list':
      return handleList(r);
    case 'watch':
      return target.pathVerb === 'watch' ? handleLegacyWatch(r, target.name) : handleWatch(r);
    case 'create':
      if (info.review) return handleReview(r);
      return handleCreate(r);
    case 'update':
      return handleUpdate(r, name);
    case 'patch':
      return handlePatch(r, name);
    case 'delete':
      return handleDelete(r, name);
    case 'deletecollection':
      return handleDeleteCollection(r);
  }
}
