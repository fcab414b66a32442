import type { ResourceInfo } from '../../api/resource-info.js';

/** The API group and version of Cascade's own archive and restore resources. */
export const ARCHIVE_GROUP = 'cascade.dev';
export const ARCHIVE_VERSION = 'v1alpha1';

const readOnly = (kind: string, plural: string, namespaced: boolean, shortNames: string[]): ResourceInfo => ({
  group: ARCHIVE_GROUP,
  version: ARCHIVE_VERSION,
  kind,
  listKind: `${kind}List`,
  plural,
  singular: kind.toLowerCase(),
  namespaced,
  // Entries are written by the store as objects are removed, and by nothing else: create, update and delete get
  // 405 MethodNotAllowed as kube-apiserver answers a verb a resource does not serve.
  verbs: ['get', 'list', 'watch'],
  shortNames,
  categories: [],
  subresources: [],
  // Entries are named after the original object's uid.
  nameFormat: 'path-segment',
  definition: `dev.cascade.${ARCHIVE_VERSION}.${kind}`,
  // Served as Cascade's other extension kinds (ProtectionRules) are, like custom resources: no built-in typed decoding.
  custom: true,
});

/**
 * Archived objects of namespaced kinds, in the namespace the original was in. Two resources rather than one, as
 * Roles and ClusterRoles are: a namespaced resource's keys, authorization and `-n` all assume every entry has a
 * namespace, and RBAC can grant one namespace's archive without granting the cluster's.
 */
export const ARCHIVED_OBJECTS = readOnly('ArchivedObject', 'archivedobjects', true, ['ao']);
/** Archived objects of cluster-scoped kinds (namespaces, CustomResourceDefinitions, ClusterRoles…). */
export const CLUSTER_ARCHIVED_OBJECTS = readOnly('ClusterArchivedObject', 'clusterarchivedobjects', false, ['cao']);

/** Which archive resource keeps a removed object of this resource. */
export function archiveResourceFor(original: Pick<ResourceInfo, 'namespaced'>): ResourceInfo {
  return original.namespaced ? ARCHIVED_OBJECTS : CLUSTER_ARCHIVED_OBJECTS;
}

export function isArchiveResource(info: Pick<ResourceInfo, 'group' | 'plural'>): boolean {
  return info.group === ARCHIVE_GROUP && (info.plural === ARCHIVED_OBJECTS.plural || info.plural === CLUSTER_ARCHIVED_OBJECTS.plural);
}
