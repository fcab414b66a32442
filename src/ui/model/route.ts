export type Route =
  | { readonly view: 'home' }
  | { readonly view: 'namespaces' }
  | { readonly view: 'object'; readonly resource: string; readonly namespace?: string; readonly name: string };

function segments(hash: string): string[] | undefined {
  try {
    return hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/** `#/namespaces/NS/RESOURCE/NAME`, `#/cluster/RESOURCE/NAME`, `#/stuck-namespaces`, else the start page. */
export function parseRoute(hash: string): Route {
  const parts = segments(hash) ?? [];
  if (parts[0] === 'namespaces' && parts.length === 4)
    return { view: 'object', namespace: parts[1] ?? '', resource: parts[2] ?? '', name: parts[3] ?? '' };
  if (parts[0] === 'cluster' && parts.length === 3) return { view: 'object', resource: parts[1] ?? '', name: parts[2] ?? '' };
  if (parts[0] === 'stuck-namespaces') return { view: 'namespaces' };
  return { view: 'home' };
}
