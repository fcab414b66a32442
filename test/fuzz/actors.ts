// Who sends the fuzz requests, what RBAC lets each of them do, and the model of it the invariants judge by.

export const NS_A = 'fz-a';
export const NS_B = 'fz-b';
/** ConfigMaps here are reached only by the admin's probed requests (see harness: nothing half-written). */
export const NS_PROBE = 'fz-probe';
/** Written only before the run, by the admin: any change afterwards is a write RBAC should have refused. */
export const NS_CANARY = 'fz-canary';

export type ActorName = 'admin' | 'editor' | 'reader' | 'nobody' | 'anonymous' | 'bad-token';

export interface Actor {
  readonly name: ActorName;
  /** The bearer token sent (none for anonymous). */
  readonly token: string | undefined;
  /** The user name RBAC sees. */
  readonly user: string;
}

/** What RBAC is asked about a resource request (RequestInfo's attributes). */
export interface Attributes {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
}

export const EDITOR_GROUPS = ['', 'apps'];
export const EDITOR_RESOURCES = ['configmaps', 'secrets', 'deployments', 'deployments/scale'];

export function actors(adminToken: string): readonly Actor[] {
  return [
    { name: 'admin', token: adminToken, user: 'cascade-admin' },
    // Every verb on a few resources, in namespace A only.
    { name: 'editor', token: 'fz-editor-token-1c9e', user: 'fz-editor' },
    // get/list/watch of ConfigMaps in every namespace, nothing else.
    { name: 'reader', token: 'fz-reader-token-7a2b', user: 'fz-reader' },
    // Authenticated, without a single grant.
    { name: 'nobody', token: 'fz-nobody-token-4d0f', user: 'fz-nobody' },
    { name: 'anonymous', token: undefined, user: 'system:anonymous' },
    { name: 'bad-token', token: 'no-such-token-0000', user: '' },
  ];
}

/** Whether RBAC (as set up by the world) lets `actor` do `a`; the admin is system:masters. */
export function allowed(actor: ActorName, a: Attributes): boolean {
  const resource = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  switch (actor) {
    case 'admin':
      return true;
    case 'editor':
      return a.namespace === NS_A && EDITOR_GROUPS.includes(a.group) && EDITOR_RESOURCES.includes(resource);
    case 'reader':
      return a.group === '' && resource === 'configmaps' && ['get', 'list', 'watch'].includes(a.verb);
    default:
      return false;
  }
}

/**
 * The answer a refused request must get: 401 for a token nobody issued and for requests without credentials (which
 * Cascade lets reach only health and version, docs/security.md), 403 for everyone authenticated.
 */
export function refusalCode(actor: ActorName): number {
  return actor === 'bad-token' || actor === 'anonymous' ? 401 : 403;
}
