import { bool, coreKind, stringMap } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, keyCount } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateConfigMap, validateConfigMapUpdate } from './types/config-data.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const configMapData =
  "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.";

const CONFIG_MAP_TYPES = coreKind({
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

const DEFINITIONS: Definitions = {
  ...CONFIG_MAP_TYPES,
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.ConfigMap': {
    tags: { metadata: 1, data: 2, binaryData: 3, immutable: 4 },
    pointers: ['immutable'],
  },
  'io.k8s.api.core.v1.ConfigMapList': { tags: { metadata: 1, items: 2 } },
};

/** core/v1 ConfigMap. */
export const CONFIG_MAP: KindDefinition = {
  resource: resourceInfo({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true, shortNames: ['cm'] }),
  strategy: { validate: validateConfigMap, validateUpdate: validateConfigMapUpdate },
  printer: {
    style: 'printer',
    columns: [NAME_COLUMN, column('Data', 'string', configMapData), AGE_COLUMN],
    row: (obj, now) => [
      obj.metadata.name ?? '',
      keyCount(get(obj, 'data')) + keyCount(get(obj, 'binaryData')),
      age(obj.metadata.creationTimestamp, now),
    ],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
