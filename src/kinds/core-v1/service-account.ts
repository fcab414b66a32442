import { ATOMIC, bool, coreArray, coreKind, mergeByKey } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, list } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const serviceAccountSecrets =
  'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". The "kubernetes.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret';

const SERVICE_ACCOUNT_TYPES = coreKind({
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

const DEFINITIONS: Definitions = {
  ...SERVICE_ACCOUNT_TYPES,
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.ServiceAccount': {
    tags: { metadata: 1, secrets: 2, imagePullSecrets: 3, automountServiceAccountToken: 4 },
    pointers: ['automountServiceAccountToken'],
  },
  'io.k8s.api.core.v1.ServiceAccountList': { tags: { metadata: 1, items: 2 } },
};

/** core/v1 ServiceAccount. */
export const SERVICE_ACCOUNT: KindDefinition = {
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'ServiceAccount',
    plural: 'serviceaccounts',
    namespaced: true,
    shortNames: ['sa'],
    subresources: [{ name: 'token', verbs: ['create'], group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }],
  }),
  strategy: { returnDeletedObject: true },
  printer: {
    style: 'printer',
    columns: [NAME_COLUMN, column('Secrets', 'string', serviceAccountSecrets), AGE_COLUMN],
    row: (obj, now) => [obj.metadata.name ?? '', list(get(obj, 'secrets')).length, age(obj.metadata.creationTimestamp, now)],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
