import {
  EVENT_SOURCE,
  int32,
  kindDefinition,
  listDefinition,
  MICRO_TIME,
  OBJECT_REFERENCE,
  ref,
  str,
  TIME,
} from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import { eventFields } from '../core-v1/types/event-fields.js';
import { EVENTS_API_EVENT_PRINTER } from '../core-v1/types/event-printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateEventsApiEvent, validateEventsApiEventUpdate } from '../core-v1/event-validation.js';

const P = 'io.k8s.api.events.v1.';

const DEFINITIONS: Definitions = {
  [`${P}Event`]: kindDefinition({
    group: 'events.k8s.io',
    version: 'v1',
    kind: 'Event',
    description: 'Event reports a state change somewhere in the cluster; best-effort and short-lived.',
    properties: {
      action: str('Machine-readable action taken or failed on the regarding object; at most 128 characters.'),
      deprecatedCount: int32('Occurrence count kept for compatibility with core/v1 Event.'),
      deprecatedFirstTimestamp: ref(TIME, 'First timestamp kept for compatibility with core/v1 Event.'),
      deprecatedLastTimestamp: ref(TIME, 'Last timestamp kept for compatibility with core/v1 Event.'),
      deprecatedSource: ref(EVENT_SOURCE, 'Source kept for compatibility with core/v1 Event.'),
      eventTime: ref(MICRO_TIME, 'When the event was first observed.'),
      note: str('Human-readable description of the status of the operation.'),
      reason: str('Why the action was taken; at most 128 characters.'),
      regarding: ref(OBJECT_REFERENCE, 'The object the event is about.'),
      related: ref(OBJECT_REFERENCE, 'An optional secondary object involved in the action.'),
      reportingController: str('Name of the controller that emitted the event, e.g. kubernetes.io/kubelet.'),
      reportingInstance: str('ID of the emitting controller instance; at most 128 characters.'),
      series: ref(`${P}EventSeries`, 'Data about the series this event belongs to; unset for a single event.'),
      type: str('Normal or Warning.'),
    },
    required: ['eventTime'],
  }),
  [`${P}EventList`]: listDefinition('events.k8s.io', 'v1', 'Event', `${P}Event`),
  [`${P}EventSeries`]: {
    type: 'object',
    description: 'A series of recurring events.',
    properties: {
      count: int32('Occurrences up to the last heartbeat.'),
      lastObservedTime: ref(MICRO_TIME, 'When the last occurrence before the last heartbeat was seen.'),
    },
    required: ['count', 'lastObservedTime'],
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
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

/** events.k8s.io/v1 Event: core's Event seen through the newer API (apimachinery's default field label conversion). */
export const EVENTS_API_EVENT: KindDefinition = {
  resource: resourceInfo({ group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'] }),
  strategy: { validate: validateEventsApiEvent, validateUpdate: validateEventsApiEventUpdate },
  fieldSelectors: { attrs: (obj) => eventFields(obj, true) },
  printer: EVENTS_API_EVENT_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
