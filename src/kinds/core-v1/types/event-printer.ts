import type { KubeObject } from '../../../api/types.js';
import { age } from '../../../tables/cell-format.js';
import { objectMetaName } from '../../../tables/column-descriptions.js';
import { get, integer, text, timestamp } from '../../../tables/object-fields.js';
import { column, type Printer } from '../../../tables/printer.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const eventCount = 'The number of times this event has occurred.';
const eventFirstTimestamp = 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)';
const eventInvolvedObject = 'The object that this event is about.';
const eventLastTimestamp = 'The time at which the most recent occurrence of this event was recorded.';
const eventMessage = 'A human-readable description of the status of this operation.';
const eventReason =
  "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.";
const eventSource = 'The component reporting this event. Should be a short machine understandable string.';
const eventType = 'Type of this event (Normal, Warning), new types could be added in the future';
const objectReferenceFieldPath =
  'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.';

/** The core Event fields the printer reads; events.k8s.io objects are mapped onto them as conversion does. */
interface EventView {
  readonly name: string;
  readonly type: string;
  readonly reason: string;
  readonly involved: unknown;
  readonly message: string;
  readonly sourceComponent: string;
  readonly sourceHost: string;
  readonly reportingController: string;
  readonly reportingInstance: string;
  readonly firstTimestamp: unknown;
  readonly lastTimestamp: unknown;
  readonly eventTime: unknown;
  readonly count: number;
  readonly series: unknown;
}

function viewOf(event: KubeObject, eventsApi: boolean): EventView {
  const source = get(event, eventsApi ? 'deprecatedSource' : 'source');
  return {
    name: event.metadata.name ?? '',
    type: text(get(event, 'type')),
    reason: text(get(event, 'reason')),
    involved: get(event, eventsApi ? 'regarding' : 'involvedObject'),
    message: text(get(event, eventsApi ? 'note' : 'message')),
    sourceComponent: text(get(source, 'component')),
    sourceHost: text(get(source, 'host')),
    reportingController: text(get(event, 'reportingController')),
    reportingInstance: text(get(event, 'reportingInstance')),
    firstTimestamp: get(event, eventsApi ? 'deprecatedFirstTimestamp' : 'firstTimestamp'),
    lastTimestamp: get(event, eventsApi ? 'deprecatedLastTimestamp' : 'lastTimestamp'),
    eventTime: get(event, 'eventTime'),
    count: integer(get(event, eventsApi ? 'deprecatedCount' : 'count')),
    series: get(event, 'series'),
  };
}

const firstNonEmpty = (...values: string[]): string => values.find((value) => value !== '') ?? '';

function eventRow(view: EventView, now: Date): unknown[] {
  const firstSeen = timestamp(view.firstTimestamp) === undefined ? age(view.eventTime, now) : age(view.firstTimestamp, now);
  let lastSeen = timestamp(view.lastTimestamp) === undefined ? firstSeen : age(view.lastTimestamp, now);
  let count = view.count;
  if (view.series !== undefined && view.series !== null) {
    lastSeen = age(get(view.series, 'lastObservedTime'), now);
    count = integer(get(view.series, 'count'));
  } else if (count === 0) {
    // Singleton events from the new API carry no count.
    count = 1;
  }
  const kind = text(get(view.involved, 'kind')).toLowerCase();
  const involvedName = text(get(view.involved, 'name'));
  const component = firstNonEmpty(view.sourceComponent, view.reportingController);
  const host = firstNonEmpty(view.sourceHost, view.reportingInstance);
  return [
    lastSeen,
    view.type,
    view.reason,
    involvedName === '' ? kind : `${kind}/${involvedName}`,
    text(get(view.involved, 'fieldPath')),
    host === '' ? component : `${component}, ${host}`,
    view.message.trim(),
    firstSeen,
    count,
    view.name,
  ];
}

const EVENT_COLUMNS = [
  column('Last Seen', 'string', eventLastTimestamp),
  column('Type', 'string', eventType),
  column('Reason', 'string', eventReason),
  column('Object', 'string', eventInvolvedObject),
  column('Subobject', 'string', objectReferenceFieldPath, { wide: true }),
  column('Source', 'string', eventSource, { wide: true }),
  column('Message', 'string', eventMessage),
  column('First Seen', 'string', eventFirstTimestamp, { wide: true }),
  column('Count', 'string', eventCount, { wide: true }),
  column('Name', 'string', objectMetaName, { format: 'name', wide: true }),
];

export const EVENT_PRINTER: Printer = {
  style: 'printer',
  columns: EVENT_COLUMNS,
  row: (event, now) => eventRow(viewOf(event, false), now),
};

/** events.k8s.io/v1 Events share core's storage and printer; they are printed after conversion to core. */
export const EVENTS_API_EVENT_PRINTER: Printer = {
  style: 'printer',
  columns: EVENT_COLUMNS,
  row: (event, now) => eventRow(viewOf(event, true), now),
};
