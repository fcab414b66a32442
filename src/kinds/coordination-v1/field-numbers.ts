import type { FieldNumberTable } from '../define/field-numbers.js';

export const COORDINATION_V1_FIELD_NUMBERS: FieldNumberTable = {
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
