import type { KubeObject } from '../../api/types.js';
import { age } from '../cell-format.js';
import {
  nodeStatusAddresses,
  nodeSystemInfoContainerRuntimeVersion,
  nodeSystemInfoKernelVersion,
  nodeSystemInfoKubeletVersion,
  nodeSystemInfoOsImage,
} from '../column-descriptions.js';
import { get, list, text } from '../object-fields.js';
import { column, type Printer } from '../printer.js';
import { AGE_COLUMN, NAME_COLUMN } from './common-columns.js';

const ROLE_LABEL_PREFIX = 'node-role.kubernetes.io/';
const LEGACY_ROLE_LABEL = 'kubernetes.io/role';
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Ready/NotReady from the Ready condition (last one wins), "Unknown" without it, plus SchedulingDisabled. */
function nodeStatus(node: KubeObject): string {
  let ready: unknown;
  for (const condition of list(get(node, 'status', 'conditions'))) {
    if (text(get(condition, 'type')) === 'Ready') ready = condition;
  }
  const status: string[] = [];
  if (ready !== undefined) status.push(text(get(ready, 'status')) === 'True' ? 'Ready' : 'NotReady');
  else status.push('Unknown');
  if (get(node, 'spec', 'unschedulable') === true) status.push('SchedulingDisabled');
  return status.join(',');
}

function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
    if (key.startsWith(ROLE_LABEL_PREFIX)) {
      const role = key.slice(ROLE_LABEL_PREFIX.length);
      if (role !== '') roles.add(role);
    } else if (key === LEGACY_ROLE_LABEL && value !== '') {
      roles.add(value);
    }
  }
  const joined = [...roles].sort(byCodeUnit).join(',');
  return joined === '' ? '<none>' : joined;
}

function address(node: KubeObject, type: string): string {
  const found = list(get(node, 'status', 'addresses')).find((entry) => text(get(entry, 'type')) === type);
  return found === undefined ? '<none>' : text(get(found, 'address'));
}

const orUnknown = (value: string): string => (value === '' ? '<unknown>' : value);

export const NODE_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    AGE_COLUMN,
    column('Version', 'string', nodeSystemInfoKubeletVersion),
    column('Internal-IP', 'string', nodeStatusAddresses, { wide: true }),
    column('External-IP', 'string', nodeStatusAddresses, { wide: true }),
    column('OS-Image', 'string', nodeSystemInfoOsImage, { wide: true }),
    column('Kernel-Version', 'string', nodeSystemInfoKernelVersion, { wide: true }),
    column('Container-Runtime', 'string', nodeSystemInfoContainerRuntimeVersion, { wide: true }),
  ],
  row: (node, now) => [
    node.metadata.name ?? '',
    nodeStatus(node),
    nodeRoles(node),
    age(node.metadata.creationTimestamp, now),
    text(get(node, 'status', 'nodeInfo', 'kubeletVersion')),
    address(node, 'InternalIP'),
    address(node, 'ExternalIP'),
    orUnknown(text(get(node, 'status', 'nodeInfo', 'osImage'))),
    orUnknown(text(get(node, 'status', 'nodeInfo', 'kernelVersion'))),
    orUnknown(text(get(node, 'status', 'nodeInfo', 'containerRuntimeVersion'))),
  ],
};
