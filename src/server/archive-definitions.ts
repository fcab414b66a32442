import { kindDefinition, listDefinition } from '../openapi/builders/group-builders.js';
import type { Definitions, Schema } from '../openapi/schema.js';
import { ARCHIVE_GROUP, ARCHIVE_VERSION } from '../registry/archive/resources.js';

/** A nested object whose fields the schema leaves open (an archived object is of any kind). */
const open = (description: string): Schema => ({ type: 'object', description, 'x-kubernetes-preserve-unknown-fields': true });

const P = `dev.cascade.${ARCHIVE_VERSION}.`;

function kindAndList(kind: string, description: string, properties: Record<string, Schema>): Definitions {
  return {
    [`${P}${kind}`]: kindDefinition({ group: ARCHIVE_GROUP, version: ARCHIVE_VERSION, kind, description, properties }),
    [`${P}${kind}List`]: listDefinition(ARCHIVE_GROUP, ARCHIVE_VERSION, kind, `${P}${kind}`),
  };
}

const ENTRY = {
  original: open('The archived object: apiVersion, kind, resource, namespace, name and uid.'),
  deletion: open('When, by whom and why it left storage: time, user, reason and the cascade, namespace or CRD.'),
  object: open('Its last state, as stored.'),
};

export const ARCHIVED_OBJECT_DEFINITIONS = kindAndList('ArchivedObject', 'An object of a namespaced kind, as it was removed.', ENTRY);
export const CLUSTER_ARCHIVED_OBJECT_DEFINITIONS = kindAndList(
  'ClusterArchivedObject',
  'An object of a cluster-scoped kind, as it was removed.',
  ENTRY,
);
export const RESTORE_DEFINITIONS = kindAndList('Restore', 'Recreates archived objects, rolling forward.', {
  spec: open('target (resource, namespace, name or uid, asOf), withDependents, dependentsOnly, dryRun; requester is set by the server.'),
  status: open('restored (old uid → new uid), notRestored (why not) and the Complete or Failed condition.'),
});
