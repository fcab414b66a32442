import { ATOMIC_STRUCT, CORE, object, str, stringArray } from '../../../openapi/builders/shorthand.js';
import type { Definitions } from '../../../openapi/schema.js';

/** Storage types the PersistentVolume and PersistentVolumeClaim schemas share, and SecretReference. */

export const ACCESS_MODES = stringArray('Access modes: ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod.');

export const VOLUME_MODE = str('Whether the volume is a formatted filesystem or a raw block device. Defaults to Filesystem.', {
  enum: ['Block', 'Filesystem'],
});

export const CORE_V1_STORAGE_DEFINITIONS: Definitions = {
  [`${CORE}SecretReference`]: object(
    'Reference to a secret by name and namespace.',
    {
      name: str('Name of the secret, unique within its namespace.'),
      namespace: str('Namespace of the secret.'),
    },
    ATOMIC_STRUCT,
  ),
};
