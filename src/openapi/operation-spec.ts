/**
 * The REST operations of the served resources in a neutral form, rendered by the Swagger 2.0 (v2.ts) and
 * OpenAPI 3.0 (v3.ts) generators, with the naming rules both share. Paths, operation ids, actions and parameters
 * follow kube-apiserver's naming so clients that inspect them (kubectl's field-validation and patch-type checks,
 * explain) behave alike.
 */

import type { ResourceInfo } from '../api/resource-info.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Action = 'get' | 'list' | 'watch' | 'watchlist' | 'post' | 'put' | 'patch' | 'delete' | 'deletecollection';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface ParameterSpec {
  name: string;
  in: 'query' | 'path';
  type: 'string' | 'boolean' | 'integer';
  description: string;
  required?: boolean;
}

export interface ResponseSpec {
  code: string;
  description: string;
  /** Definition name of the response body. */
  definition?: string;
  /** A body that is no definition (pods/log answers text): its plain schema type. */
  schemaType?: 'string';
}

export interface OperationSpec {
  method: Method;
  operationId: string;
  description: string;
  tag: string;
  action?: Action;
  gvk?: GroupVersionKind;
  parameters: ParameterSpec[];
  body?: { definition: string; required: boolean };
  consumes: readonly string[];
  produces: readonly string[];
  responses: ResponseSpec[];
}

export interface PathSpec {
  path: string;
  /** Parameters shared by every operation of the path. */
  parameters: ParameterSpec[];
  operations: OperationSpec[];
}

export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
export const STATUS_DEFINITION = `${META}Status`;

const PATCH_CONTENT_TYPES: readonly string[] = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

/**
 * Custom resources have no Go struct to carry patch strategies, so apiextensions-apiserver serves (and publishes) no
 * strategic merge patch for them; kubectl reads this list to decide whether `apply` may send one.
 */
const CUSTOM_PATCH_CONTENT_TYPES: readonly string[] = PATCH_CONTENT_TYPES.filter((t) => !t.startsWith('application/strategic'));

/** The patch media types a resource's PATCH operations consume. */
export function patchContentTypes(resource: ResourceInfo): readonly string[] {
  return resource.custom === true ? CUSTOM_PATCH_CONTENT_TYPES : PATCH_CONTENT_TYPES;
}
export const ANY: readonly string[] = ['*/*'];
export const PRODUCES: readonly string[] = ['application/json', 'application/yaml'];
export const PRODUCES_STREAM: readonly string[] = [...PRODUCES, 'application/json;stream=watch'];
export const PRODUCES_WATCH: readonly string[] = ['application/json', 'application/json;stream=watch'];

/** "200 OK" with the given body, any further successful codes with the same body, then "401 Unauthorized". */
export function okResponses(definition: string, ...extra: [string, string][]): ResponseSpec[] {
  return [
    { code: '200', description: 'OK', definition },
    ...extra.map(([code, description]) => ({ code, description, definition })),
    { code: '401', description: 'Unauthorized' },
  ];
}

/** "rbac.authorization.k8s.io" → "RbacAuthorization", "" → "Core": the group part of operation ids. */
export function groupIdentifier(group: string): string {
  if (group === '') return 'Core';
  return group
    .replace(/\.k8s\.io$/, '')
    .split(/[.-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** "core_v1", "apps_v1", "rbacAuthorization_v1": the operation tag of a group-version. */
export function groupVersionTag(group: string, version: string): string {
  const id = groupIdentifier(group);
  return `${id.charAt(0).toLowerCase()}${id.slice(1)}_${version}`;
}

/** "/api/v1" or "/apis/<group>/<version>". */
export function groupVersionPrefix(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

export const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
