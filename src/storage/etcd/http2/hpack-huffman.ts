/**
 * Decoding of HPACK's Huffman-coded strings (RFC 7541 section 5.2 and Appendix B). Only decoding: the client sends
 * its few header values as raw octets, and meets Huffman coding only in what etcd sends.
 *
 * The code is canonical: codes of one length are consecutive in symbol order, and each length's first code follows
 * on from the last code of the length before. So the table below holds only each symbol's code length, and the codes
 * are derived from it; the tests check the derivation against codes Appendix B lists.
 */

const EOS = 256;
const MAX_CODE_LENGTH = 30;

/** Code length in bits of octets 0–255 and then EOS, per RFC 7541 Appendix B, sixteen symbols a row. */
// biome-ignore format: rows of sixteen keep a symbol's position readable
const CODE_LENGTHS: readonly number[] = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
  28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
  5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
  6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
  24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
  21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
  19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
  26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  30,
];

/**
 * The decoder walks a string bit by bit, keeping the bits since the last symbol as a number. At each length, the
 * codes of that length are the numbers from the first such code up to (not including) `LIMIT[length]`; a smaller
 * number cannot occur, because it would have matched a shorter code already. A code that fits is the symbol at
 * `SYMBOLS[BASE[length] + code]`, SYMBOLS listing symbols by code.
 */
const LIMIT = new Int32Array(MAX_CODE_LENGTH + 1);
const BASE = new Int32Array(MAX_CODE_LENGTH + 1);
const SYMBOLS = new Uint16Array(EOS + 1);
const CODES = new Uint32Array(EOS + 1);
{
  let code = 0;
  let assigned = 0;
  for (let length = 1; length <= MAX_CODE_LENGTH; length++) {
    BASE[length] = assigned - code;
    for (let symbol = 0; symbol <= EOS; symbol++) {
      if (CODE_LENGTHS[symbol] !== length) continue;
      CODES[symbol] = code++;
      SYMBOLS[assigned++] = symbol;
    }
    LIMIT[length] = code;
    code *= 2;
  }
}

/** Each symbol's code, right-aligned in `code`, as derived from the lengths; symbol 256 is EOS. */
export const HUFFMAN_CODES: ReadonlyArray<{ readonly code: number; readonly length: number }> = Array.from(CODES, (code, symbol) => ({
  code,
  length: CODE_LENGTHS[symbol]!,
}));

/** Decodes `bytes[start, end)` into a latin1 string, one character per octet. */
export function decodeHuffman(bytes: Uint8Array, start: number, end: number): string {
  // The shortest code has 5 bits, which bounds the output length.
  const out = Buffer.allocUnsafe(Math.floor(((end - start) * 8) / 5));
  let written = 0;
  let code = 0;
  let length = 0;
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    for (let shift = 7; shift >= 0; shift--) {
      code = (code << 1) | ((byte >> shift) & 1);
      length++;
      if (code >= LIMIT[length]!) continue;
      const symbol = SYMBOLS[BASE[length]! + code]!;
      if (symbol === EOS) throw new Error(`HPACK: Huffman-coded string contains EOS (ending at octet ${i - start})`);
      out[written++] = symbol;
      code = 0;
      length = 0;
    }
  }
  // Every 30-bit sequence is some code, so what is left over is shorter than that: it must be padding.
  if (length > 7) throw new Error(`HPACK: Huffman-coded string ends in ${length} bits of padding, more than 7`);
  if (code !== 2 ** length - 1) throw new Error('HPACK: Huffman-coded string ends in padding that is not a prefix of EOS (all ones)');
  return out.toString('latin1', 0, written);
}
