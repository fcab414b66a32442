import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, methodNotAllowedRoute, notFoundPath } from '../api/errors.js';
import { goQuote } from '../selectors/go-quote.js';
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

/**
 * The API verb of the route a request takes: go-restful routes on method and path shape (a name segment, even an
 * empty one, means the item's routes), and only a collection GET looks at ?watch. undefined: no route (405).
 */
function verbOf(method: string, target: ResourceTarget, query: Query): Verb | undefined {
  const hasName = target.name !== undefined;
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (hasName) return 'get';
      return query.bool('watch') ? 'watch' : 'list';
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

const NAME_MAY_NOT_BE = ['.', '..'];
const NAME_MAY_NOT_CONTAIN = ['/', '%'];

/** path.IsValidPathSegmentName, which the store's key function applies to the name of every item request. */
function checkPathSegmentName(name: string): void {
  if (name === '') throw badRequest('name must be provided');
  let msgs: string[];
  if (NAME_MAY_NOT_BE.includes(name)) msgs = [`may not be '${name}'`];
  else msgs = NAME_MAY_NOT_CONTAIN.filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
  if (msgs.length > 0) throw badRequest(`Name parameter invalid: ${goQuote(name)}: ${msgs.join(';')}`);
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
  // An empty namespace segment reaches the namespaced route with namespace "": reads and deletecollection then
  // span every namespace (as authorized), while a request on one object has no key to address.
  const namespace = target.namespace === '' ? undefined : target.namespace;
  if (target.namespace === '' && verb !== 'list' && verb !== 'watch' && verb !== 'deletecollection') {
    throw badRequest('Namespace parameter required.');
  }
  if (target.name !== undefined) checkPathSegmentName(target.name);
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
  // A namespaced collection read across all namespaces has no namespace; writes always need one.
  if (info.namespaced && target.namespace === undefined && verb !== 'list' && verb !== 'watch') throw notFoundPath();
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
