import { formatLabelSelector } from '../../tables/cell-format.js';
import {
  replicaSetSpecReplicas,
  replicaSetSpecSelector,
  replicaSetStatusReadyReplicas,
  replicaSetStatusReplicas,
} from '../../tables/column-descriptions.js';
import type { Printer } from '../../tables/printer.js';
import { defaultWorkload, STATUS_ZERO_VALUES } from '../core-v1/types/kind-defaults.js';
import { replicatedPrinter } from '../core-v1/types/workload-printing.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { fieldAt, integerAttr } from '../define/field-selectors.js';
import { resourceInfo, SCALE, STATUS } from '../define/resource.js';

const REPLICA_SET_PRINTER: Printer = replicatedPrinter(
  {
    desired: replicaSetSpecReplicas,
    current: replicaSetStatusReplicas,
    ready: replicaSetStatusReadyReplicas,
    selector: replicaSetSpecSelector,
  },
  formatLabelSelector,
);

/** apps/v1 ReplicaSet. */
export const REPLICA_SET: KindDefinition = {
  resource: resourceInfo({
    group: 'apps',
    version: 'v1',
    kind: 'ReplicaSet',
    plural: 'replicasets',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
    subresources: [SCALE, STATUS],
  }),
  strategy: {
    specGeneration: true,
    initialStatus: () => ({}),
    statusZeroValues: STATUS_ZERO_VALUES['replicasets.apps'],
    defaults: (obj) =>
      defaultWorkload(obj, (s) => {
        s.replicas ??= 1;
      }),
  },
  // apps/v1 registers no field label conversion, so only metadata.name and metadata.namespace may be asked for.
  fieldSelectors: { attrs: (obj) => ({ 'status.replicas': integerAttr(fieldAt(obj, 'status', 'replicas')) }) },
  printer: REPLICA_SET_PRINTER,
};
