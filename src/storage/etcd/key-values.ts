import type { KeyValue } from '../backend.js';
import type { KeySpace } from './key-space.js';
import type { EtcdKeyValue } from './kv-messages.js';

export function fromEtcdKeyValue(keys: KeySpace, kv: EtcdKeyValue): KeyValue {
  return { key: keys.fromEtcd(kv.key), value: kv.value, createRevision: kv.createRevision, modRevision: kv.modRevision };
}
