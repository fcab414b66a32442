// A small deterministic PRNG for the fuzz suite: the same seed always yields the same requests, on any machine, so a
// failure found in CI can be replayed locally from the seed it printed.

/** Mixes a 32-bit value well (splitmix32's finalizer): nearby seeds and indices give unrelated streams. */
export function mix32(value: number): number {
  let z = (value + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Parses a seed given as decimal or 0x-hex; anything else is refused rather than silently hashed. */
export function parseSeed(text: string): number {
  const trimmed = text.trim();
  const value = /^0x[0-9a-f]+$/i.test(trimmed)
    ? Number.parseInt(trimmed.slice(2), 16)
    : /^\d+$/.test(trimmed)
      ? Number(trimmed)
      : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 0 || value > 0xffffffff) throw new Error(`not a 32-bit seed: ${JSON.stringify(text)}`);
  return value;
}

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = mix32(seed >>> 0);
  }

  /** The stream of request `index` under `seed`: each request can be regenerated alone. */
  static forRequest(seed: number, index: number): Random {
    return new Random(mix32(seed ^ mix32(index + 1)));
  }

  /** mulberry32: a uniform 32-bit integer. */
  uint32(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.uint32() / 0x1_0000_0000;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    if (!(n >= 1)) throw new Error(`int(${n})`);
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  /** Picks by weight: entries are [weight, value]. */
  weighted<T>(entries: readonly (readonly [number, T])[]): T {
    const total = entries.reduce((sum, [w]) => sum + w, 0);
    let roll = this.float() * total;
    for (const [w, value] of entries) {
      roll -= w;
      if (roll < 0) return value;
    }
    return (entries[entries.length - 1] as readonly [number, T])[1];
  }

  string(length: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }
}
