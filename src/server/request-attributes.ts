import type { AuthorizationAttributes } from '../auth/authorizer.js';
import type { UserInfo } from '../api/user.js';
import { goBool, parseInt64 } from '../api/go-strconv.js';
import { parseFieldSelector } from '../selectors/field-selector.js';
import { parseLabelSelector } from '../selectors/label-selector.js';
import { pathSegmentNameErrors } from './path-segment.js';
import type { RequestTarget } from './request-info.js';
import type { RequestUrl } from '../api/request-url.js';

type ResourceTarget = Extract<RequestTarget, { type: 'resource' }>;

/**
 * The verb an authorizer sees for a resource request (RequestInfoFactory's mapping): it exists for every method,
 * so a malformed request (POST to a name) is authorized before the router refuses it, as in kube-apiserver.
 */
export function resourceVerb(method: string, target: ResourceTarget, watch: boolean): string {
  // A deprecated /watch/ (or /proxy/) path names its verb whatever the method.
  if (target.pathVerb !== undefined) return target.pathVerb;
  // An empty name segment (`pods//status`) counts as no name, as in RequestInfoFactory.
  const hasName = target.name !== undefined && target.name !== '';
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (hasName) return 'get';
      return watch ? 'watch' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return hasName ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}

/** ?watch turns a GET of a collection into a watch unless it is "0" or "false" (apimachinery's boolean conversion). */
function isWatch(url: RequestUrl): boolean {
  return goBool(url.searchParams.get('watch'));
}

/** The request's verb as the filters see it: the resource verb, or the lower-cased method of a non-resource path. */
export function requestVerb(method: string, url: RequestUrl, target: RequestTarget): string {
  return target.type === 'resource' ? resourceVerb(method, target, isWatch(url)) : method.toLowerCase();
}

/**
 * The object a list or watch names through its field selector (RequestInfoFactory): the value of its first
 * `metadata.name=`/`==` term once the query decodes as ListOptions, so a user granted resourceNames can watch that
 * one object. A query that fails to decode, or a name that is no valid path segment, names nothing.
 */
export function fieldSelectorName(params: URLSearchParams): string {
  const fieldSelector = params.get('fieldSelector');
  if (fieldSelector === null || !fieldSelector.includes('metadata.name')) return '';
  let name: string | undefined;
  try {
    for (const numeric of ['timeoutSeconds', 'limit']) {
      const value = params.get(numeric);
      if (value !== null) parseInt64(value);
    }
    parseLabelSelector(params.get('labelSelector') ?? '');
    name = parseFieldSelector(fieldSelector).requiresExactMatch('metadata.name');
  } catch {
    return '';
  }
  return name === undefined || pathSegmentNameErrors(name).length > 0 ? '' : name;
}

/** The name an authorizer sees: the path's, or for a list or watch of a collection, its field selector's. */
function authorizedName(verb: string, url: RequestUrl, target: ResourceTarget): string {
  const name = target.name ?? '';
  if (name !== '' || target.pathVerb !== undefined || (verb !== 'list' && verb !== 'watch')) return name;
  return fieldSelectorName(url.searchParams);
}

/** What the authorizer decides on for one HTTP request, given its requestVerb(). */
export function requestAttributes(verb: string, url: RequestUrl, target: RequestTarget, user: UserInfo): AuthorizationAttributes {
  if (target.type !== 'resource') return { user, resourceRequest: false, verb: verb === 'head' ? 'get' : verb, path: url.pathname };
  return {
    user,
    resourceRequest: true,
    verb,
    apiGroup: target.group,
    apiVersion: target.version,
    resource: target.resource,
    subresource: target.subresource ?? '',
    // A namespace object's own requests are cluster-scoped but carry their name as the namespace (RequestInfo does).
    namespace: target.namespace ?? (target.resource === 'namespaces' && target.group === '' ? (target.name ?? '') : ''),
    name: authorizedName(verb, url, target),
  };
}
