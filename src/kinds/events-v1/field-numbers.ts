import type { FieldNumberTable } from '../define/field-numbers.js';

export const EVENTS_V1_FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.events.v1.Event': {
    tags: {
      metadata: 1,
      eventTime: 2,
      series: 3,
      reportingController: 4,
      reportingInstance: 5,
      action: 6,
      reason: 7,
      regarding: 8,
      related: 9,
      note: 10,
      type: 11,
      deprecatedSource: 12,
      deprecatedFirstTimestamp: 13,
      deprecatedLastTimestamp: 14,
      deprecatedCount: 15,
    },
  },
  'io.k8s.api.events.v1.EventList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.events.v1.EventSeries': { tags: { count: 1, lastObservedTime: 2 } },
};
