import type { ResourceInfo, SubresourceInfo, Verb } from '../api/resource-info.js';

/**
 * The REST operations of the served resources in a neutral form, rendered by the Swagger 2.0 (v2.ts) and
 * OpenAPI 3.0 (v3.ts) generators. Paths, operation ids, actions and parameters follow kube-apiserver's
 * naming so clients that inspect them (kubectl's field-validation and patch-type checks, explain) behave alike.
 */

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

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
export const STATUS_DEFINITION = `${META}Status`;

export const PATCH_CONTENT_TYPES: readonly string[] = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];
const ANY: readonly string[] = ['*/*'];
const PRODUCES: readonly string[] = ['application/json', 'application/yaml'];
const PRODUCES_STREAM: readonly string[] = [...PRODUCES, 'application/json;stream=watch'];
const PRODUCES_WATCH: readonly string[] = ['application/json', 'application/json;stream=watch'];

/** Kinds whose DELETE answers with the deleted object rather than a Status. */
const DELETE_RETURNS_OBJECT: ReadonlySet<string> = new Set([
  'io.k8s.api.core.v1.Pod',
  'io.k8s.api.core.v1.Service',
  'io.k8s.api.core.v1.PersistentVolume',
  'io.k8s.api.core.v1.PersistentVolumeClaim',
]);

const q = (name: string, type: ParameterSpec['type'], description: string): ParameterSpec => ({
  name,
  in: 'query',
  type,
  description,
});

const P = {
  allowWatchBookmarks: q(
    'allowWatchBookmarks',
    'boolean',
    'Request BOOKMARK watch events; servers may ignore it and send them at their discretion. Ignored outside watches.',
  ),
  continue: q('continue', 'string', 'Token from a previous limited list call, to retrieve the next chunk of results.'),
  dryRun: q('dryRun', 'string', 'When present, modifications are not persisted. Valid value: All.'),
  fieldManager: q('fieldManager', 'string', 'Name of the actor or entity making the change; at most 128 characters.'),
  fieldSelector: q('fieldSelector', 'string', 'Restrict the returned objects by their fields. Defaults to everything.'),
  fieldValidation: q(
    'fieldValidation',
    'string',
    'How to handle unknown or duplicate fields in the request body: Ignore, Warn (the default) or Strict.',
  ),
  force: q('force', 'boolean', 'Force apply requests to take ownership of conflicting fields; only for apply patches.'),
  gracePeriodSeconds: q(
    'gracePeriodSeconds',
    'integer',
    'Seconds before the object is deleted; zero means immediately, unset means the default for the type.',
  ),
  ignoreStoreReadError: q(
    'ignoreStoreReadErrorWithClusterBreakingPotential',
    'boolean',
    'Delete an object that cannot be read from storage, bypassing the normal deletion flow. Dangerous.',
  ),
  labelSelector: q('labelSelector', 'string', 'Restrict the returned objects by their labels. Defaults to everything.'),
  limit: q('limit', 'integer', 'Maximum number of results for a list call; more may be fetched with continue.'),
  orphanDependents: q(
    'orphanDependents',
    'boolean',
    'Deprecated in favour of propagationPolicy: orphan the dependents instead of deleting them.',
  ),
  pretty: q('pretty', 'string', "If 'true', the output is pretty printed."),
  propagationPolicy: q('propagationPolicy', 'string', "Whether and how garbage collection runs: 'Orphan', 'Background' or 'Foreground'."),
  resourceVersion: q('resourceVersion', 'string', 'Constrains the resource versions a request may be served from.'),
  resourceVersionMatch: q('resourceVersionMatch', 'string', 'How resourceVersion applies to list calls: NotOlderThan or Exact.'),
  sendInitialEvents: q(
    'sendInitialEvents',
    'boolean',
    'With watch=true, start the stream with synthetic events for the current state, ending with a bookmark.',
  ),
  timeoutSeconds: q('timeoutSeconds', 'integer', 'Timeout for the list or watch call, regardless of activity.'),
  watch: q('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream.'),
} as const;

const LIST_PARAMETERS: readonly ParameterSpec[] = [
  P.allowWatchBookmarks,
  P.continue,
  P.fieldSelector,
  P.labelSelector,
  P.limit,
  P.resourceVersion,
  P.resourceVersionMatch,
  P.sendInitialEvents,
  P.timeoutSeconds,
  P.watch,
];
const WRITE_PARAMETERS: readonly ParameterSpec[] = [P.dryRun, P.fieldManager, P.fieldValidation];
const PATCH_PARAMETERS: readonly ParameterSpec[] = [...WRITE_PARAMETERS, P.force];
const DELETE_PARAMETERS: readonly ParameterSpec[] = [
  P.dryRun,
  P.gracePeriodSeconds,
  P.ignoreStoreReadError,
  P.orphanDependents,
  P.propagationPolicy,
];
const DELETE_COLLECTION_PARAMETERS: readonly ParameterSpec[] = [
  P.continue,
  P.dryRun,
  P.fieldSelector,
  P.gracePeriodSeconds,
  P.ignoreStoreReadError,
  P.labelSelector,
  P.limit,
  P.orphanDependents,
  P.propagationPolicy,
  P.resourceVersion,
  P.resourceVersionMatch,
  P.sendInitialEvents,
  P.timeoutSeconds,
];

const pathParam = (name: string, description: string): ParameterSpec => ({
  name,
  in: 'path',
  type: 'string',
  description,
  required: true,
});
const NAMESPACE_PARAM = pathParam('namespace', 'object name and auth scope, such as for teams and projects');
const nameParam = (kind: string, what = kind): ParameterSpec => pathParam('name', `name of the ${what}`);

const sortParameters = (params: readonly ParameterSpec[]): ParameterSpec[] => [...params].sort((a, b) => a.name.localeCompare(b.name));

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

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function definitionOf(group: string, version: string, kind: string, resource: ResourceInfo): string {
  if (kind === resource.kind && group === resource.group && version === resource.version) return resource.definition;
  // A subresource's own kind (autoscaling/v1 Scale) follows the standard naming of built-in API packages.
  return `io.k8s.api.${group === '' ? 'core' : group.replace(/\.k8s\.io$/, '').split('.')[0]}.${version}.${kind}`;
}

/** Paths and operations of one resource, its watch paths and its subresources. */
export function resourcePaths(resource: ResourceInfo): PathSpec[] {
  const has = (verb: Verb): boolean => resource.verbs.includes(verb);
  const { group, version, kind, plural } = resource;
  const gvk: GroupVersionKind = { group, version, kind };
  const tag = groupVersionTag(group, version);
  const id = `${groupIdentifier(group)}${capitalize(version)}`;
  const scoped = resource.namespaced ? 'Namespaced' : '';
  const prefix = groupVersionPrefix(group, version);
  const nsPath = resource.namespaced ? '/namespaces/{namespace}' : '';
  const nsParams = resource.namespaced ? [NAMESPACE_PARAM] : [];
  const collection = `${prefix}${nsPath}/${plural}`;
  const item = `${collection}/{name}`;
  const listDefinition = `${resource.definition}List`;
  const deleteDefinition = DELETE_RETURNS_OBJECT.has(resource.definition) ? resource.definition : STATUS_DEFINITION;

  const op = (spec: Omit<OperationSpec, 'tag' | 'gvk'>): OperationSpec => ({ ...spec, tag, gvk });
  const ok = (definition: string, ...extra: [string, string][]): ResponseSpec[] => [
    { code: '200', description: 'OK', definition },
    ...extra.map(([code, description]) => ({ code, description, definition })),
    { code: '401', description: 'Unauthorized' },
  ];

  const paths: PathSpec[] = [];
  const collectionOps: OperationSpec[] = [];
  if (has('list')) {
    collectionOps.push(
      op({
        method: 'get',
        operationId: `list${id}${scoped}${kind}`,
        description: `list or watch objects of kind ${kind}`,
        action: 'list',
        parameters: sortParameters(LIST_PARAMETERS),
        consumes: ANY,
        produces: PRODUCES_STREAM,
        responses: ok(listDefinition),
      }),
    );
  }
  if (has('create')) {
    collectionOps.push(
      op({
        method: 'post',
        operationId: `create${id}${scoped}${kind}`,
        description: `create ${article(kind)} ${kind}`,
        action: 'post',
        parameters: sortParameters(WRITE_PARAMETERS),
        body: { definition: resource.definition, required: true },
        consumes: ANY,
        produces: PRODUCES,
        responses: ok(resource.definition, ['201', 'Created'], ['202', 'Accepted']),
      }),
    );
  }
  if (has('deletecollection')) {
    collectionOps.push(
      op({
        method: 'delete',
        operationId: `delete${id}Collection${scoped}${kind}`,
        description: `delete collection of ${kind}`,
        action: 'deletecollection',
        parameters: sortParameters(DELETE_COLLECTION_PARAMETERS),
        body: { definition: `${META}DeleteOptions`, required: false },
        consumes: ANY,
        produces: PRODUCES,
        responses: ok(STATUS_DEFINITION),
      }),
    );
  }
  if (collectionOps.length > 0) {
    paths.push({ path: collection, parameters: sortParameters([...nsParams, P.pretty]), operations: collectionOps });
  }

  const itemOps: OperationSpec[] = [];
  if (has('get')) {
    itemOps.push(
      op({
        method: 'get',
        operationId: `read${id}${scoped}${kind}`,
        description: `read the specified ${kind}`,
        action: 'get',
        parameters: [],
        consumes: ANY,
        produces: PRODUCES,
        responses: ok(resource.definition),
      }),
    );
  }
  if (has('update')) {
    itemOps.push(
      op({
        method: 'put',
        operationId: `replace${id}${scoped}${kind}`,
        description: `replace the specified ${kind}`,
        action: 'put',
        parameters: sortParameters(WRITE_PARAMETERS),
        body: { definition: resource.definition, required: true },
        consumes: ANY,
        produces: PRODUCES,
        responses: ok(resource.definition, ['201', 'Created']),
      }),
    );
  }
  if (has('patch')) {
    itemOps.push(
      op({
        method: 'patch',
        operationId: `patch${id}${scoped}${kind}`,
        description: `partially update the specified ${kind}`,
        action: 'patch',
        parameters: sortParameters(PATCH_PARAMETERS),
        body: { definition: `${META}Patch`, required: true },
        consumes: PATCH_CONTENT_TYPES,
        produces: PRODUCES,
        responses: ok(resource.definition, ['201', 'Created']),
      }),
    );
  }
  if (has('delete')) {
    itemOps.push(
      op({
        method: 'delete',
        operationId: `delete${id}${scoped}${kind}`,
        description: `delete ${article(kind)} ${kind}`,
        action: 'delete',
        parameters: sortParameters(DELETE_PARAMETERS),
        body: { definition: `${META}DeleteOptions`, required: false },
        consumes: ANY,
        produces: PRODUCES,
        responses: ok(deleteDefinition, ['202', 'Accepted']),
      }),
    );
  }
  if (itemOps.length > 0) {
    paths.push({ path: item, parameters: sortParameters([nameParam(kind), ...nsParams, P.pretty]), operations: itemOps });
  }

  if (resource.namespaced && has('list')) {
    paths.push({
      path: `${prefix}/${plural}`,
      parameters: sortParameters([...LIST_PARAMETERS, P.pretty]),
      operations: [
        op({
          method: 'get',
          operationId: `list${id}${kind}ForAllNamespaces`,
          description: `list or watch objects of kind ${kind}`,
          action: 'list',
          parameters: [],
          consumes: ANY,
          produces: PRODUCES_STREAM,
          responses: ok(listDefinition),
        }),
      ],
    });
  }

  if (has('watch')) paths.push(...watchPaths(resource, op, ok));

  for (const sub of resource.subresources) paths.push(subresourcePath(resource, sub, item, nsParams));
  return paths;
}

type OpFactory = (spec: Omit<OperationSpec, 'tag' | 'gvk'>) => OperationSpec;
type OkFactory = (definition: string, ...extra: [string, string][]) => ResponseSpec[];

function watchPaths(resource: ResourceInfo, op: OpFactory, ok: OkFactory): PathSpec[] {
  const { group, version, kind, plural } = resource;
  const id = `${groupIdentifier(group)}${capitalize(version)}`;
  const scoped = resource.namespaced ? 'Namespaced' : '';
  const prefix = `${groupVersionPrefix(group, version)}/watch`;
  const nsPath = resource.namespaced ? '/namespaces/{namespace}' : '';
  const nsParams = resource.namespaced ? [NAMESPACE_PARAM] : [];
  const watchOp = (operationId: string, action: Action, description: string): OperationSpec =>
    op({
      method: 'get',
      operationId,
      description,
      action,
      parameters: [],
      consumes: ANY,
      produces: PRODUCES_WATCH,
      responses: ok(`${META}WatchEvent`),
    });
  const deprecatedList = `watch individual changes to a list of ${kind}. deprecated: use the 'watch' parameter with a list operation instead.`;
  const paths: PathSpec[] = [
    {
      path: `${prefix}${nsPath}/${plural}`,
      parameters: sortParameters([...LIST_PARAMETERS, ...nsParams, P.pretty]),
      operations: [watchOp(`watch${id}${scoped}${kind}List`, 'watchlist', deprecatedList)],
    },
    {
      path: `${prefix}${nsPath}/${plural}/{name}`,
      parameters: sortParameters([...LIST_PARAMETERS, nameParam(kind), ...nsParams, P.pretty]),
      operations: [
        watchOp(
          `watch${id}${scoped}${kind}`,
          'watch',
          `watch changes to an object of kind ${kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`,
        ),
      ],
    },
  ];
  if (resource.namespaced) {
    paths.push({
      path: `${prefix}/${plural}`,
      parameters: sortParameters([...LIST_PARAMETERS, P.pretty]),
      operations: [watchOp(`watch${id}${kind}ListForAllNamespaces`, 'watchlist', deprecatedList)],
    });
  }
  return paths;
}

function subresourcePath(resource: ResourceInfo, sub: SubresourceInfo, item: string, nsParams: ParameterSpec[]): PathSpec {
  const { group, version, kind } = resource;
  const subGroup = sub.group ?? group;
  const subVersion = sub.version ?? version;
  const subKind = sub.kind ?? kind;
  const gvk: GroupVersionKind = { group: subGroup, version: subVersion, kind: subKind };
  const definition = definitionOf(subGroup, subVersion, subKind, resource);
  const tag = groupVersionTag(group, version);
  const id = `${groupIdentifier(group)}${capitalize(version)}${resource.namespaced ? 'Namespaced' : ''}${kind}${capitalize(sub.name)}`;
  const responses = (...extra: [string, string][]): ResponseSpec[] => [
    { code: '200', description: 'OK', definition },
    ...extra.map(([code, description]) => ({ code, description, definition })),
    { code: '401', description: 'Unauthorized' },
  ];
  const operations: OperationSpec[] = [];
  if (sub.verbs.includes('get')) {
    operations.push({
      method: 'get',
      operationId: `read${id}`,
      description: `read ${sub.name} of the specified ${kind}`,
      tag,
      action: 'get',
      gvk,
      parameters: [],
      consumes: ANY,
      produces: PRODUCES,
      responses: responses(),
    });
  }
  if (sub.verbs.includes('update')) {
    operations.push({
      method: 'put',
      operationId: `replace${id}`,
      description: `replace ${sub.name} of the specified ${kind}`,
      tag,
      action: 'put',
      gvk,
      parameters: sortParameters(WRITE_PARAMETERS),
      body: { definition, required: true },
      consumes: ANY,
      produces: PRODUCES,
      responses: responses(['201', 'Created']),
    });
  }
  if (sub.verbs.includes('patch')) {
    operations.push({
      method: 'patch',
      operationId: `patch${id}`,
      description: `partially update ${sub.name} of the specified ${kind}`,
      tag,
      action: 'patch',
      gvk,
      parameters: sortParameters(PATCH_PARAMETERS),
      body: { definition: `${META}Patch`, required: true },
      consumes: PATCH_CONTENT_TYPES,
      produces: PRODUCES,
      responses: responses(['201', 'Created']),
    });
  }
  return {
    path: `${item}/${sub.name}`,
    parameters: sortParameters([nameParam(kind, subKind === kind ? kind : subKind), ...nsParams, P.pretty]),
    operations,
  };
}

/** Discovery endpoints of one group-version ("/api/v1/", "/apis/apps/v1/"). */
export function groupVersionDiscoveryPath(group: string, version: string): PathSpec {
  return {
    path: `${groupVersionPrefix(group, version)}/`,
    parameters: [],
    operations: [
      {
        method: 'get',
        operationId: `get${groupIdentifier(group)}${capitalize(version)}APIResources`,
        description: 'get available resources',
        tag: groupVersionTag(group, version),
        parameters: [],
        consumes: ['application/json', 'application/yaml'],
        produces: PRODUCES,
        responses: [
          { code: '200', description: 'OK', definition: `${META}APIResourceList` },
          { code: '401', description: 'Unauthorized' },
        ],
      },
    ],
  };
}

/** "/api/" (legacy versions), "/apis/" (group list) or "/apis/<group>/" (one group). */
export function rootDiscoveryPath(target: { root: 'api' } | { root: 'apis' } | { group: string }): PathSpec {
  const spec =
    'root' in target
      ? target.root === 'api'
        ? { path: '/api/', id: 'getCoreAPIVersions', tag: 'core', description: 'get available API versions', def: 'APIVersions' }
        : { path: '/apis/', id: 'getAPIVersions', tag: 'apis', description: 'get available API versions', def: 'APIGroupList' }
      : {
          path: `/apis/${target.group}/`,
          id: `get${groupIdentifier(target.group)}APIGroup`,
          tag: groupVersionTag(target.group, '').replace(/_$/, ''),
          description: 'get information of a group',
          def: 'APIGroup',
        };
  return {
    path: spec.path,
    parameters: [],
    operations: [
      {
        method: 'get',
        operationId: spec.id,
        description: spec.description,
        tag: spec.tag,
        parameters: [],
        consumes: ['application/json', 'application/yaml'],
        produces: PRODUCES,
        responses: [
          { code: '200', description: 'OK', definition: `${META}${spec.def}` },
          { code: '401', description: 'Unauthorized' },
        ],
      },
    ],
  };
}

function article(kind: string): string {
  return /^[AEIOU]/.test(kind) ? 'an' : 'a';
}

/** Group-versions served by the resources, sorted, the core group first. */
export function servedGroupVersions(resources: readonly ResourceInfo[]): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const r of resources) seen.set(`${r.group}/${r.version}`, { group: r.group, version: r.version });
  return [...seen.values()].sort((a, b) => (a.group === b.group ? a.version.localeCompare(b.version) : a.group.localeCompare(b.group)));
}
