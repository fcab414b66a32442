import { age } from '../../tables/cell-format.js';
import { configMapData } from '../../tables/column-descriptions.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, keyCount } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateConfigMap } from './types/config-data.js';

/** core/v1 ConfigMap. */
export const CONFIG_MAP: KindDefinition = {
  resource: resourceInfo({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true, shortNames: ['cm'] }),
  strategy: { validate: validateConfigMap },
  printer: {
    style: 'printer',
    columns: [NAME_COLUMN, column('Data', 'string', configMapData), AGE_COLUMN],
    row: (obj, now) => [
      obj.metadata.name ?? '',
      keyCount(get(obj, 'data')) + keyCount(get(obj, 'binaryData')),
      age(obj.metadata.creationTimestamp, now),
    ],
  },
};
