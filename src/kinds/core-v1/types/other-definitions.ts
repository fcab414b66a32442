import type { Definitions } from '../../../openapi/schema.js';
import {
  ATOMIC,
  ATOMIC_STRUCT,
  bool,
  CORE,
  core,
  coreArray,
  coreKind,
  int32,
  mergeByKey,
  meta,
  object,
  str,
  stringArray,
  stringMap,
  time,
} from '../../../openapi/builders/shorthand.js';

/** core/v1 Namespace, ConfigMap, Secret, ServiceAccount, Event and the object reference types. */

const NAMESPACE = coreKind({
  kind: 'Namespace',
  description: 'Scope for names; namespaced objects live in exactly one namespace.',
  properties: {
    spec: core('NamespaceSpec', 'Behaviour of the namespace.'),
    status: core('NamespaceStatus', 'Observed status of the namespace. Read-only.'),
  },
  listDescription: 'List of Namespace objects.',
  itemsDescription: 'The namespaces.',
});

const CONFIG_MAP = coreKind({
  kind: 'ConfigMap',
  description: 'Configuration data for pods to consume.',
  properties: {
    binaryData: {
      description: 'Binary data; keys must consist of alphanumerics, "-", "_" or "." and must not overlap with the keys in data.',
      type: 'object',
      additionalProperties: { type: 'string', format: 'byte' },
    },
    data: stringMap('UTF-8 configuration data; keys must not overlap with the keys in binaryData.'),
    immutable: bool('When true, data and binaryData cannot be updated; the field itself can then no longer be changed.'),
  },
  listDescription: 'List of ConfigMap objects.',
  itemsDescription: 'The config maps.',
});

const SECRET = coreKind({
  kind: 'Secret',
  description: 'Secret data of a given type, such as credentials, limited to 1 MiB.',
  properties: {
    data: {
      description: 'Secret data as base64-encoded values; keys consist of alphanumerics, "-", "_" or ".".',
      type: 'object',
      additionalProperties: { type: 'string', format: 'byte' },
    },
    immutable: bool('When true, data cannot be updated; the field itself can then no longer be changed.'),
    stringData: stringMap('Write-only convenience field: plain strings merged into data on write, overriding it.'),
    type: str('Used to facilitate programmatic handling of secret data, e.g. "Opaque" or "kubernetes.io/tls".'),
  },
  listDescription: 'List of Secret objects.',
  itemsDescription: 'The secrets.',
});

const SERVICE_ACCOUNT = coreKind({
  kind: 'ServiceAccount',
  description: 'Identity for processes in a pod, binding together a name, credentials and image pull secrets.',
  properties: {
    automountServiceAccountToken: bool(
      'Whether pods running as this account get an API token mounted automatically; a pod-level setting overrides it.',
    ),
    imagePullSecrets: coreArray(
      'LocalObjectReference',
      'Secrets in the same namespace used for pulling images of pods that use this account.',
      ATOMIC,
    ),
    secrets: coreArray(
      'ObjectReference',
      'Secrets in the same namespace that pods running as this account may use. Deprecated for auto-generated tokens.',
      mergeByKey('name'),
    ),
  },
  listDescription: 'List of ServiceAccount objects.',
  itemsDescription: 'The service accounts.',
});

const EVENT = coreKind({
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

export const CORE_V1_OTHER_DEFINITIONS: Definitions = {
  ...NAMESPACE,
  ...CONFIG_MAP,
  ...SECRET,
  ...SERVICE_ACCOUNT,
  ...EVENT,
  [`${CORE}NamespaceSpec`]: object('Attributes of a namespace.', {
    finalizers: stringArray('Values that must be empty before the namespace is removed from storage.'),
  }),
  [`${CORE}NamespaceStatus`]: object('Current status of a namespace.', {
    conditions: coreArray('NamespaceCondition', 'Latest observations of the namespace state.', mergeByKey('type')),
    phase: str('Current lifecycle phase of the namespace.', { enum: ['Active', 'Terminating'] }),
  }),
  [`${CORE}NamespaceCondition`]: object(
    'State of a namespace at one point in time.',
    {
      lastTransitionTime: time('Last time the condition changed from one status to another.'),
      message: str('Human-readable details about the last transition.'),
      reason: str('Machine-readable reason for the last transition.'),
      status: str('Status of the condition: True, False or Unknown.'),
      type: str('Type of the namespace condition.'),
    },
    { required: ['type', 'status'] },
  ),
  [`${CORE}EventSeries`]: object('A series of events recurring over time.', {
    count: int32('Number of occurrences in this series up to the last heartbeat.'),
    lastObservedTime: meta('MicroTime', 'Time of the last occurrence observed.'),
  }),
  [`${CORE}EventSource`]: object('Source of an event.', {
    component: str('Component from which the event is generated.'),
    host: str('Node name on which the event is generated.'),
  }),
  [`${CORE}ObjectReference`]: object(
    'Enough information to inspect or modify the referred object.',
    {
      apiVersion: str('API version of the referent.'),
      fieldPath: str('Path to a piece of the object rather than the whole, e.g. "spec.containers{name}" for a container of a pod.'),
      kind: str('Kind of the referent.'),
      name: str('Name of the referent.'),
      namespace: str('Namespace of the referent.'),
      resourceVersion: str('Specific resourceVersion this reference was made to, if any.'),
      uid: str('UID of the referent.'),
    },
    ATOMIC_STRUCT,
  ),
  [`${CORE}LocalObjectReference`]: object(
    'Reference to an object in the same namespace.',
    { name: str('Name of the referent; empty is allowed but almost certainly wrong.') },
    ATOMIC_STRUCT,
  ),
  [`${CORE}TypedLocalObjectReference`]: object(
    'Reference to a typed object in the same namespace.',
    {
      apiGroup: str('Group of the referenced resource; required unless the kind is in the core group.'),
      kind: str('Kind of the referenced resource.'),
      name: str('Name of the referenced resource.'),
    },
    { required: ['kind', 'name'], ...ATOMIC_STRUCT },
  ),
  [`${CORE}TypedObjectReference`]: object(
    'Reference to a typed object, possibly in another namespace.',
    {
      apiGroup: str('Group of the referenced resource; required unless the kind is in the core group.'),
      kind: str('Kind of the referenced resource.'),
      name: str('Name of the referenced resource.'),
      namespace: str('Namespace of the referenced resource, when it differs from the referrer’s.'),
    },
    { required: ['kind', 'name'] },
  ),
};
