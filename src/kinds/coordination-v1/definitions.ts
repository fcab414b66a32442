import type { Definitions } from '../../openapi/schema.js';
import { int32, kindDefinition, listDefinition, MICRO_TIME, ref, str } from '../../openapi/builders/group-builders.js';

/** coordination.k8s.io/v1 Lease. */

const P = 'io.k8s.api.coordination.v1.';

export const COORDINATION_V1_DEFINITIONS: Definitions = {
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
