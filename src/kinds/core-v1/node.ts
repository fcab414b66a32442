import type { KubeObject } from '../../api/types.js';
import { age } from '../../tables/cell-format.js';
import {
  nodeStatusAddresses,
  nodeSystemInfoContainerRuntimeVersion,
  nodeSystemInfoKernelVersion,
  nodeSystemInfoKubeletVersion,
  nodeSystemInfoOsImage,
} from '../../tables/column-descriptions.js';
import { get, list, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { fieldAt, flagAttr, notSupported } from '../define/field-selectors.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { defaultNode, STATUS_ZERO_VALUES } from './types/kind-defaults.js';

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

const NODE_PRINTER: Printer = {
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

/** core/v1 Node. */
export const NODE: KindDefinition = {
  resource: resourceInfo({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false, shortNames: ['no'], subresources: [STATUS] }),
  strategy: { initialStatus: 'keep', defaults: defaultNode, statusZeroValues: STATUS_ZERO_VALUES.nodes },
  fieldSelectors: {
    conversion: { labels: new Set(['metadata.name', 'spec.unschedulable']), error: notSupported },
    attrs: (obj) => ({ 'spec.unschedulable': flagAttr(fieldAt(obj, 'spec', 'unschedulable')) }),
  },
  printer: NODE_PRINTER,
};
