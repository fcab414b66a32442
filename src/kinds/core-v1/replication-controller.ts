import { formatLabels } from '../../tables/cell-format.js';
import {
  replicationControllerSpecReplicas,
  replicationControllerSpecSelector,
  replicationControllerStatusReadyReplicas,
  replicationControllerStatusReplicas,
} from '../../tables/column-descriptions.js';
import type { Printer } from '../../tables/printer.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { fieldAt, integerAttr, notSupported } from '../define/field-selectors.js';
import { resourceInfo, SCALE, STATUS } from '../define/resource.js';
import { defaultReplicationController, STATUS_ZERO_VALUES } from './types/kind-defaults.js';
import { replicatedPrinter } from './types/workload-printing.js';

const REPLICATION_CONTROLLER_PRINTER: Printer = replicatedPrinter(
  {
    desired: replicationControllerSpecReplicas,
    current: replicationControllerStatusReplicas,
    ready: replicationControllerStatusReadyReplicas,
    selector: replicationControllerSpecSelector,
  },
  formatLabels,
);

/** core/v1 ReplicationController. */
export const REPLICATION_CONTROLLER: KindDefinition = {
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'ReplicationController',
    plural: 'replicationcontrollers',
    namespaced: true,
    shortNames: ['rc'],
    categories: ['all'],
    subresources: [SCALE, STATUS],
  }),
  strategy: {
    specGeneration: true,
    // core/v1 keeps the pre-garbage-collector default: deleting a controller leaves its pods.
    gcPolicy: 'OrphanDependents',
    initialStatus: () => ({}),
    statusZeroValues: STATUS_ZERO_VALUES.replicationcontrollers,
    defaults: defaultReplicationController,
  },
  fieldSelectors: {
    conversion: { labels: new Set(['metadata.name', 'metadata.namespace', 'status.replicas']), error: notSupported },
    attrs: (obj) => ({ 'status.replicas': integerAttr(fieldAt(obj, 'status', 'replicas')) }),
  },
  printer: REPLICATION_CONTROLLER_PRINTER,
};
