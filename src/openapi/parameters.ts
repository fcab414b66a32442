import type { ParameterSpec } from './operation-spec.js';

/** The query and path parameters of the REST operations, with kube-apiserver's names and meanings. */

const q = (name: string, type: ParameterSpec['type'], description: string): ParameterSpec => ({
  name,
  in: 'query',
  type,
  description,
});

export const P = {
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

export const LIST_PARAMETERS: readonly ParameterSpec[] = [
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
export const WRITE_PARAMETERS: readonly ParameterSpec[] = [P.dryRun, P.fieldManager, P.fieldValidation];
export const PATCH_PARAMETERS: readonly ParameterSpec[] = [...WRITE_PARAMETERS, P.force];
export const DELETE_PARAMETERS: readonly ParameterSpec[] = [
  P.dryRun,
  P.gracePeriodSeconds,
  P.ignoreStoreReadError,
  P.orphanDependents,
  P.propagationPolicy,
];
export const DELETE_COLLECTION_PARAMETERS: readonly ParameterSpec[] = [
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
export const NAMESPACE_PARAM = pathParam('namespace', 'object name and auth scope, such as for teams and projects');
export const nameParam = (what: string): ParameterSpec => pathParam('name', `name of the ${what}`);

export const sortParameters = (params: readonly ParameterSpec[]): ParameterSpec[] =>
  [...params].sort((a, b) => a.name.localeCompare(b.name));
