import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeHuffman, HUFFMAN_CODES } from './hpack-huffman.js';

const EOS = 256;

function hex(text: string): Uint8Array {
  return Buffer.from(text.replace(/\s+/g, ''), 'hex');
}

function decode(bytes: Uint8Array): string {
  return decodeHuffman(bytes, 0, bytes.byteLength);
}

/** Encodes octets with the derived codes, padding with the most significant bits of EOS. */
function encode(octets: Uint8Array): Uint8Array {
  const out: number[] = [];
  let pending = 0;
  let pendingBits = 0;
  for (const octet of octets) {
    const { code, length } = HUFFMAN_CODES[octet]!;
    for (let bit = length - 1; bit >= 0; bit--) {
      pending = (pending << 1) | (Math.floor(code / 2 ** bit) & 1);
      if (++pendingBits === 8) {
        out.push(pending);
        pending = 0;
        pendingBits = 0;
      }
    }
  }
  if (pendingBits > 0) out.push((pending << (8 - pendingBits)) | (0xff >> pendingBits));
  return Uint8Array.from(out);
}

describe('HPACK Huffman code', () => {
  it('derives the codes RFC 7541 Appendix B lists from the code lengths alone', () => {
    const listed: Array<[symbol: number, code: number, length: number]> = [
      [0, 0x1ff8, 13],
      [' '.charCodeAt(0), 0b010100, 6],
      ['&'.charCodeAt(0), 0xf8, 8],
      ['0'.charCodeAt(0), 0b00000, 5],
      [':'.charCodeAt(0), 0b1011100, 7],
      ['A'.charCodeAt(0), 0b100001, 6],
      ['a'.charCodeAt(0), 0b00011, 5],
      ['z'.charCodeAt(0), 0b1111011, 7],
      [127, 0xffffffc, 28],
      [203, 0x7ffffde, 27],
      [255, 0x3ffffee, 26],
      [EOS, 0x3fffffff, 30],
    ];
    for (const [symbol, code, length] of listed) {
      assert.deepEqual(HUFFMAN_CODES[symbol], { code, length }, `symbol ${symbol}`);
    }
  });

  it('is a complete prefix code over 257 symbols', () => {
    assert.equal(HUFFMAN_CODES.length, 257);
    // Kraft's sum is exactly 1 for a complete code; the powers of two involved add up exactly in a double.
    assert.equal(
      HUFFMAN_CODES.reduce((sum, { length }) => sum + 2 ** -length, 0),
      1,
    );
    // Left-aligned to 30 bits, sorted codes of a prefix code never start inside the previous code's range.
    const ranges = HUFFMAN_CODES.map(({ code, length }) => [code * 2 ** (30 - length), 2 ** (30 - length)] as const).sort(
      (a, b) => a[0] - b[0],
    );
    for (let i = 1; i < ranges.length; i++) {
      assert.ok(ranges[i]![0] >= ranges[i - 1]![0] + ranges[i - 1]![1], `codes overlap at position ${i}`);
    }
  });

  it('decodes the Huffman-coded strings of RFC 7541 Appendix C.4 and C.6', () => {
    const examples: Array<[encoded: string, text: string]> = [
      ['f1e3 c2e5 f23a 6ba0 ab90 f4ff', 'www.example.com'],
      ['a8eb 1064 9cbf', 'no-cache'],
      ['25a8 49e9 5ba9 7d7f', 'custom-key'],
      ['25a8 49e9 5bb8 e8b4 bf', 'custom-value'],
      ['6402', '302'],
      ['640e ff', '307'],
      ['aec3 771a 4b', 'private'],
      ['d07a be94 1054 d444 a820 0595 040b 8166 e082 a62d 1bff', 'Mon, 21 Oct 2013 20:13:21 GMT'],
      ['d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff', 'Mon, 21 Oct 2013 20:13:22 GMT'],
      ['9d29 ad17 1863 c78f 0b97 c8e9 ae82 ae43 d3', 'https://www.example.com'],
      ['9bd9 ab', 'gzip'],
      [
        '94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07',
        'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1',
      ],
    ];
    for (const [encoded, text] of examples) {
      assert.equal(decode(hex(encoded)), text);
      assert.equal(Buffer.from(encode(Buffer.from(text, 'latin1'))).toString('hex'), encoded.replace(/ /g, ''), `test encoder on ${text}`);
    }
  });

  it('decodes only the given range of a larger buffer', () => {
    const bytes = hex('ff 6402 ff');
    assert.equal(decodeHuffman(bytes, 1, 3), '302');
    assert.equal(decodeHuffman(bytes, 1, 1), '');
  });

  it('round-trips every octet value, each alone and all together', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    for (const octet of all) {
      assert.equal(decode(encode(Uint8Array.of(octet))), String.fromCharCode(octet), `octet ${octet}`);
    }
    assert.equal(decode(encode(all)), Buffer.from(all).toString('latin1'));
    const reversed = all.slice().reverse();
    assert.equal(decode(encode(reversed)), Buffer.from(reversed).toString('latin1'));
  });

  it('accepts up to 7 bits of padding', () => {
    // '0' is 00000, then 111 padding; 'a' 00011 'a' 00011 then 111111 padding.
    assert.equal(decode(Uint8Array.of(0b00000111)), '0');
    assert.equal(decode(Uint8Array.of(0b00011000, 0b11111111)), 'aa');
  });

  it('rejects padding longer than 7 bits', () => {
    for (const encoded of ['ff', '1fff', '1fffff', '1fffffff', 'ff9fffffff']) {
      assert.throws(() => decode(hex(encoded)), /more than 7/, encoded);
    }
  });

  it('rejects padding that is not the most significant bits of EOS', () => {
    // '0' followed by 000; then 'a' followed by 101.
    for (const encoded of ['00', '1d']) {
      assert.throws(() => decode(hex(encoded)), /not a prefix of EOS/, encoded);
    }
  });

  it('rejects EOS inside the string', () => {
    assert.throws(() => decode(hex('ffff ffff fc')), /contains EOS/);
    const eos = HUFFMAN_CODES[EOS]!;
    assert.equal(eos.code, 2 ** 30 - 1);
    // '0' (00000), EOS (30 ones), '0' (00000), one bit of padding.
    const bits = `00000${'1'.repeat(30)}000001`;
    const bytes = Uint8Array.from({ length: bits.length / 8 }, (_, i) => Number.parseInt(bits.slice(i * 8, i * 8 + 8), 2));
    assert.throws(() => decode(bytes), /contains EOS/);
  });
});
