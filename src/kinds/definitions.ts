import type { Definitions } from '../openapi/schema.js';
import { CORE_V1_AFFINITY_DEFINITIONS } from './core-v1/types/affinity-definitions.js';
import { CORE_V1_CONTAINER_DEFINITIONS } from './core-v1/types/container-definitions.js';
import { CORE_V1_LEGACY_VOLUME_DEFINITIONS } from './core-v1/types/legacy-volumes-definitions.js';
import { CORE_V1_NODE_DEFINITIONS } from './core-v1/types/node-definitions.js';
import { CORE_V1_OTHER_DEFINITIONS } from './core-v1/types/other-definitions.js';
import { CORE_V1_POD_DEFINITIONS } from './core-v1/types/pod-definitions.js';
import { CORE_V1_REPLICATION_CONTROLLER_DEFINITIONS } from './core-v1/types/replication-controller-definitions.js';
import { CORE_V1_SERVICE_DEFINITIONS } from './core-v1/types/service-definitions.js';
import { CORE_V1_STORAGE_DEFINITIONS } from './core-v1/types/storage-definitions.js';
import { CORE_V1_VOLUME_DEFINITIONS } from './core-v1/types/volume-definitions.js';
import { GROUP_DEFINITIONS } from './group-definitions.js';
import { META_DEFINITIONS } from './meta/definitions.js';

const PARTS: readonly Definitions[] = [
  META_DEFINITIONS,
  CORE_V1_OTHER_DEFINITIONS,
  CORE_V1_POD_DEFINITIONS,
  CORE_V1_CONTAINER_DEFINITIONS,
  CORE_V1_AFFINITY_DEFINITIONS,
  CORE_V1_VOLUME_DEFINITIONS,
  CORE_V1_LEGACY_VOLUME_DEFINITIONS,
  CORE_V1_STORAGE_DEFINITIONS,
  CORE_V1_SERVICE_DEFINITIONS,
  CORE_V1_REPLICATION_CONTROLLER_DEFINITIONS,
  CORE_V1_NODE_DEFINITIONS,
  GROUP_DEFINITIONS,
];

/** Merges the parts, refusing a name defined twice so one part cannot silently shadow another. */
function mergeDefinitions(parts: readonly Definitions[]): Definitions {
  const merged: Record<string, Definitions[string]> = {};
  for (const part of parts) {
    for (const [name, schema] of Object.entries(part)) {
      if (name in merged) throw new Error(`OpenAPI definition ${name} is defined twice`);
      merged[name] = schema;
    }
  }
  const sorted: Record<string, Definitions[string]> = {};
  for (const name of Object.keys(merged).sort()) sorted[name] = merged[name] as Definitions[string];
  return Object.freeze(sorted);
}

/** Every built-in definition (meta, core/v1 and the other served groups), sorted by name. */
export const BUILTIN_DEFINITIONS: Definitions = mergeDefinitions(PARTS);
