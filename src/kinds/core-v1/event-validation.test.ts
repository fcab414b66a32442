import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody, type FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { validateCoreEvent, validateEventsApiEvent, validateEventsApiEventUpdate } from './event-validation.js';

// Cases from pkg/apis/core/validation/events.go: legacyValidateEvent (every request), ValidateEventCreate and
// ValidateEventUpdate's strict rules (events.k8s.io/v1 requests only).

const render = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

const coreEvent = (fields: Record<string, unknown>, namespace = 'default'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web.1', namespace },
  involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' },
  reason: 'Started',
  ...fields,
});

const eventsApi = (fields: Record<string, unknown>): KubeObject => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'web.1', namespace: 'default' },
  regarding: { kind: 'Pod', name: 'web', namespace: 'default' },
  eventTime: '2024-05-01T10:00:00.000000Z',
  reportingController: 'example.com/controller',
  reportingInstance: 'controller-1',
  action: 'Start',
  reason: 'Started',
  type: 'Normal',
  ...fields,
});

test('legacyValidateEvent: a core Event about an object of its namespace', () =>
  assert.deepEqual(render(validateCoreEvent(coreEvent({}))), []));

test('legacyValidateEvent: events of cluster-scoped objects go to default', () => {
  assert.deepEqual(render(validateCoreEvent(coreEvent({ involvedObject: { kind: 'Node', name: 'n1' } }))), []);
  assert.deepEqual(render(validateCoreEvent(coreEvent({ involvedObject: { kind: 'Node', name: 'n1' } }, 'team'))), [
    'involvedObject.namespace: Invalid value: "": does not match event.namespace',
  ]);
});

test('legacyValidateEvent: the involved object namespace matches', () => {
  assert.deepEqual(render(validateCoreEvent(coreEvent({}, 'team'))), [
    'involvedObject.namespace: Invalid value: "default": does not match event.namespace',
  ]);
});

test('legacyValidateEvent: an Event with eventTime names its reporter, action and reason', () => {
  const event = coreEvent({ eventTime: '2024-05-01T10:00:00.000000Z', reason: '', reportingComponent: 'a b' });
  assert.deepEqual(render(validateCoreEvent(event)), [
    "reportingController: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    'reportingInstance: Required value',
    'action: Required value',
    'reason: Required value',
  ]);
});

test('ValidateEventCreate (events.k8s.io/v1): a complete Event is accepted', () =>
  assert.deepEqual(render(validateEventsApiEvent(eventsApi({}))), []));

test('ValidateEventCreate (events.k8s.io/v1): type, series, note length and deprecated fields', () => {
  const event = eventsApi({
    type: 'Info',
    series: { count: 1 },
    note: 'x'.repeat(1025),
    deprecatedCount: 3,
    deprecatedSource: { component: 'kubelet' },
  });
  assert.deepEqual(render(validateEventsApiEvent(event)), [
    'message: Invalid value: "": can have at most 1024 characters',
    'series.count: Invalid value: "": should be at least 2',
    'series.lastObservedTime: Required value',
    'type: Invalid value: "": has invalid value: Info',
    'count: Invalid value: "": needs to be unset',
    'source: Invalid value: "": needs to be unset',
  ]);
});

test('ValidateEventCreate (events.k8s.io/v1): eventTime is required', () => {
  assert.deepEqual(render(validateEventsApiEvent(eventsApi({ eventTime: undefined }))), ['eventTime: Required value']);
});

test('ValidateEventUpdate (events.k8s.io/v1): only the series may change', () => {
  const old = eventsApi({});
  assert.deepEqual(
    render(validateEventsApiEventUpdate(eventsApi({ series: { count: 2, lastObservedTime: '2024-05-01T10:01:00.000000Z' } }), old)),
    [],
  );
  assert.deepEqual(render(validateEventsApiEventUpdate(eventsApi({ note: 'changed', action: 'Stop' }), old)), [
    'message: Invalid value: "changed": field is immutable',
    'action: Invalid value: "Stop": field is immutable',
  ]);
  assert.deepEqual(
    render(validateEventsApiEventUpdate(eventsApi({ regarding: { kind: 'Pod', name: 'other', namespace: 'default' } }), old)),
    [
      'involvedObject: Invalid value: core.ObjectReference{Kind:"Pod", Namespace:"default", Name:"other", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable',
    ],
  );
});
