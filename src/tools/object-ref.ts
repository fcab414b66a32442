import { qualifiedResource, type ResourceInfo } from '../api/resource-info.js';
import type { KubeObject, OwnerReference } from '../api/types.js';

/** How every report names an object: enough to find it again with kubectl, plus its uid. */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  /** Qualified resource, e.g. "replicasets.apps", "pods"; empty when the kind is not served. */
  readonly resource: string;
  /** Absent for cluster-scoped objects. */
  readonly namespace?: string;
  readonly name: string;
  readonly uid: string;
}

/** A listed object together with the served resource it was read from. */
export interface Entry {
  readonly object: KubeObject;
  readonly info: ResourceInfo;
  readonly ref: ObjectRef;
}

export function entryOf(object: KubeObject, info: ResourceInfo, apiVersion: string): Entry {
  const namespace = object.metadata.namespace;
  const ref: ObjectRef = {
    apiVersion,
    kind: info.kind,
    resource: qualifiedResource(info),
    ...(info.namespaced && namespace !== undefined && namespace !== '' ? { namespace } : {}),
    name: object.metadata.name ?? '',
    uid: object.metadata.uid ?? '',
  };
  return { object: { ...object, apiVersion, kind: info.kind }, info, ref };
}

/** The object an owner reference points at, as far as the reference itself can tell. */
export function refFromOwnerReference(owner: OwnerReference, resource: string, namespace: string | undefined): ObjectRef {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    resource,
    ...(namespace === undefined ? {} : { namespace }),
    name: owner.name,
    uid: owner.uid,
  };
}

/** "ReplicaSet/web-rs" or, across namespaces, "ReplicaSet/web-rs (namespace default)". */
export function describeRef(ref: ObjectRef, contextNamespace?: string): string {
  const base = `${ref.kind}/${ref.name}`;
  if (ref.namespace === undefined) return contextNamespace === undefined ? base : `${base} (cluster-scoped)`;
  return ref.namespace === contextNamespace ? base : `${base} (namespace ${ref.namespace})`;
}
