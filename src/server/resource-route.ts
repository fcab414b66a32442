import type { IncomingMessage, ServerResponse } from 'node:http';
import { methodNotAllowedRoute, notFoundPath } from '../api/errors.js';
import type { SubresourceInfo, Verb } from '../api/resource-info.js';
import type { UserInfo } from '../auth/user.js';
import type { ApiContext, ResourceRequest } from './api-context.js';
import { handleDelete, handleDeleteCollection } from './handlers/delete.js';
import { handleGet, handleList } from './handlers/read.js';
import { handleReview } from './handlers/review.js';
import { handleScale } from './handlers/scale.js';
import { handleWatch } from './handlers/watch.js';
import { handleCreate, handlePatch, handleUpdate } from './handlers/write.js';
import { negotiate } from './negotiation.js';
import { Query } from './query.js';
import type { RequestTarget } from './request-info.js';
import type { RequestUrl } from './request-url.js';

type ResourceTarget = Extract<RequestTarget, { type: 'resource' }>;

/** The API verb of a request (RequestInfo.Verb), from method, path shape and ?watch. */
function verbOf(method: string, target: ResourceTarget, query: Query): Verb | undefined {
  const hasName = target.name !== undefined;
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (query.bool('watch')) return 'watch';
      return hasName ? 'get' : 'list';
    case 'POST':
      return hasName ? undefined : 'create';
    case 'PUT':
      return hasName ? 'update' : undefined;
    case 'PATCH':
      return hasName ? 'patch' : undefined;
    case 'DELETE':
      return hasName ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

export async function routeResource(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: ResourceTarget,
  url: RequestUrl,
  user: UserInfo,
): Promise<void> {
  const store = ctx.registry.lookup(target.group, target.version, target.resource);
  if (store === undefined) throw notFoundPath();
  const info = store.info;
  if (!info.namespaced && target.namespace !== undefined) throw notFoundPath();
  let sub: SubresourceInfo | undefined;
  if (target.subresource !== undefined) {
    sub = info.subresources.find((s) => s.name === target.subresource);
    if (sub === undefined || target.name === undefined) throw notFoundPath();
  }
  const query = new Query(url.searchParams);
  const verb = verbOf(req.method ?? 'GET', target, query);
  const allowed = sub?.verbs ?? info.verbs;
  if (verb === undefined || !allowed.includes(verb)) {
    throw methodNotAllowedRoute();
  }
  const r: ResourceRequest = {
    ctx,
    req,
    res,
    store,
    namespace: info.namespaced ? target.namespace : undefined,
    name: target.name,
    subresource: target.subresource,
    query,
    format: negotiate(req.headers.accept),
    user,
  };
  // A namespaced collection read across all namespaces has no namespace; writes always need one.
  if (info.namespaced && r.namespace === undefined && verb !== 'list' && verb !== 'watch') throw notFoundPath();
  const name = target.name ?? '';
  if (sub?.name === 'scale') return handleScale(r, verb as 'get' | 'update' | 'patch', name);
  switch (verb) {
    case 'get':
      return handleGet(r, name);
    case 'list':
      return handleList(r);
    case 'watch':
      return handleWatch(r);
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
