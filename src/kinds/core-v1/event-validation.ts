import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { isDns1123Subdomain, isQualifiedName } from '../../validation/names.js';
import { text } from '../../api/json-fields.js';

/**
 * Event validation as pkg/apis/core/validation/events.go does it. Both APIs store one internal Event, so the rules
 * and field paths are core/v1's whichever API the request came through; a core/v1 request gets the legacy checks
 * only, an events.k8s.io/v1 request the strict ones as well.
 */

type Obj = Record<string, unknown>;

const REPORTING_INSTANCE_LIMIT = 128;
const ACTION_LIMIT = 128;
const REASON_LIMIT = 128;
const NOTE_LIMIT = 1024;

/** The internal Event's fields, read from either API's spelling. */
interface EventView {
  readonly namespace: string;
  readonly involvedObject: Obj;
  readonly reason: string;
  readonly message: string;
  readonly source: Obj;
  readonly firstTimestamp: unknown;
  readonly lastTimestamp: unknown;
  readonly count: number;
  readonly type: string;
  readonly eventTime: unknown;
  readonly series: unknown;
  readonly action: string;
  readonly related: unknown;
  readonly reportingController: string;
  readonly reportingInstance: string;
}

const obj = (value: unknown): Obj => (isObject(value) ? value : {});
const isSet = (time: unknown): boolean => typeof time === 'string' && time !== '';

function coreView(event: KubeObject): EventView {
  return {
    namespace: event.metadata.namespace ?? '',
    involvedObject: obj(event.involvedObject),
    reason: text(event.reason),
    message: text(event.message),
    source: obj(event.source),
    firstTimestamp: event.firstTimestamp,
    lastTimestamp: event.lastTimestamp,
    count: typeof event.count === 'number' ? event.count : 0,
    type: text(event.type),
    eventTime: event.eventTime,
    series: event.series,
    action: text(event.action),
    related: event.related,
    reportingController: text(event.reportingComponent),
    reportingInstance: text(event.reportingInstance),
  };
}

function eventsApiView(event: KubeObject): EventView {
  return {
    namespace: event.metadata.namespace ?? '',
    involvedObject: obj(event.regarding),
    reason: text(event.reason),
    message: text(event.note),
    source: obj(event.deprecatedSource),
    firstTimestamp: event.deprecatedFirstTimestamp,
    lastTimestamp: event.deprecatedLastTimestamp,
    count: typeof event.deprecatedCount === 'number' ? event.deprecatedCount : 0,
    type: text(event.type),
    eventTime: event.eventTime,
    series: event.series,
    action: text(event.action),
    related: event.related,
    reportingController: text(event.reportingController),
    reportingInstance: text(event.reportingInstance),
  };
}

function tooLongText(field: string, value: string, limit: number): FieldError[] {
  return value.length > limit ? [fieldError.invalid(field, '', `can have at most ${limit} characters`)] : [];
}

/** legacyValidateEvent: every Event, whichever API wrote it. */
function legacyValidate(e: EventView): FieldError[] {
  const errs: FieldError[] = [];
  const involvedNamespace = text(e.involvedObject.namespace);
  const mismatch = (): FieldError => fieldError.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (!isSet(e.eventTime)) {
    // Old clients write events for cluster-scoped objects into "default".
    if (involvedNamespace === '') {
      if (e.namespace !== '' && e.namespace !== 'default') errs.push(mismatch());
    } else if (e.namespace !== involvedNamespace) errs.push(mismatch());
  } else {
    if (involvedNamespace === '' && e.namespace !== 'default' && e.namespace !== 'kube-system') errs.push(mismatch());
    if (e.reportingController === '') errs.push(fieldError.required('reportingController'));
    for (const msg of isQualifiedName(e.reportingController))
      errs.push(fieldError.invalid('reportingController', e.reportingController, msg));
    if (e.reportingInstance === '') errs.push(fieldError.required('reportingInstance'));
    errs.push(...tooLongText('reportingInstance', e.reportingInstance, REPORTING_INSTANCE_LIMIT));
    if (e.action === '') errs.push(fieldError.required('action'));
    errs.push(...tooLongText('action', e.action, ACTION_LIMIT));
    if (e.reason === '') errs.push(fieldError.required('reason'));
    errs.push(...tooLongText('reason', e.reason, REASON_LIMIT));
    errs.push(...tooLongText('message', e.message, NOTE_LIMIT));
  }
  for (const msg of isDns1123Subdomain(e.namespace)) errs.push(fieldError.invalid('namespace', e.namespace, msg));
  return errs;
}

/** validateV1EventSeries. */
function validateSeries(series: unknown): FieldError[] {
  if (!isObject(series)) return [];
  const errs: FieldError[] = [];
  if (typeof series.count !== 'number' || series.count < 2) errs.push(fieldError.invalid('series.count', '', 'should be at least 2'));
  if (!isSet(series.lastObservedTime)) errs.push(fieldError.required('series.lastObservedTime'));
  return errs;
}

/** ValidateEventCreate's strict part for events.k8s.io/v1 (the name format is the store's). */
function strictCreate(e: EventView): FieldError[] {
  const errs = validateSeries(e.series);
  if (!isSet(e.eventTime)) errs.push(fieldError.required('eventTime'));
  if (e.type !== 'Normal' && e.type !== 'Warning') errs.push(fieldError.invalid('type', '', `has invalid value: ${e.type}`));
  if (isSet(e.firstTimestamp)) errs.push(fieldError.invalid('firstTimestamp', '', 'needs to be unset'));
  if (isSet(e.lastTimestamp)) errs.push(fieldError.invalid('lastTimestamp', '', 'needs to be unset'));
  if (e.count !== 0) errs.push(fieldError.invalid('count', '', 'needs to be unset'));
  if (text(e.source.component) !== '' || text(e.source.host) !== '') errs.push(fieldError.invalid('source', '', 'needs to be unset'));
  return errs;
}

/** Go's %#v of a core.ObjectReference, as ValidateImmutableField prints one. */
function objectReferenceLiteral(ref: Obj): GoLiteral {
  const q = (key: string): string => JSON.stringify(text(ref[key]));
  return new GoLiteral(
    `core.ObjectReference{Kind:${q('kind')}, Namespace:${q('namespace')}, Name:${q('name')}, UID:${q('uid')}, ` +
      `APIVersion:${q('apiVersion')}, ResourceVersion:${q('resourceVersion')}, FieldPath:${q('fieldPath')}}`,
  );
}

/** Go's time.Time String() of an RFC 3339 timestamp in UTC ("2006-01-02 15:04:05.999999999 +0000 UTC"). */
function goTime(value: unknown): GoLiteral {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(text(value));
  if (match === null) return new GoLiteral('0001-01-01 00:00:00 +0000 UTC');
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  return new GoLiteral(`${match[1]} ${match[2]}${fraction === '.' ? '' : fraction} +0000 UTC`);
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** ValidateEventUpdate's strict part: after creation an events.k8s.io Event changes only its series. */
function strictUpdate(next: EventView, old: EventView): FieldError[] {
  const errs = same(next.series, old.series) ? [] : validateSeries(next.series);
  const immutable = (field: string, a: unknown, b: unknown, shown: unknown): void => {
    if (!same(a, b)) errs.push(fieldError.invalid(field, shown, 'field is immutable'));
  };
  immutable('involvedObject', next.involvedObject, old.involvedObject, objectReferenceLiteral(next.involvedObject));
  immutable('reason', next.reason, old.reason, next.reason);
  immutable('message', next.message, old.message, next.message);
  const source = new GoLiteral(
    `core.EventSource{Component:${JSON.stringify(text(next.source.component))}, Host:${JSON.stringify(text(next.source.host))}}`,
  );
  immutable('source', [text(next.source.component), text(next.source.host)], [text(old.source.component), text(old.source.host)], source);
  immutable('firstTimestamp', next.firstTimestamp, old.firstTimestamp, goTime(next.firstTimestamp));
  immutable('lastTimestamp', next.lastTimestamp, old.lastTimestamp, goTime(next.lastTimestamp));
  immutable('count', next.count, old.count, next.count);
  // Kubernetes checks reason twice.
  immutable('reason', next.reason, old.reason, next.reason);
  immutable('type', next.type, old.type, next.type);
  immutable('eventTime', next.eventTime, old.eventTime, goTime(next.eventTime));
  immutable('action', next.action, old.action, next.action);
  immutable('related', next.related, old.related, isObject(next.related) ? objectReferenceLiteral(next.related) : null);
  immutable('reportingController', next.reportingController, old.reportingController, next.reportingController);
  immutable('reportingInstance', next.reportingInstance, old.reportingInstance, next.reportingInstance);
  return errs;
}

export const validateCoreEvent = (event: KubeObject): FieldError[] => legacyValidate(coreView(event));
export const validateCoreEventUpdate = (next: KubeObject): FieldError[] => legacyValidate(coreView(next));

export function validateEventsApiEvent(event: KubeObject): FieldError[] {
  const view = eventsApiView(event);
  return [...legacyValidate(view), ...strictCreate(view)];
}

export function validateEventsApiEventUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const view = eventsApiView(next);
  return [...legacyValidate(view), ...strictUpdate(view, eventsApiView(old))];
}
