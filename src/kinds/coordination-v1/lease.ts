import { age } from '../../tables/cell-format.js';
import { leaseSpecHolderIdentity } from '../../tables/column-descriptions.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, text } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';

/** coordination.k8s.io/v1 Lease: leader election's record. */
export const LEASE: KindDefinition = {
  resource: resourceInfo({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true }),
  printer: {
    style: 'printer',
    columns: [NAME_COLUMN, column('Holder', 'string', leaseSpecHolderIdentity), AGE_COLUMN],
    row: (lease, now) => [lease.metadata.name ?? '', text(get(lease, 'spec', 'holderIdentity')), age(lease.metadata.creationTimestamp, now)],
  },
};
