import type { KubeObject } from '../../api/types.js';
import { arrayOf, bool, kindDefinition, listDefinition, str, stringArray, stringMap } from '../../openapi/builders/group-builders.js';
import { type Definitions, definitionRef } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateStorageClass, validateStorageClassUpdate } from './storage-class-validation.js';

const P = 'io.k8s.api.storage.v1.';
/** The annotations marking the default class; the beta one is still honoured. */
export const DEFAULT_CLASS_ANNOTATIONS = [
  'storageclass.kubernetes.io/is-default-class',
  'storageclass.beta.kubernetes.io/is-default-class',
];

/** Whether a class is marked as the cluster's default (storage/util IsDefaultAnnotation). */
export function isDefaultStorageClass(sc: KubeObject): boolean {
  const annotations = sc.metadata.annotations ?? {};
  return DEFAULT_CLASS_ANNOTATIONS.some((key) => annotations[key] === 'true');
}

const STORAGE_CLASS_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Provisioner', 'string', 'Indicates the type of the provisioner.'),
    column('ReclaimPolicy', 'string', 'Indicates the type of the reclaim policy.'),
    column('VolumeBindingMode', 'string', 'Indicates the mode of the volume binding.'),
    column('AllowVolumeExpansion', 'string', 'Indicates the allow volume expansion.'),
    AGE_COLUMN,
  ],
  row: (sc, now) => [
    `${sc.metadata.name ?? ''}${isDefaultStorageClass(sc) ? ' (default)' : ''}`,
    text(sc.provisioner),
    typeof sc.reclaimPolicy === 'string' ? sc.reclaimPolicy : 'Delete',
    typeof sc.volumeBindingMode === 'string' ? sc.volumeBindingMode : 'Immediate',
    sc.allowVolumeExpansion === true,
    age(sc.metadata.creationTimestamp, now),
  ],
};

/** SetDefaults_StorageClass. */
function defaultStorageClass(sc: KubeObject): void {
  sc.reclaimPolicy ??= 'Delete';
  sc.volumeBindingMode ??= 'Immediate';
}

const DEFINITIONS: Definitions = {
  [`${P}StorageClass`]: kindDefinition({
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'StorageClass',
    description:
      'StorageClass describes a class of storage for which PersistentVolumes can be dynamically provisioned. Cluster-scoped; annotated with storageclass.kubernetes.io/is-default-class=true, it is the class of new claims that name none.',
    properties: {
      allowVolumeExpansion: bool('Whether claims of this class may be expanded.'),
      allowedTopologies: arrayOf(
        definitionRef('io.k8s.api.core.v1.TopologySelectorTerm'),
        'Node topologies where volumes may be provisioned; empty means no restriction.',
        { 'x-kubernetes-list-type': 'atomic' },
      ),
      mountOptions: stringArray('Mount options of the provisioned volumes, e.g. ["ro", "soft"]; not validated.', {
        'x-kubernetes-list-type': 'atomic',
      }),
      parameters: stringMap('Parameters passed to the provisioner. Immutable.'),
      provisioner: str('The provisioner of the class. Immutable.'),
      reclaimPolicy: str('Delete (the default) or Retain: what happens to provisioned volumes when released. Immutable.', {
        enum: ['Delete', 'Recycle', 'Retain'],
      }),
      volumeBindingMode: str('Immediate (the default) or WaitForFirstConsumer: when claims are provisioned and bound. Immutable.', {
        enum: ['Immediate', 'WaitForFirstConsumer'],
      }),
    },
    required: ['provisioner'],
  }),
  [`${P}StorageClassList`]: listDefinition('storage.k8s.io', 'v1', 'StorageClass', `${P}StorageClass`),
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}StorageClass`]: {
    tags: {
      metadata: 1,
      provisioner: 2,
      parameters: 3,
      reclaimPolicy: 4,
      mountOptions: 5,
      allowVolumeExpansion: 6,
      volumeBindingMode: 7,
      allowedTopologies: 8,
    },
    pointers: ['reclaimPolicy', 'allowVolumeExpansion', 'volumeBindingMode'],
  },
  [`${P}StorageClassList`]: { tags: { metadata: 1, items: 2 } },
};

/** storage.k8s.io/v1 StorageClass. */
export const STORAGE_CLASS: KindDefinition = {
  resource: resourceInfo({
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'StorageClass',
    plural: 'storageclasses',
    namespaced: false,
    shortNames: ['sc'],
  }),
  strategy: {
    defaults: defaultStorageClass,
    validate: validateStorageClass,
    validateUpdate: validateStorageClassUpdate,
  },
  printer: STORAGE_CLASS_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
