import { createHash } from 'node:crypto';
import type { ResourceInfo } from '../api/resource-info.js';
import type { GroupVersionKind } from '../api/types.js';

/**
 * The storageVersionHash of discovery (apiserver endpoints/discovery StorageVersionHash): base64 of the
 * first 8 bytes of sha256("<group>/<version>/<kind>") of the kind objects are persisted as.
 */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

/**
 * Resources whose objects kube-apiserver persists as another group-version's kind (storage factory
 * "cohabitating resources"): events.k8s.io events share storage with, and are encoded as, core v1 Events; every
 * served version of HorizontalPodAutoscalers is stored as autoscaling/v2.
 */
const COHABITATING_STORAGE: ReadonlyMap<string, GroupVersionKind> = new Map([
  ['events.k8s.io/events', { group: '', version: 'v1', kind: 'Event' }],
  ['autoscaling/horizontalpodautoscalers', { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' }],
]);

/** The kind a resource is persisted as; its served group/version/kind unless it cohabits with another. */
export function storageKindOf(info: Pick<ResourceInfo, 'group' | 'version' | 'kind' | 'plural'>): GroupVersionKind {
  return (
    COHABITATING_STORAGE.get(`${info.group}/${info.plural}`) ?? {
      group: info.group,
      version: info.version,
      kind: info.kind,
    }
  );
}

export function storageVersionHashOf(info: Pick<ResourceInfo, 'group' | 'version' | 'kind' | 'plural'>): string {
  const storage = storageKindOf(info);
  return storageVersionHash(storage.group, storage.version, storage.kind);
}
