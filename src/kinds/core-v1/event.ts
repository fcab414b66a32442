import { CORE, core, coreKind, int32, meta, object, str, time } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import { notSupported } from '../define/field-selectors.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateCoreEvent, validateCoreEventUpdate } from './event-validation.js';
import { eventFields } from './types/event-fields.js';
import { EVENT_PRINTER } from './types/event-printer.js';

const EVENT_TYPES = coreKind({
  kind: 'Event',
  description: 'Report of an event somewhere in the cluster (core/v1 form; events.k8s.io/v1 supersedes it).',
  properties: {
    action: str('What action was taken or failed regarding the involved object.'),
    count: int32('Number of times this event occurred.'),
    eventTime: meta('MicroTime', 'When the event was first observed.'),
    firstTimestamp: time('When the event was first recorded.'),
    involvedObject: core('ObjectReference', 'The object this event is about.'),
    lastTimestamp: time('When the most recent occurrence was recorded.'),
    message: str('Human-readable description of the status of this operation.'),
    reason: str('Short, machine understandable reason for the transition into the object’s current status.'),
    related: core('ObjectReference', 'Optional secondary object for more complex actions.'),
    reportingComponent: str('Name of the controller that emitted the event, e.g. "kubernetes.io/kubelet".'),
    reportingInstance: str('ID of the controller instance, e.g. "kubelet-xyzf".'),
    series: core('EventSeries', 'Data about the series this event belongs to, if any.'),
    source: core('EventSource', 'Component reporting the event; prefer reportingComponent in new code.'),
    type: str('Type of the event: Normal or Warning.'),
  },
  required: ['metadata', 'involvedObject'],
  listDescription: 'List of Event objects.',
  itemsDescription: 'The events.',
});

const DEFINITIONS: Definitions = {
  ...EVENT_TYPES,
  [`${CORE}EventSeries`]: object('A series of events recurring over time.', {
    count: int32('Number of occurrences in this series up to the last heartbeat.'),
    lastObservedTime: meta('MicroTime', 'Time of the last occurrence observed.'),
  }),
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.Event': {
    tags: {
      metadata: 1,
      involvedObject: 2,
      reason: 3,
      message: 4,
      source: 5,
      firstTimestamp: 6,
      lastTimestamp: 7,
      count: 8,
      type: 9,
      eventTime: 10,
      series: 11,
      action: 12,
      related: 13,
      reportingComponent: 14,
      reportingInstance: 15,
    },
  },
  'io.k8s.api.core.v1.EventList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.EventSeries': { tags: { count: 1, lastObservedTime: 2 } },
};

/** core/v1 Event. */
export const EVENT: KindDefinition = {
  // Core v1 Event validation skips the name check for compatibility; only the generic path-segment rule applies.
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    namespaced: true,
    shortNames: ['ev'],
    nameFormat: 'path-segment',
  }),
  strategy: { gcPolicy: 'Unsupported', validate: validateCoreEvent, validateUpdate: validateCoreEventUpdate },
  fieldSelectors: {
    conversion: {
      labels: new Set([
        'involvedObject.kind',
        'involvedObject.namespace',
        'involvedObject.name',
        'involvedObject.uid',
        'involvedObject.apiVersion',
        'involvedObject.resourceVersion',
        'involvedObject.fieldPath',
        'reason',
        'reportingComponent',
        'source',
        'type',
        'metadata.namespace',
        'metadata.name',
      ]),
      error: notSupported,
    },
    attrs: (obj) => eventFields(obj, false),
  },
  printer: EVENT_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
