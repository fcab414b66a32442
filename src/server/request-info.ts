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
      readonly namespace: string | undefined;
      readonly resource: string;
      readonly name: string | undefined;
      readonly subresource: string | undefined;
    }
  | { readonly type: 'unknown' };

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

export function parseRequestPath(pathname: string): RequestTarget {
  const parts = pathname.split('/').filter((p) => p !== '');
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api') {
    if (parts.length === 1) return { type: 'discovery-api' };
    group = '';
    version = parts[1] ?? '';
    rest = parts.slice(2);
  } else if (parts[0] === 'apis') {
    if (parts.length === 1) return { type: 'discovery-apis' };
    group = parts[1] ?? '';
    if (parts.length === 2) return { type: 'discovery-group', group };
    version = parts[2] ?? '';
    rest = parts.slice(3);
  } else {
    return { type: 'unknown' };
  }
  if (rest.length === 0) return { type: 'discovery-version', group, version };
  let namespace: string | undefined;
  // /namespaces/{ns}/{resource}/... addresses namespaced content; /namespaces/{name}[/status|/finalize] the namespace.
  if (rest[0] === 'namespaces' && rest.length >= 3 && !(rest.length === 3 && NAMESPACE_SUBRESOURCES.has(rest[2] ?? ''))) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  if (rest.length > 3) return { type: 'unknown' };
  const decode = (s: string | undefined): string | undefined => (s === undefined ? undefined : decodeURIComponent(s));
  return {
    type: 'resource',
    group,
    version,
    namespace: decode(namespace),
    resource: rest[0] ?? '',
    name: decode(rest[1]),
    subresource: rest[2],
  };
}
