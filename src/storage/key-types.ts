/**
 * Which resource a storage key belongs to, as kube-apiserver labels its etcd request metrics (`type`, the
 * group-resource: "configmaps", "deployments.apps"). The registry, which lays keys out, records each resource's
 * prefix here the first time it builds one; a prefix means the same resource in every server of the process.
 */
const typesByPrefix = new Map<string, string>();

/** `prefix` is a resource's key prefix, ending in "/" (e.g. "/registry/services/specs/"). */
export function registerKeyType(prefix: string, type: string): void {
  typesByPrefix.set(prefix, type);
}

/**
 * The resource of a key or key prefix: resource prefixes have one segment after the root, or two (a group
 * before the resource, or an overridden layout such as services/specs), and the longer match wins. Keys of no
 * known resource have the empty type.
 */
export function keyTypeOf(key: string): string {
  const first = key.indexOf('/', 1);
  if (first < 0) return '';
  const second = key.indexOf('/', first + 1);
  if (second < 0) return '';
  const third = key.indexOf('/', second + 1);
  if (third >= 0) {
    const two = typesByPrefix.get(key.slice(0, third + 1));
    if (two !== undefined) return two;
  }
  return typesByPrefix.get(key.slice(0, second + 1)) ?? '';
}
