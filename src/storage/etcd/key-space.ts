import { posix } from 'node:path';

/** The root under which the registry lays out its keys, and kube-apiserver's default --etcd-prefix. */
export const DEFAULT_ETCD_PREFIX = '/registry';

/** etcd's range end for "every key from here on". */
const TO_THE_END = Buffer.from([0]);

export interface EtcdRange {
  readonly key: Buffer;
  readonly range_end: Buffer;
}

/**
 * Maps backend keys to etcd keys. The registry already builds keys as kube-apiserver stores them
 * (`/registry/<resource>/...`), so the etcd prefix replaces that leading `/registry`: with `--etcd-prefix=/a/b`
 * the pod key `/registry/pods/ns/x` is stored as `/a/b/pods/ns/x`, exactly where a kube-apiserver with the same
 * flag would keep it. With the default prefix keys are stored unchanged, whatever they look like.
 *
 * With any other prefix only keys starting with `/registry` can be mapped (others throw a RangeError), and a
 * list/watch prefix shorter than `/registry` that `/registry` starts with (such as `""`) covers every mapped key.
 * Byte-wise prefix relations are preserved, so prefix lists and watches select the same keys on both sides.
 */
export class KeySpace {
  /** The normalized prefix: leading slash, no trailing slash; `""` for the root. */
  readonly prefix: string;
  readonly #identity: boolean;

  constructor(prefix: string = DEFAULT_ETCD_PREFIX) {
    // kube-apiserver joins the flag onto "/" the same way, so "registry", "/registry/" and "/registry" agree.
    const joined = posix.join('/', prefix);
    this.prefix = joined === '/' ? '' : joined.replace(/\/+$/, '');
    this.#identity = this.prefix === DEFAULT_ETCD_PREFIX;
  }

  toEtcd(key: string): Buffer {
    if (this.#identity) return Buffer.from(key);
    if (!key.startsWith(DEFAULT_ETCD_PREFIX)) {
      throw new RangeError(
        `key ${JSON.stringify(key)} is outside ${DEFAULT_ETCD_PREFIX}, which etcd prefix ${JSON.stringify(this.prefix)} replaces`,
      );
    }
    return Buffer.from(this.prefix + key.slice(DEFAULT_ETCD_PREFIX.length));
  }

  fromEtcd(key: Buffer): string {
    const text = key.toString('utf8');
    if (this.#identity) return text;
    return DEFAULT_ETCD_PREFIX + text.slice(this.prefix.length);
  }

  /** The etcd range of keys starting with prefix, beginning at startKey when that is later (both inclusive). */
  range(prefix: string, startKey?: string): EtcdRange {
    const mapped = this.#prefixToEtcd(prefix);
    const end = mapped.length === 0 ? TO_THE_END : prefixEnd(mapped);
    let key = mapped.length === 0 ? TO_THE_END : mapped;
    if (startKey !== undefined) {
      const start = this.toEtcd(startKey);
      if (Buffer.compare(start, key) > 0) key = start;
    }
    return { key, range_end: end };
  }

  #prefixToEtcd(prefix: string): Buffer {
    if (!this.#identity && DEFAULT_ETCD_PREFIX.startsWith(prefix)) return Buffer.from(this.prefix);
    return this.toEtcd(prefix);
  }
}

/** The first key after every key that starts with prefix, or etcd's "to the end" when there is none. */
function prefixEnd(prefix: Buffer): Buffer {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const byte = prefix[i] as number;
    if (byte < 0xff) {
      const end = Buffer.from(prefix.subarray(0, i + 1));
      end[i] = byte + 1;
      return end;
    }
  }
  return TO_THE_END;
}
