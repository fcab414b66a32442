import { isObject, type KubeObject } from '../../api/types.js';
import { age } from '../../tables/cell-format.js';
import { secretData, secretType } from '../../tables/column-descriptions.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, text } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { fieldAt, notSupported, textAttr } from '../define/field-selectors.js';
import { resourceInfo } from '../define/resource.js';
import { mergeSecretStringData, validateSecret } from './types/config-data.js';

/** The internal Secret merges write-only stringData into data, so both count. */
function secretKeyCount(obj: KubeObject): number {
  const keys = new Set<string>();
  for (const source of [get(obj, 'data'), get(obj, 'stringData')]) {
    if (isObject(source)) for (const key of Object.keys(source)) keys.add(key);
  }
  return keys.size;
}

/** core/v1 Secret. */
export const SECRET: KindDefinition = {
  resource: resourceInfo({ group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true }),
  strategy: {
    defaults: (obj) => {
      obj.type ??= 'Opaque';
      mergeSecretStringData(obj);
    },
    validate: validateSecret,
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
};
