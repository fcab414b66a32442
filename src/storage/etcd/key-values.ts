import type { IKeyValue } from 'etcd3';
import type { KeyValue } from '../backend.js';
import type { KeySpace } from './key-space.js';

/** etcd revisions are int64 and arrive as decimal strings; ours stay far below 2^53. */
export function revisionOf(value: string | number): number {
  const revision = Number(value);
  if (!Number.isSafeInteger(revision) || revision < 0) throw new RangeError(`etcd revision out of range: ${String(value)}`);
  return revision;
}

export function toKeyValue(keys: KeySpace, kv: IKeyValue): KeyValue {
  return {
    key: keys.fromEtcd(kv.key),
    value: kv.value,
    createRevision: revisionOf(kv.create_revision),
    modRevision: revisionOf(kv.mod_revision),
  };
}

/** A view of the caller's bytes for the gRPC encoder, without copying. */
export function toBuffer(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}
