import { isDeepStrictEqual } from 'node:util';
import { isObject, type KubeObject } from '../../api/types.js';
import { arrayOf, bool, int64, kindDefinition, listDefinition, ref, str, stringArray } from '../../openapi/builders/group-builders.js';
import { type Definitions, definitionRef } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, list, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateCSIDriver, validateCSIDriverUpdate } from './csi-driver-validation.js';
import { specOf } from '../../api/json-fields.js';

const P = 'io.k8s.api.storage.v1.';

type Obj = Record<string, unknown>;

const flag = (value: unknown, unset: boolean): boolean => (typeof value === 'boolean' ? value : unset);

/** printCSIDriver: unset flags print as their defaults, token requests as their audiences. */
const CSI_DRIVER_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('AttachRequired', 'boolean', 'attachRequired indicates this CSI volume driver requires an attach operation.'),
    column(
      'PodInfoOnMount',
      'boolean',
      'podInfoOnMount indicates this CSI volume driver requires additional pod information during mount operations.',
    ),
    column(
      'StorageCapacity',
      'boolean',
      'storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity.',
    ),
    column(
      'TokenRequests',
      'string',
      "tokenRequests indicates the CSI driver needs pods' service account tokens it is mounting volume for.",
    ),
    column(
      'RequiresRepublish',
      'boolean',
      'requiresRepublish indicates the CSI driver wants `NodePublishVolume` being periodically called.',
    ),
    column('Modes', 'string', 'volumeLifecycleModes defines what kind of volumes this CSI volume driver supports.'),
    AGE_COLUMN,
  ],
  row: (driver, now) => {
    const spec = specOf(driver);
    const audiences = list(spec.tokenRequests).map((t) => text(get(t, 'audience')));
    const modes = list(spec.volumeLifecycleModes).map(text).join(',');
    return [
      driver.metadata.name ?? '',
      flag(spec.attachRequired, true),
      flag(spec.podInfoOnMount, false),
      flag(spec.storageCapacity, false),
      audiences.length > 0 ? audiences.join(',') : '<unset>',
      flag(spec.requiresRepublish, false),
      modes === '' ? '<none>' : modes,
      age(driver.metadata.creationTimestamp, now),
    ];
  },
};

/** SetDefaults_CSIDriver (with the SELinuxMountReadWriteOncePod gate on, as in 1.32). */
function defaultCSIDriver(driver: KubeObject): void {
  if (!isObject(driver.spec)) driver.spec = {};
  const spec = driver.spec as Obj;
  spec.attachRequired ??= true;
  spec.podInfoOnMount ??= false;
  spec.storageCapacity ??= false;
  spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  if (list(spec.volumeLifecycleModes).length === 0) spec.volumeLifecycleModes = ['Persistent'];
  spec.requiresRepublish ??= false;
  spec.seLinuxMount ??= false;
}

const DEFINITIONS: Definitions = {
  [`${P}CSIDriver`]: kindDefinition({
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'CSIDriver',
    description: 'CSIDriver describes a CSI volume driver deployed on the cluster; its name is the driver name. Cluster-scoped.',
    properties: { spec: ref(`${P}CSIDriverSpec`, 'The specification of the CSI driver.') },
    required: ['spec'],
  }),
  [`${P}CSIDriverList`]: listDefinition('storage.k8s.io', 'v1', 'CSIDriver', `${P}CSIDriver`),
  [`${P}CSIDriverSpec`]: {
    type: 'object',
    description: 'The specification of a CSIDriver.',
    properties: {
      attachRequired: bool('Whether the driver needs an attach operation (default true). Immutable.'),
      fsGroupPolicy: str('Whether the volume supports changing ownership before mount: File, None or ReadWriteOnceWithFSType (default).'),
      podInfoOnMount: bool('Whether pod information is passed on mount (default false).'),
      requiresRepublish: bool('Whether NodePublishVolume is called periodically (default false).'),
      seLinuxMount: bool('Whether the driver supports the "-o context" mount option (default false).'),
      storageCapacity: bool('Whether scheduling considers the CSIStorageCapacity objects the driver publishes (default false).'),
      tokenRequests: arrayOf(definitionRef(`${P}TokenRequest`), 'Service account tokens of the pods that the driver needs on mount.', {
        'x-kubernetes-list-type': 'atomic',
      }),
      volumeLifecycleModes: stringArray('The kinds of volumes the driver supports: Persistent (the default) and/or Ephemeral. Immutable.', {
        'x-kubernetes-list-type': 'set',
      }),
    },
  },
  [`${P}TokenRequest`]: {
    type: 'object',
    description: 'Parameters of a service account token a CSI driver receives.',
    properties: {
      audience: str('Intended audience of the token.'),
      expirationSeconds: int64('Validity of the token in seconds.'),
    },
    required: ['audience'],
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}CSIDriver`]: { tags: { metadata: 1, spec: 2 } },
  [`${P}CSIDriverList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}CSIDriverSpec`]: {
    tags: {
      attachRequired: 1,
      podInfoOnMount: 2,
      volumeLifecycleModes: 3,
      storageCapacity: 4,
      fsGroupPolicy: 5,
      tokenRequests: 6,
      requiresRepublish: 7,
      seLinuxMount: 8,
    },
    pointers: ['attachRequired', 'podInfoOnMount', 'storageCapacity', 'fsGroupPolicy', 'requiresRepublish', 'seLinuxMount'],
  },
  [`${P}TokenRequest`]: { tags: { audience: 1, expirationSeconds: 2 }, pointers: ['expirationSeconds'] },
};

/** storage.k8s.io/v1 CSIDriver. */
export const CSI_DRIVER: KindDefinition = {
  resource: resourceInfo({ group: 'storage.k8s.io', version: 'v1', kind: 'CSIDriver', plural: 'csidrivers', namespaced: false }),
  strategy: {
    defaults: defaultCSIDriver,
    validate: validateCSIDriver,
    validateUpdate: validateCSIDriverUpdate,
    // The generation starts unset and counts spec changes.
    prepareForUpdate: (next, old) => {
      if (!isDeepStrictEqual(next.spec, old.spec)) {
        next.metadata.generation = (old.metadata.generation ?? 0) + 1;
      }
    },
  },
  printer: CSI_DRIVER_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
