import type { KubeObject } from '../api/types.js';

/** client-go's MetaNamespaceKeyFunc: "namespace/name" for namespaced objects, "name" for cluster-scoped ones. */
export function objectKey(obj: KubeObject): string {
  const { name, namespace } = obj.metadata;
  if (name === undefined || name === '') throw new Error('cannot key an object without metadata.name');
  return objectKeyOf(namespace, name);
}

/** Joined into one flat string, not concatenated into a rope: see "Map keys" in docs/architecture.md. */
export function objectKeyOf(namespace: string | undefined, name: string): string {
  return namespace === undefined || namespace === '' ? name : [namespace, '/', name].join('');
}

/** The inverse of objectKey. */
export function splitObjectKey(key: string): { namespace: string | undefined; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: undefined, name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
