import type { ResourceInfo } from '../api/resource-info.js';
import { groupIdentifier, groupVersionPrefix, groupVersionTag, META, type PathSpec, PRODUCES, capitalize } from './operation-spec.js';

/** The discovery endpoints as REST paths, and the group-versions they describe. */

function discoveryGet(path: string, operationId: string, tag: string, description: string, definition: string): PathSpec {
  return {
    path,
    parameters: [],
    operations: [
      {
        method: 'get',
        operationId,
        description,
        tag,
        parameters: [],
        consumes: ['application/json', 'application/yaml'],
        produces: PRODUCES,
        responses: [
          { code: '200', description: 'OK', definition: `${META}${definition}` },
          { code: '401', description: 'Unauthorized' },
        ],
      },
    ],
  };
}

/** Discovery endpoints of one group-version ("/api/v1/", "/apis/apps/v1/"). */
export function groupVersionDiscoveryPath(group: string, version: string): PathSpec {
  return discoveryGet(
    `${groupVersionPrefix(group, version)}/`,
    `get${groupIdentifier(group)}${capitalize(version)}APIResources`,
    groupVersionTag(group, version),
    'get available resources',
    'APIResourceList',
  );
}

/** "/api/" (legacy versions), "/apis/" (group list) or "/apis/<group>/" (one group). */
export function rootDiscoveryPath(target: { root: 'api' } | { root: 'apis' } | { group: string }): PathSpec {
  if (!('root' in target)) {
    return discoveryGet(
      `/apis/${target.group}/`,
      `get${groupIdentifier(target.group)}APIGroup`,
      groupVersionTag(target.group, '').replace(/_$/, ''),
      'get information of a group',
      'APIGroup',
    );
  }
  return target.root === 'api'
    ? discoveryGet('/api/', 'getCoreAPIVersions', 'core', 'get available API versions', 'APIVersions')
    : discoveryGet('/apis/', 'getAPIVersions', 'apis', 'get available API versions', 'APIGroupList');
}

/** Group-versions served by the resources, sorted, the core group first. */
export function servedGroupVersions(resources: readonly ResourceInfo[]): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const r of resources) seen.set(`${r.group}/${r.version}`, { group: r.group, version: r.version });
  return [...seen.values()].sort((a, b) => (a.group === b.group ? a.version.localeCompare(b.version) : a.group.localeCompare(b.group)));
}
