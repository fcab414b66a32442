import type { EtcdKv } from './kv-client.js';
import type { EtcdKeyValue } from './kv-messages.js';

/** etcd's default --max-txn-ops. */
const MAX_KEYS_PER_BATCH = 128;

export interface PointRead {
  readonly revision: number;
  readonly kv: EtcdKeyValue | undefined;
}

interface Waiting {
  readonly key: Buffer;
  readonly resolve: (read: PointRead) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Coalesces reads of single keys at the latest revision. With no read in flight a read goes out at once; reads
 * that arrive while one is in flight wait for it and then go out together, as one read-only etcd transaction
 * with a range per distinct key. Each caller's answer thus comes from a read sent after its call began, so the
 * reads stay linearizable, while a burst of requests that each look up the same object (a namespace, say)
 * costs one round trip instead of one each. Every gRPC call costs the client tens of microseconds of CPU or more,
 * which is what limits a server on etcd long before etcd does.
 */
export class ReadBatcher {
  readonly #kv: Pick<EtcdKv, 'range' | 'txn'>;
  #queue: Waiting[] = [];
  #inFlight = false;

  constructor(kv: Pick<EtcdKv, 'range' | 'txn'>) {
    this.#kv = kv;
  }

  read(key: Buffer): Promise<PointRead> {
    return new Promise<PointRead>((resolve, reject) => {
      this.#queue.push({ key, resolve, reject });
      if (!this.#inFlight) this.#flush();
    });
  }

  #flush(): void {
    const batch = this.#takeBatch();
    if (batch.length === 0) return;
    this.#inFlight = true;
    this.#send(batch).finally(() => {
      this.#inFlight = false;
      this.#flush();
    });
  }

  /** The queued reads of up to MAX_KEYS_PER_BATCH distinct keys, in arrival order. */
  #takeBatch(): Waiting[] {
    const keys = new Set<string>();
    let taken = 0;
    for (; taken < this.#queue.length; taken++) {
      const id = (this.#queue[taken] as Waiting).key.toString('latin1');
      if (!keys.has(id) && keys.size === MAX_KEYS_PER_BATCH) break;
      keys.add(id);
    }
    const batch = this.#queue.slice(0, taken);
    this.#queue = this.#queue.slice(taken);
    return batch;
  }

  async #send(batch: Waiting[]): Promise<void> {
    const distinct = [...new Map(batch.map((waiting) => [waiting.key.toString('latin1'), waiting.key]))];
    try {
      const found = new Map<string, EtcdKeyValue | undefined>();
      let revision: number;
      const only = distinct.length === 1 ? distinct[0] : undefined;
      if (only !== undefined) {
        const response = await this.#kv.range({ key: only[1] });
        revision = response.revision;
        found.set(only[0], response.kvs[0]);
      } else {
        const response = await this.#kv.txn({ success: distinct.map(([, key]) => ({ range: { key } })) });
        revision = response.revision;
        for (const [i, [id]] of distinct.entries()) found.set(id, response.responses[i]?.range?.kvs[0]);
      }
      for (const waiting of batch) waiting.resolve({ revision, kv: found.get(waiting.key.toString('latin1')) });
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }
}
