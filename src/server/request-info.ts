/** What an API request addresses, parsed from its path (the apiserver's RequestInfo, minus the verb). */
export type RequestTarget =
  | { readonly type: 'discovery-api' }
  | { readonly type: 'discovery-apis' }
  | { readonly type: 'discovery-group'; readonly group: string }
  | { readonly type: 'discovery-version'; readonly group: string; readonly version: string }
  | {
      readonly type: 'resource';
      readonly group: string;
      readonly version: string;
      /** "" for a path with an empty namespace segment (`namespaces//configmaps`): every namespace, as in Kubernetes. */
      readonly namespace: string | undefined;
      readonly resource: string;
      /** "" for an empty name segment followed by a subresource (`pods//status`). */
      readonly name: string | undefined;
      readonly subresource: string | undefined;
      /**
       * The verb a deprecated "/watch/" or "/proxy/" segment before the resource names (RequestInfoFactory's special
       * verbs): still routed for watches in 1.32, never for proxy.
       */
      readonly pathVerb: 'watch' | 'proxy' | undefined;
      /**
       * False when no route of kube-apiserver can take the path (an empty group, version, resource or subresource
       * segment, or segments past the subresource): it is authorized as parsed, then answered 404.
       */
      readonly routable: boolean;
    }
  | { readonly type: 'unknown' };

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
const PATH_VERBS = new Set(['watch', 'proxy']);

/** Go's splitPath: slashes trimmed at both ends only, so inner empty segments stay. */
function splitPath(pathname: string): string[] {
  let start = 0;
  let end = pathname.length;
  while (start < end && pathname.charCodeAt(start) === 0x2f) start++;
  while (end > start && pathname.charCodeAt(end - 1) === 0x2f) end--;
  return start === end ? [] : pathname.slice(start, end).split('/');
}

/**
 * RequestInfoFactory on the decoded path: segments are taken as they are ("." and ".." are names like any other,
 * rejected later where a name is validated), and "namespaces/{ns}/{resource}" addresses namespaced content.
 */
export function parseRequestPath(pathname: string): RequestTarget {
  const parts = splitPath(pathname);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api') {
    if (parts.length === 1) return { type: 'discovery-api' };
    group = '';
    version = parts[1] as string;
    if (parts.length === 2) return version === '' ? { type: 'unknown' } : { type: 'discovery-version', group, version };
    rest = parts.slice(2);
  } else if (parts[0] === 'apis') {
    if (parts.length === 1) return { type: 'discovery-apis' };
    group = parts[1] as string;
    if (parts.length === 2) return { type: 'discovery-group', group };
    version = parts[2] as string;
    if (parts.length === 3) return group === '' || version === '' ? { type: 'unknown' } : { type: 'discovery-version', group, version };
    rest = parts.slice(3);
  } else {
    return { type: 'unknown' };
  }
  let pathVerb: 'watch' | 'proxy' | undefined;
  if (PATH_VERBS.has(rest[0] as string)) {
    // kube-apiserver fails such a path with a 500 (no resource after the verb): nothing serves it.
    if (rest.length < 2) return { type: 'unknown' };
    pathVerb = rest[0] as 'watch' | 'proxy';
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  // /namespaces/{ns}/{resource}/... addresses namespaced content; /namespaces/{name}[/status|/finalize] the namespace.
  if (rest[0] === 'namespaces' && rest.length >= 3 && !NAMESPACE_SUBRESOURCES.has(rest[2] as string)) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const resource = rest[0] as string;
  // A proxy path takes no subresource; no route serves it since the proxy verb's removal.
  const subresource = pathVerb === 'proxy' ? undefined : rest[2];
  const routable =
    pathVerb !== 'proxy' &&
    (parts[0] === 'api' || group !== '') &&
    version !== '' &&
    resource !== '' &&
    subresource !== '' &&
    rest.length <= 3;
  return { type: 'resource', group, version, namespace, resource, name: rest[1], subresource, pathVerb, routable };
}
