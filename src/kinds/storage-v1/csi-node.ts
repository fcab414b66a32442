import { kindDefinition, listDefinition, mergeMapList, ref, str, stringArray } from '../../openapi/builders/group-builders.js';
import { int32 } from '../../openapi/builders/shorthand.js';
import { type Definitions, definitionRef } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, list } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateCSINode, validateCSINodeUpdate } from './csi-node-validation.js';

const P = 'io.k8s.api.storage.v1.';

const DEFINITIONS: Definitions = {
  [`${P}CSINode`]: kindDefinition({
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'CSINode',
    description: 'CSINode lists the CSI drivers installed on the node of the same name; the kubelet maintains it.',
    properties: { spec: ref(`${P}CSINodeSpec`, 'The CSI drivers of the node.') },
    required: ['spec'],
  }),
  [`${P}CSINodeList`]: listDefinition('storage.k8s.io', 'v1', 'CSINode', `${P}CSINode`),
  [`${P}CSINodeSpec`]: {
    type: 'object',
    description: 'The CSI drivers installed on a node.',
    properties: { drivers: mergeMapList(definitionRef(`${P}CSINodeDriver`), 'name', 'The CSI drivers of the node, by name.') },
    required: ['drivers'],
  },
  [`${P}CSINodeDriver`]: {
    type: 'object',
    description: 'One CSI driver installed on a node.',
    properties: {
      allocatable: ref(`${P}VolumeNodeResources`, 'Volume resources of the node available for scheduling.'),
      name: str('Name of the CSI driver.'),
      nodeID: str('The node as the driver names it.'),
      topologyKeys: stringArray('Topology keys the driver supports.', { 'x-kubernetes-list-type': 'atomic' }),
    },
    required: ['name', 'nodeID'],
  },
  [`${P}VolumeNodeResources`]: {
    type: 'object',
    description: 'Limits on the volumes of a node for scheduling.',
    properties: { count: int32('Maximum number of unique volumes of the driver on the node; unbounded when unset.') },
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}CSINode`]: { tags: { metadata: 1, spec: 2 } },
  [`${P}CSINodeList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}CSINodeSpec`]: { tags: { drivers: 1 } },
  [`${P}CSINodeDriver`]: { tags: { name: 1, nodeID: 2, topologyKeys: 3, allocatable: 4 } },
  [`${P}VolumeNodeResources`]: { tags: { count: 1 }, pointers: ['count'] },
};

/** storage.k8s.io/v1 CSINode. */
export const CSI_NODE: KindDefinition = {
  resource: resourceInfo({ group: 'storage.k8s.io', version: 'v1', kind: 'CSINode', plural: 'csinodes', namespaced: false }),
  strategy: { validate: validateCSINode, validateUpdate: validateCSINodeUpdate },
  printer: {
    style: 'printer',
    columns: [NAME_COLUMN, column('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node'), AGE_COLUMN],
    row: (node, now) => [node.metadata.name ?? '', list(get(node, 'spec', 'drivers')).length, age(node.metadata.creationTimestamp, now)],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
