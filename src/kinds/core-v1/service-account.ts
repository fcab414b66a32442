import { age } from '../../tables/cell-format.js';
import { serviceAccountSecrets } from '../../tables/column-descriptions.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, list } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';

/** core/v1 ServiceAccount. */
export const SERVICE_ACCOUNT: KindDefinition = {
  resource: resourceInfo({ group: '', version: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true, shortNames: ['sa'] }),
  strategy: { returnDeletedObject: true },
  printer: {
    style: 'printer',
    columns: [NAME_COLUMN, column('Secrets', 'string', serviceAccountSecrets), AGE_COLUMN],
    row: (obj, now) => [obj.metadata.name ?? '', list(get(obj, 'secrets')).length, age(obj.metadata.creationTimestamp, now)],
  },
};
