import { arrayOf, int32, LABEL_SELECTOR, mergeMapList, ref, str, stringArray } from '../../openapi/builders/group-builders.js';
import { type Definitions, definitionRef, type Schema } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { TypeSet } from '../define/kind-definition.js';

/** The admissionregistration.k8s.io/v1 types both webhook configuration kinds use (k8s.io/api admissionregistration/v1). */

export const P = 'io.k8s.api.admissionregistration.v1.';
const ATOMIC = { 'x-kubernetes-list-type': 'atomic' } as const;

const DEFINITIONS: Definitions = {
  [`${P}RuleWithOperations`]: {
    type: 'object',
    description: 'The operations and resources a webhook is interested in; a request matches when all of its parts match.',
    properties: {
      apiGroups: stringArray('API groups; "" is the core group and "*" every group.', ATOMIC),
      apiVersions: stringArray('API versions; "*" is every version.', ATOMIC),
      operations: stringArray('CREATE, UPDATE, DELETE, CONNECT, or "*" for all of them.', ATOMIC),
      resources: stringArray('Resources, "resource/subresource", "*" (every resource) or "*/*" (everything).', ATOMIC),
      scope: str('Cluster, Namespaced or "*" (default).'),
    },
  },
  [`${P}ServiceReference`]: {
    type: 'object',
    description: 'The Service a webhook is reached through.',
    properties: {
      name: str('Name of the service.'),
      namespace: str('Namespace of the service.'),
      path: str('URL path requests are sent to.'),
      port: int32('Port of the service; 443 by default.'),
    },
    required: ['namespace', 'name'],
  },
  [`${P}WebhookClientConfig`]: {
    type: 'object',
    description: 'How the API server connects to a webhook: exactly one of url or service, and the CA that signs its certificate.',
    properties: {
      caBundle: { type: 'string', format: 'byte', description: 'PEM CA bundle verifying the webhook’s serving certificate.' },
      service: ref(`${P}ServiceReference`, 'The service the webhook runs behind.'),
      url: str('https://host[:port][/path] of the webhook.'),
    },
  },
  [`${P}MatchCondition`]: {
    type: 'object',
    description: 'A CEL condition a request must meet for the webhook to be called.',
    properties: {
      expression: str('CEL expression over object, oldObject, request; must evaluate to bool.'),
      name: str('Identifies the condition; a qualified name, unique within the webhook.'),
    },
    required: ['name', 'expression'],
  },
};

/** The fields every webhook entry has (ValidatingWebhook and MutatingWebhook share them). */
export function webhookProperties(): Record<string, Schema> {
  return {
    admissionReviewVersions: stringArray('AdmissionReview versions the webhook accepts, in order of preference.', ATOMIC),
    clientConfig: ref(`${P}WebhookClientConfig`, 'How to reach the webhook.'),
    failurePolicy: str('Fail (default) or Ignore: what a failed call does to the request.'),
    matchConditions: mergeMapList(
      definitionRef(`${P}MatchCondition`),
      'name',
      'CEL conditions that must all hold for the webhook to be called.',
    ),
    matchPolicy: str('Equivalent (default) or Exact: whether requests through other versions of a matched resource are sent.'),
    name: str('Name of the webhook, a fully qualified name.'),
    namespaceSelector: ref(LABEL_SELECTOR, 'Labels the request’s namespace must carry.'),
    objectSelector: ref(LABEL_SELECTOR, 'Labels the old or new object must carry.'),
    rules: arrayOf(definitionRef(`${P}RuleWithOperations`), 'Operations and resources the webhook is called for.', ATOMIC),
    sideEffects: str('None or NoneOnDryRun: whether calls have side effects dry-run requests must avoid.'),
    timeoutSeconds: int32('Seconds to wait for the webhook, 1 to 30; 10 by default.'),
  };
}

export const WEBHOOK_REQUIRED = ['name', 'clientConfig', 'sideEffects', 'admissionReviewVersions'];

/** Field numbers of MutatingWebhook and ValidatingWebhook up to the ones where they differ. */
export const WEBHOOK_COMMON_TAGS = {
  name: 1,
  clientConfig: 2,
  rules: 3,
  failurePolicy: 4,
  namespaceSelector: 5,
  sideEffects: 6,
  timeoutSeconds: 7,
  admissionReviewVersions: 8,
  matchPolicy: 9,
};

export const WEBHOOK_POINTERS = ['failurePolicy', 'sideEffects', 'timeoutSeconds', 'matchPolicy'];

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}RuleWithOperations`]: { tags: { operations: 1 }, inline: { 2: `${P}Rule` } },
  [`${P}Rule`]: { tags: { apiGroups: 1, apiVersions: 2, resources: 3, scope: 4 }, pointers: ['scope'] },
  [`${P}ServiceReference`]: { tags: { namespace: 1, name: 2, path: 3, port: 4 }, pointers: ['path', 'port'] },
  [`${P}WebhookClientConfig`]: { tags: { service: 1, caBundle: 2, url: 3 }, pointers: ['url'] },
  [`${P}MatchCondition`]: { tags: { name: 1, expression: 2 } },
};

export const ADMISSIONREGISTRATION_V1_WEBHOOK_TYPES: TypeSet = { definitions: DEFINITIONS, fieldNumbers: FIELD_NUMBERS };
