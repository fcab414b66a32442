import { arrayOf, kindDefinition, listDefinition } from '../../openapi/builders/group-builders.js';
import { type Definitions, definitionRef } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { column } from '../../tables/printer.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { P, WEBHOOK_COMMON_TAGS, WEBHOOK_POINTERS, WEBHOOK_REQUIRED, webhookProperties } from './webhook-types.js';
import { type WebhookFlavour, webhookConfigurationValidators, webhookDefaulter, webhooksOf } from './webhook-validation.js';

/**
 * The shape both webhook configuration kinds share (R11.1): cluster-scoped, `metadata` + `webhooks[]` keyed by
 * name, printed as NAME, WEBHOOKS, AGE. The mutating kind's entries add reinvocationPolicy.
 */

const FLAVOURS: Readonly<Record<WebhookFlavour, { kind: string; plural: string; entry: string; description: string }>> = {
  mutating: {
    kind: 'MutatingWebhookConfiguration',
    plural: 'mutatingwebhookconfigurations',
    entry: 'MutatingWebhook',
    description: 'Admission webhooks that may change the objects written to the API server.',
  },
  validating: {
    kind: 'ValidatingWebhookConfiguration',
    plural: 'validatingwebhookconfigurations',
    entry: 'ValidatingWebhook',
    description: 'Admission webhooks that may refuse, but not change, the objects written to the API server.',
  },
};

export function webhookConfigurationKind(flavour: WebhookFlavour): KindDefinition {
  const { kind, plural, entry, description } = FLAVOURS[flavour];
  const common = webhookProperties();
  if (flavour === 'mutating')
    common.reinvocationPolicy = {
      type: 'string',
      description: 'Never (default) or IfNeeded: call again when a later plugin changed the object.',
    };
  // Properties in name order, as kube-apiserver publishes them.
  const entryProperties = Object.fromEntries(Object.entries(common).sort(([a], [b]) => (a < b ? -1 : 1)));
  const definitions: Definitions = {
    [`${P}${kind}`]: kindDefinition({
      group: 'admissionregistration.k8s.io',
      version: 'v1',
      kind,
      description,
      properties: {
        webhooks: {
          ...arrayOf(definitionRef(`${P}${entry}`), 'The webhooks and the requests each is called for.'),
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          'x-kubernetes-patch-strategy': 'merge',
          'x-kubernetes-patch-merge-key': 'name',
        },
      },
    }),
    [`${P}${kind}List`]: listDefinition('admissionregistration.k8s.io', 'v1', kind, `${P}${kind}`),
    [`${P}${entry}`]: {
      type: 'object',
      description: `One ${flavour} admission webhook.`,
      properties: entryProperties,
      required: WEBHOOK_REQUIRED,
    },
  };
  const entryTags =
    flavour === 'mutating'
      ? { ...WEBHOOK_COMMON_TAGS, reinvocationPolicy: 10, objectSelector: 11, matchConditions: 12 }
      : { ...WEBHOOK_COMMON_TAGS, objectSelector: 10, matchConditions: 11 };
  return {
    resource: resourceInfo({
      group: 'admissionregistration.k8s.io',
      version: 'v1',
      kind,
      plural,
      namespaced: false,
      categories: ['api-extensions'],
    }),
    strategy: { defaults: webhookDefaulter(flavour), ...webhookConfigurationValidators(flavour) },
    printer: {
      style: 'printer',
      columns: [NAME_COLUMN, column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks.'), AGE_COLUMN],
      row: (config, now) => [config.metadata.name ?? '', webhooksOf(config).length, age(config.metadata.creationTimestamp, now)],
    },
    definitions,
    fieldNumbers: {
      [`${P}${kind}`]: { tags: { metadata: 1, webhooks: 2 } },
      [`${P}${kind}List`]: { tags: { metadata: 1, items: 2 } },
      [`${P}${entry}`]: {
        tags: entryTags,
        pointers: flavour === 'mutating' ? [...WEBHOOK_POINTERS, 'reinvocationPolicy'] : WEBHOOK_POINTERS,
      },
    },
  };
}
