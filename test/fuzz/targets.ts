import type { Attributes } from './actors.js';
import type { Kind } from './bodies.js';

// The resources the fuzz suite addresses and how their paths are built. A path built here from plain segments is
// "canonical": its RBAC attributes are known, so the invariants can tell what the answer must be.

export interface Target {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** The kind of the bodies written to it; resources only read or deleted by the fuzzer have none. */
  readonly kind: Kind | undefined;
  readonly namespaced: boolean;
  readonly subresources: readonly string[];
}

export const CONFIGMAPS: Target = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
  subresources: [],
};
export const SECRETS: Target = { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true, subresources: [] };
export const DEPLOYMENTS: Target = {
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  kind: 'Deployment',
  namespaced: true,
  subresources: ['status', 'scale'],
};
export const NAMESPACES: Target = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
  subresources: ['status', 'finalize'],
};

/** Read, listed and deleted by the fuzzer, but only the world writes them: their RBAC is the point. */
const OTHERS: readonly Target[] = [
  { group: '', version: 'v1', resource: 'pods', kind: undefined, namespaced: true, subresources: ['status', 'log', 'exec'] },
  { group: '', version: 'v1', resource: 'serviceaccounts', kind: undefined, namespaced: true, subresources: ['token'] },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings', kind: undefined, namespaced: true, subresources: [] },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: undefined, namespaced: false, subresources: [] },
  { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: undefined, namespaced: true, subresources: [] },
];

export const WRITABLE: readonly Target[] = [CONFIGMAPS, CONFIGMAPS, SECRETS, DEPLOYMENTS, NAMESPACES];
export const ALL_TARGETS: readonly Target[] = [...WRITABLE, ...OTHERS];

/** Whether a string goes into a path segment as itself, so the server reads back exactly that name. */
export function plainSegment(s: string): boolean {
  return /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(s) && s !== '.' && s !== '..';
}

export function groupPrefix(t: Target): string {
  return t.group === '' ? `/api/${t.version}` : `/apis/${t.group}/${t.version}`;
}

/** The path of a collection or object; segments are percent-encoded, as clients do. */
export function resourcePath(t: Target, namespace: string | undefined, name?: string, subresource?: string): string {
  let path = groupPrefix(t);
  if (t.namespaced && namespace !== undefined) path += `/namespaces/${encodeURIComponent(namespace)}`;
  path += `/${t.resource}`;
  if (name !== undefined) path += `/${encodeURIComponent(name)}`;
  if (name !== undefined && subresource !== undefined) path += `/${subresource}`;
  return path;
}

function verbOf(method: string, named: boolean): string | undefined {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return named ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

/**
 * The RBAC attributes of a request built from plain segments, or undefined when the path leaves room for reading
 * (hostile names, methods RBAC has no verb for). A namespace's own requests are attributed to that namespace.
 */
export function intentOf(
  method: string,
  t: Target,
  namespace: string | undefined,
  name?: string,
  subresource?: string,
): Attributes | undefined {
  const verb = verbOf(method, name !== undefined);
  if (verb === undefined) return undefined;
  if (namespace !== undefined && !plainSegment(namespace)) return undefined;
  if (name !== undefined && !plainSegment(name)) return undefined;
  const ns = t.resource === 'namespaces' && t.group === '' ? (name ?? '') : t.namespaced ? (namespace ?? '') : '';
  return { verb, group: t.group, resource: t.resource, subresource: name === undefined ? '' : (subresource ?? ''), namespace: ns };
}
