import { int32, kindDefinition, listDefinition, MICRO_TIME, ref, str } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, text } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateLease } from './lease-validation.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const leaseSpecHolderIdentity =
  'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.';

/** coordination.k8s.io/v1 Lease. */

const P = 'io.k8s.api.coordination.v1.';

const DEFINITIONS: Definitions = {
  [`${P}Lease`]: kindDefinition({
    group: 'coordination.k8s.io',
    version: 'v1',
    kind: 'Lease',
    description: 'Lease records who holds a lock (for leader election or heartbeats) and until when.',
    properties: {
      spec: ref(`${P}LeaseSpec`, 'Holder and timing of the lease.'),
    },
  }),
  [`${P}LeaseList`]: listDefinition('coordination.k8s.io', 'v1', 'Lease', `${P}Lease`),
  [`${P}LeaseSpec`]: {
    type: 'object',
    description: 'Holder and timing of a Lease.',
    properties: {
      acquireTime: ref(MICRO_TIME, 'When the current holder acquired the lease.'),
      holderIdentity: str('Identity of the current holder.'),
      leaseDurationSeconds: int32('Seconds after the last renewTime before candidates may take the lease over.'),
      leaseTransitions: int32('Number of times the lease changed holder.'),
      preferredHolder: str('Holder the lease should be handed to; only valid together with strategy.'),
      renewTime: ref(MICRO_TIME, 'When the current holder last renewed the lease.'),
      strategy: str('Strategy coordinated leader election uses to pick the holder; unset means no coordination.'),
    },
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.coordination.v1.Lease': { tags: { metadata: 1, spec: 2 } },
  'io.k8s.api.coordination.v1.LeaseList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.coordination.v1.LeaseSpec': {
    tags: {
      holderIdentity: 1,
      leaseDurationSeconds: 2,
      acquireTime: 3,
      renewTime: 4,
      leaseTransitions: 5,
      strategy: 6,
      preferredHolder: 7,
    },
    pointers: ['holderIdentity', 'leaseDurationSeconds', 'leaseTransitions', 'strategy', 'preferredHolder'],
  },
};

/** coordination.k8s.io/v1 Lease: leader election's record. */
export const LEASE: KindDefinition = {
  resource: resourceInfo({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true }),
  strategy: { validate: validateLease },
  printer: {
    style: 'printer',
    columns: [NAME_COLUMN, column('Holder', 'string', leaseSpecHolderIdentity), AGE_COLUMN],
    row: (lease, now) => [
      lease.metadata.name ?? '',
      text(get(lease, 'spec', 'holderIdentity')),
      age(lease.metadata.creationTimestamp, now),
    ],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
