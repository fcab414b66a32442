import { isDeepStrictEqual } from 'node:util';
import { type FieldError, fieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { kindDefinition, LABEL_SELECTOR, listDefinition, ref, str } from '../../openapi/builders/group-builders.js';
import { quantity } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { NAME_COLUMN } from '../../tables/common-columns.js';
import { text } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import { isDns1123Subdomain } from '../../validation/names.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';

const P = 'io.k8s.api.storage.v1.';

/** ValidateCSIStorageCapacity: the class name must be a valid StorageClass name. */
function validateCapacity(capacity: KubeObject): FieldError[] {
  const name = typeof capacity.storageClassName === 'string' ? capacity.storageClassName : '';
  if (name === '') return [fieldError.required('storageClassName')];
  return isDns1123Subdomain(name).map((msg) => fieldError.invalid('storageClassName', name, msg));
}

/** ValidateCSIStorageCapacityUpdate: the class and the topology describe what was measured, so they stay. */
function validateCapacityUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateCapacity(next);
  if (!isDeepStrictEqual(next.nodeTopology, old.nodeTopology)) {
    errs.push(fieldError.invalid('nodeTopology', next.nodeTopology ?? null, 'field is immutable'));
  }
  if (next.storageClassName !== old.storageClassName) {
    errs.push(fieldError.invalid('storageClassName', next.storageClassName ?? '', 'field is immutable'));
  }
  return errs;
}

const DEFINITIONS: Definitions = {
  [`${P}CSIStorageCapacity`]: kindDefinition({
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'CSIStorageCapacity',
    description: 'CSIStorageCapacity is the capacity a CSI driver reports for a StorageClass in one topology segment. Namespaced.',
    properties: {
      capacity: quantity('Available capacity, as reported by the driver; unknown when unset.'),
      maximumVolumeSize: quantity('Largest volume that can be created, as reported by the driver.'),
      nodeTopology: ref(LABEL_SELECTOR, 'Nodes that can reach the storage; none when unset, all when empty. Immutable.'),
      storageClassName: str('The StorageClass the capacity applies to. Immutable.'),
    },
    required: ['storageClassName'],
  }),
  [`${P}CSIStorageCapacityList`]: listDefinition('storage.k8s.io', 'v1', 'CSIStorageCapacity', `${P}CSIStorageCapacity`),
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}CSIStorageCapacity`]: { tags: { metadata: 1, nodeTopology: 2, storageClassName: 3, capacity: 4, maximumVolumeSize: 5 } },
  [`${P}CSIStorageCapacityList`]: { tags: { metadata: 1, items: 2 } },
};

/** storage.k8s.io/v1 CSIStorageCapacity. */
export const CSI_STORAGE_CAPACITY: KindDefinition = {
  resource: resourceInfo({ group: 'storage.k8s.io', version: 'v1', kind: 'CSIStorageCapacity', plural: 'csistoragecapacities', namespaced: true }),
  strategy: { validate: validateCapacity, validateUpdate: validateCapacityUpdate },
  // printCSIStorageCapacity has no Age column.
  printer: {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('StorageClassName', 'string', 'storageClassName represents the name of the StorageClass that the reported capacity applies to.'),
      column('Capacity', 'string', 'capacity is the value reported by the CSI driver in its GetCapacityResponse.'),
    ],
    row: (capacity) => [
      capacity.metadata.name ?? '',
      text(capacity.storageClassName),
      typeof capacity.capacity === 'string' ? capacity.capacity : '<unset>',
    ],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
