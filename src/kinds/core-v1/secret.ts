import { isObject, type KubeObject } from '../../api/types.js';
import { bool, coreKind, str, stringMap } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, text } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import { fieldAt, notSupported, textAttr } from '../define/field-selectors.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { mergeSecretStringData, validateSecret, validateSecretUpdate } from './types/config-data.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const secretData =
  "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4";
const secretType =
  'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types';

/** The internal Secret merges write-only stringData into data, so both count. */
function secretKeyCount(obj: KubeObject): number {
  const keys = new Set<string>();
  for (const source of [get(obj, 'data'), get(obj, 'stringData')]) {
    if (isObject(source)) for (const key of Object.keys(source)) keys.add(key);
  }
  return keys.size;
}

const SECRET_TYPES = coreKind({
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

const DEFINITIONS: Definitions = {
  ...SECRET_TYPES,
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.Secret': {
    tags: { metadata: 1, data: 2, type: 3, stringData: 4, immutable: 5 },
    pointers: ['immutable'],
  },
  'io.k8s.api.core.v1.SecretList': { tags: { metadata: 1, items: 2 } },
};

/** core/v1 Secret. */
export const SECRET: KindDefinition = {
  resource: resourceInfo({ group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true }),
  strategy: {
    defaults: (obj) => {
      obj.type ??= 'Opaque';
      mergeSecretStringData(obj);
    },
    validate: validateSecret,
    validateUpdate: validateSecretUpdate,
  },
  fieldSelectors: {
    conversion: { labels: new Set(['type', 'metadata.namespace', 'metadata.name']), error: notSupported },
    attrs: (obj) => ({ type: textAttr(fieldAt(obj, 'type')) }),
  },
  printer: {
    style: 'printer',
    columns: [NAME_COLUMN, column('Type', 'string', secretType), column('Data', 'string', secretData), AGE_COLUMN],
    row: (obj, now) => [obj.metadata.name ?? '', text(get(obj, 'type')), secretKeyCount(obj), age(obj.metadata.creationTimestamp, now)],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
