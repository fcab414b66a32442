/**
 * The pod-template-hash (controller.ComputeHash, R12.45): a 32-bit FNV-1a of the template and, when set, the
 * collision count (as 8 little-endian bytes of which the low 4 carry the count), printed in decimal and mapped
 * character by character onto rand.SafeEncodeString's alphabet.
 *
 * Kubernetes feeds the hasher a spew dump of the Go struct (type names, pointer layout, Go's map printing), which
 * has no equivalent for decoded JSON; the value therefore cannot equal Kubernetes' for the same template. What is
 * hashed here is the template's canonical JSON (keys sorted), so equal templates give equal hashes and any change
 * of template or collision count gives another.
 */

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** JSON with object keys sorted at every level, so two equal values print the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function fnv1a(bytes: Uint8Array, seed = FNV_OFFSET): number {
  let hash = seed;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, FNV_PRIME) >>> 0;
  return hash >>> 0;
}

/** rand.SafeEncodeString: each character replaced by the alphabet letter its code point selects. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += SAFE_ALPHABET[s.charCodeAt(i) % SAFE_ALPHABET.length];
  return out;
}

export function computeHash(template: unknown, collisionCount: number | undefined): string {
  let hash = fnv1a(new TextEncoder().encode(canonicalJson(template)));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv1a(bytes, hash);
  }
  return safeEncodeString(String(hash));
}
