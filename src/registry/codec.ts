import type { KeyValue } from '../storage/backend.js';
import type { KubeObject } from '../api/types.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Objects are stored as JSON without `resourceVersion`: the version is the storage revision of the write,
 * filled in on the way out, exactly as kube-apiserver does with etcd.
 */
export function encodeObject(obj: KubeObject): Uint8Array {
  // Objects being created carry no resourceVersion, so they need no copy without it.
  if (obj.metadata.resourceVersion === undefined) return encoder.encode(JSON.stringify(obj));
  const { resourceVersion: _ignored, ...metadata } = obj.metadata;
  return encoder.encode(JSON.stringify({ ...obj, metadata }));
}

export function decodeObject(kv: KeyValue): KubeObject {
  const obj = JSON.parse(decoder.decode(kv.value)) as KubeObject;
  obj.metadata.resourceVersion = String(kv.modRevision);
  return obj;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
