import type { KubeObject, ObjectMeta } from '../api/types.js';

/**
 * An informer transform keeping what a metadata informer (client-go's metadatainformer, fed PartialObjectMetadata)
 * holds, without managedFields, which kube-controller-manager's informers also drop: for controllers that read
 * nothing but metadata (the garbage collector, quota replenishment), so their caches do not keep every object's
 * data. A cache of 100,000 ~2 KB ConfigMaps keeps ~0.3 KB per object instead of the whole decoded object.
 *
 * The result shares the metadata's values (labels, ownerReferences…) with the object it came from; informer
 * objects are immutable, so nothing writes through either.
 */
export function metadataOnly(obj: KubeObject): KubeObject {
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: metadata as ObjectMeta };
}
