import type { FieldNumberTable } from '../define/field-numbers.js';

export const META_FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup': {
    tags: { name: 1, versions: 2, preferredVersion: 3, serverAddressByClientCIDRs: 4 },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList': { tags: { groups: 1 } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource': {
    tags: {
      name: 1,
      namespaced: 2,
      kind: 3,
      verbs: 4,
      shortNames: 5,
      singularName: 6,
      categories: 7,
      group: 8,
      version: 9,
      storageVersionHash: 10,
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList': { tags: { groupVersion: 1, resources: 2 } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions': { tags: { versions: 1, serverAddressByClientCIDRs: 2 } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition': {
    tags: { type: 1, status: 2, observedGeneration: 3, lastTransitionTime: 4, reason: 5, message: 6 },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions': {
    tags: {
      gracePeriodSeconds: 1,
      preconditions: 2,
      orphanDependents: 3,
      propagationPolicy: 4,
      dryRun: 5,
      ignoreStoreReadErrorWithClusterBreakingPotential: 6,
    },
    pointers: ['gracePeriodSeconds', 'orphanDependents', 'propagationPolicy', 'ignoreStoreReadErrorWithClusterBreakingPotential'],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery': { tags: { groupVersion: 1, version: 2 } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector': { tags: { matchLabels: 1, matchExpressions: 2 } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement': { tags: { key: 1, operator: 2, values: 3 } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta': {
    tags: { selfLink: 1, resourceVersion: 2, continue: 3, remainingItemCount: 4 },
    pointers: ['remainingItemCount'],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry': {
    tags: { manager: 1, operation: 2, apiVersion: 3, time: 4, fieldsType: 6, fieldsV1: 7, subresource: 8 },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
    tags: {
      name: 1,
      generateName: 2,
      namespace: 3,
      selfLink: 4,
      uid: 5,
      resourceVersion: 6,
      generation: 7,
      creationTimestamp: 8,
      deletionTimestamp: 9,
      deletionGracePeriodSeconds: 10,
      labels: 11,
      annotations: 12,
      ownerReferences: 13,
      finalizers: 14,
      managedFields: 17,
    },
    pointers: ['deletionGracePeriodSeconds'],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': {
    tags: { kind: 1, name: 3, uid: 4, apiVersion: 5, controller: 6, blockOwnerDeletion: 7 },
    pointers: ['controller', 'blockOwnerDeletion'],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions': {
    tags: { uid: 1, resourceVersion: 2 },
    pointers: ['uid', 'resourceVersion'],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR': { tags: { clientCIDR: 1, serverAddress: 2 } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status': {
    tags: { metadata: 1, status: 2, message: 3, reason: 4, details: 5, code: 6 },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause': { tags: { reason: 1, message: 2, field: 3 } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails': {
    tags: { name: 1, group: 2, kind: 3, causes: 4, retryAfterSeconds: 5, uid: 6 },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent': { tags: { type: 1, object: 2 } },
};
