/** Keys per chunk before a chunk is split in two. */
const MAX_CHUNK = 512;
/** A chunk this small is merged into its successor when the result fits. */
const MIN_CHUNK = MAX_CHUNK / 4;

/**
 * A set of strings kept in ascending order (JavaScript string order, i.e. UTF-16 code units; equal to etcd's
 * byte order for keys without characters above U+FFFF).
 *
 * Keys live in a list of sorted chunks of bounded size, so an insert or delete costs two binary searches plus a
 * move of at most MAX_CHUNK keys and of the chunk list (n / MAX_CHUNK entries), instead of shifting all n keys.
 */
export class SortedKeySet {
  readonly #chunks: string[][] = [];
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Returns false when the key was already present. */
  add(key: string): boolean {
    if (this.#chunks.length === 0) {
      this.#chunks.push([key]);
      this.#size = 1;
      return true;
    }
    const chunkIndex = Math.min(this.#chunkFor(key), this.#chunks.length - 1);
    const chunk = this.#chunks[chunkIndex] as string[];
    const at = lowerBound(chunk, key);
    if (chunk[at] === key) return false;
    chunk.splice(at, 0, key);
    this.#size += 1;
    if (chunk.length > MAX_CHUNK) this.#chunks.splice(chunkIndex + 1, 0, chunk.splice(chunk.length >> 1));
    return true;
  }

  /** Returns false when the key was absent. */
  delete(key: string): boolean {
    const chunkIndex = this.#chunkFor(key);
    const chunk = this.#chunks[chunkIndex];
    if (chunk === undefined) return false;
    const at = lowerBound(chunk, key);
    if (chunk[at] !== key) return false;
    chunk.splice(at, 1);
    this.#size -= 1;
    this.#mergeIfSmall(chunkIndex);
    return true;
  }

  /** Yields the keys >= start in ascending order. The set must not change while the iteration runs. */
  *from(start: string): Generator<string, void, undefined> {
    const chunks = this.#chunks;
    let chunkIndex = this.#chunkFor(start);
    const first = chunks[chunkIndex];
    if (first === undefined) return;
    for (let i = lowerBound(first, start); i < first.length; i++) yield first[i] as string;
    for (chunkIndex += 1; chunkIndex < chunks.length; chunkIndex++) yield* chunks[chunkIndex] as string[];
  }

  /** Index of the first chunk whose last key is >= key; chunks.length when every key is smaller. */
  #chunkFor(key: string): number {
    const chunks = this.#chunks;
    let low = 0;
    let high = chunks.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const chunk = chunks[mid] as string[];
      if ((chunk[chunk.length - 1] as string) < key) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  #mergeIfSmall(chunkIndex: number): void {
    const chunk = this.#chunks[chunkIndex] as string[];
    if (chunk.length === 0) {
      this.#chunks.splice(chunkIndex, 1);
      return;
    }
    const next = this.#chunks[chunkIndex + 1];
    if (chunk.length < MIN_CHUNK && next !== undefined && chunk.length + next.length <= MAX_CHUNK) {
      this.#chunks.splice(chunkIndex, 2, chunk.concat(next));
    }
  }
}

function lowerBound(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] as string) < key) low = mid + 1;
    else high = mid;
  }
  return low;
}
