import type { TypeSet } from '../../define/kind-definition.js';
import { CORE_V1_AFFINITY_DEFINITIONS } from './affinity-definitions.js';
import { CORE_V1_CONTAINER_DEFINITIONS } from './container-definitions.js';
import { CORE_V1_LEGACY_VOLUME_DEFINITIONS } from './legacy-volumes-definitions.js';
import { CORE_V1_LEGACY_VOLUME_FIELD_NUMBERS } from './legacy-volumes-field-numbers.js';
import { CORE_V1_POD_DEFINITIONS } from './pod-definitions.js';
import { CORE_V1_POD_FIELD_NUMBERS } from './pod-field-numbers.js';
import { CORE_V1_REFERENCE_DEFINITIONS } from './reference-definitions.js';
import { CORE_V1_REFERENCE_FIELD_NUMBERS } from './reference-field-numbers.js';
import { CORE_V1_STORAGE_DEFINITIONS } from './storage-definitions.js';
import { CORE_V1_TOPOLOGY_SELECTOR_DEFINITIONS, CORE_V1_TOPOLOGY_SELECTOR_FIELD_NUMBERS } from './topology-selector.js';
import { CORE_V1_VOLUME_DEFINITIONS } from './volume-definitions.js';

/**
 * core/v1 types several kinds share: the pod spec tree (pods and every workload's template: containers,
 * affinity, volumes), the storage types of volumes and claims, and object references.
 */
export const CORE_V1_SHARED_TYPES: readonly TypeSet[] = [
  { definitions: CORE_V1_POD_DEFINITIONS, fieldNumbers: CORE_V1_POD_FIELD_NUMBERS },
  { definitions: CORE_V1_CONTAINER_DEFINITIONS },
  { definitions: CORE_V1_AFFINITY_DEFINITIONS },
  { definitions: CORE_V1_VOLUME_DEFINITIONS },
  { definitions: CORE_V1_LEGACY_VOLUME_DEFINITIONS, fieldNumbers: CORE_V1_LEGACY_VOLUME_FIELD_NUMBERS },
  { definitions: CORE_V1_STORAGE_DEFINITIONS },
  { definitions: CORE_V1_TOPOLOGY_SELECTOR_DEFINITIONS, fieldNumbers: CORE_V1_TOPOLOGY_SELECTOR_FIELD_NUMBERS },
  { definitions: CORE_V1_REFERENCE_DEFINITIONS, fieldNumbers: CORE_V1_REFERENCE_FIELD_NUMBERS },
];
