import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HpackDecoder } from './hpack-decoder.js';
import { STATIC_TABLE } from './hpack-static-table.js';

type Field = [name: string, value: string];

function hex(text: string): Uint8Array {
  return Buffer.from(text.replace(/\s+/g, ''), 'hex');
}

/** An integer with an N-bit prefix (RFC 7541 section 5.1), `flags` above the prefix. */
function integer(value: number, prefixBits: number, flags: number): number[] {
  const max = 2 ** prefixBits - 1;
  if (value < max) return [flags | value];
  const out = [flags | max];
  let rest = value - max;
  for (; rest >= 0x80; rest = Math.floor(rest / 0x80)) out.push((rest % 0x80) | 0x80);
  out.push(rest);
  return out;
}

function rawString(text: string): number[] {
  const bytes = [...Buffer.from(text, 'latin1')];
  return [...integer(bytes.length, 7, 0), ...bytes];
}

/** A literal with incremental indexing and a literal name, without Huffman coding. */
function indexedLiteral(name: string, value: string): number[] {
  return [0x40, ...rawString(name), ...rawString(value)];
}

/**
 * The dynamic table, newest first, read through indexed field representations (which leave the table as it is),
 * and its size per section 4.1.
 */
function dynamicTable(decoder: HpackDecoder): { entries: Field[]; size: number } {
  const entries: Field[] = [];
  for (let index = STATIC_TABLE.length + 1; ; index++) {
    try {
      entries.push(...decoder.decode(Uint8Array.from(integer(index, 7, 0x80))));
    } catch (error) {
      assert.match((error as Error).message, new RegExp(`index ${index} out of range`));
      break;
    }
  }
  return { entries, size: entries.reduce((sum, [name, value]) => sum + name.length + value.length + 32, 0) };
}

interface Step {
  block: string;
  fields: Field[];
  table: Field[];
  size: number;
}

function decodeSeries(maxTableSize: number, steps: Step[]): void {
  const decoder = new HpackDecoder(maxTableSize);
  steps.forEach((step, i) => {
    assert.deepEqual(decoder.decode(hex(step.block)), step.fields, `fields of block ${i + 1}`);
    assert.deepEqual(dynamicTable(decoder), { entries: step.table, size: step.size }, `dynamic table after block ${i + 1}`);
  });
}

// The header lists and dynamic tables of RFC 7541 Appendix C.3 and C.4, which encode the same requests.
const REQUEST_1: Field[] = [
  [':method', 'GET'],
  [':scheme', 'http'],
  [':path', '/'],
  [':authority', 'www.example.com'],
];
const REQUEST_2: Field[] = [...REQUEST_1, ['cache-control', 'no-cache']];
const REQUEST_3: Field[] = [
  [':method', 'GET'],
  [':scheme', 'https'],
  [':path', '/index.html'],
  [':authority', 'www.example.com'],
  ['custom-key', 'custom-value'],
];
const REQUEST_TABLE_1: Field[] = [[':authority', 'www.example.com']];
const REQUEST_TABLE_2: Field[] = [['cache-control', 'no-cache'], ...REQUEST_TABLE_1];
const REQUEST_TABLE_3: Field[] = [['custom-key', 'custom-value'], ...REQUEST_TABLE_2];

// The same for the responses of Appendix C.5 and C.6, with a 256-octet table.
const RESPONSE_1: Field[] = [
  [':status', '302'],
  ['cache-control', 'private'],
  ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'],
  ['location', 'https://www.example.com'],
];
const RESPONSE_2: Field[] = [[':status', '307'], ...RESPONSE_1.slice(1)];
const RESPONSE_3: Field[] = [
  [':status', '200'],
  ['cache-control', 'private'],
  ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'],
  ['location', 'https://www.example.com'],
  ['content-encoding', 'gzip'],
  ['set-cookie', 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1'],
];
const RESPONSE_TABLE_1: Field[] = [
  ['location', 'https://www.example.com'],
  ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'],
  ['cache-control', 'private'],
  [':status', '302'],
];
// Adding ":status: 307" evicts ":status: 302".
const RESPONSE_TABLE_2: Field[] = [[':status', '307'], ...RESPONSE_TABLE_1.slice(0, 3)];
const RESPONSE_TABLE_3: Field[] = [
  ['set-cookie', 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1'],
  ['content-encoding', 'gzip'],
  ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'],
];

describe('HpackDecoder', () => {
  describe('RFC 7541 Appendix C examples', () => {
    it('C.2.1: literal field with indexing adds to the dynamic table', () => {
      decodeSeries(4096, [
        {
          block: '400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572',
          fields: [['custom-key', 'custom-header']],
          table: [['custom-key', 'custom-header']],
          size: 55,
        },
      ]);
    });

    it('C.2.2: literal field without indexing, indexed name, leaves the table alone', () => {
      decodeSeries(4096, [{ block: '040c 2f73 616d 706c 652f 7061 7468', fields: [[':path', '/sample/path']], table: [], size: 0 }]);
    });

    it('C.2.3: literal field never indexed leaves the table alone', () => {
      decodeSeries(4096, [{ block: '1008 7061 7373 776f 7264 0673 6563 7265 74', fields: [['password', 'secret']], table: [], size: 0 }]);
    });

    it('C.2.4: indexed field from the static table', () => {
      decodeSeries(4096, [{ block: '82', fields: [[':method', 'GET']], table: [], size: 0 }]);
    });

    it('C.3: requests without Huffman coding', () => {
      decodeSeries(4096, [
        { block: '8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d', fields: REQUEST_1, table: REQUEST_TABLE_1, size: 57 },
        { block: '8286 84be 5808 6e6f 2d63 6163 6865', fields: REQUEST_2, table: REQUEST_TABLE_2, size: 110 },
        {
          block: '8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65',
          fields: REQUEST_3,
          table: REQUEST_TABLE_3,
          size: 164,
        },
      ]);
    });

    it('C.4: requests with Huffman coding', () => {
      decodeSeries(4096, [
        { block: '8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff', fields: REQUEST_1, table: REQUEST_TABLE_1, size: 57 },
        { block: '8286 84be 5886 a8eb 1064 9cbf', fields: REQUEST_2, table: REQUEST_TABLE_2, size: 110 },
        {
          block: '8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf',
          fields: REQUEST_3,
          table: REQUEST_TABLE_3,
          size: 164,
        },
      ]);
    });

    it('C.5: responses without Huffman coding, evicting from a 256-octet table', () => {
      decodeSeries(256, [
        {
          block: `4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133
                  2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70
                  6c65 2e63 6f6d`,
          fields: RESPONSE_1,
          table: RESPONSE_TABLE_1,
          size: 222,
        },
        { block: '4803 3330 37c1 c0bf', fields: RESPONSE_2, table: RESPONSE_TABLE_2, size: 222 },
        {
          block: `88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d
                  54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049
                  5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e
                  3d31`,
          fields: RESPONSE_3,
          table: RESPONSE_TABLE_3,
          size: 215,
        },
      ]);
    });

    it('C.6: responses with Huffman coding, evicting from a 256-octet table', () => {
      decodeSeries(256, [
        {
          block: `4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
                  2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3`,
          fields: RESPONSE_1,
          table: RESPONSE_TABLE_1,
          size: 222,
        },
        { block: '4883 640e ffc1 c0bf', fields: RESPONSE_2, table: RESPONSE_TABLE_2, size: 222 },
        {
          block: `88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab
                  77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f
                  9587 3160 65c0 03ed 4ee5 b106 3d50 07`,
          fields: RESPONSE_3,
          table: RESPONSE_TABLE_3,
          size: 215,
        },
      ]);
    });
  });

  it('decodes every static table entry by index', () => {
    const decoder = new HpackDecoder();
    const block = STATIC_TABLE.flatMap((_, i) => integer(i + 1, 7, 0x80));
    assert.deepEqual(
      decoder.decode(Uint8Array.from(block)),
      STATIC_TABLE.map(([name, value]) => [name, value]),
    );
    assert.equal(STATIC_TABLE.length, 61);
    assert.deepEqual(STATIC_TABLE[2], [':method', 'POST']);
    assert.deepEqual(STATIC_TABLE[30], ['content-type', '']);
    assert.deepEqual(STATIC_TABLE[60], ['www-authenticate', '']);
  });

  it('serves the fields a gRPC response indexes on its first use from the dynamic table afterwards', () => {
    const decoder = new HpackDecoder();
    const headers = [0x88, ...integer(31, 6, 0x40), ...rawString('application/grpc')];
    const trailers = [...indexedLiteral('grpc-status', '0'), ...indexedLiteral('grpc-message', '')];
    assert.deepEqual(decoder.decode(Uint8Array.from(headers)), [
      [':status', '200'],
      ['content-type', 'application/grpc'],
    ]);
    assert.deepEqual(decoder.decode(Uint8Array.from(trailers)), [
      ['grpc-status', '0'],
      ['grpc-message', ''],
    ]);
    // Newest first: grpc-message 62, grpc-status 63, content-type 64.
    assert.deepEqual(decoder.decode(hex('88 c0')), [
      [':status', '200'],
      ['content-type', 'application/grpc'],
    ]);
    assert.deepEqual(decoder.decode(hex('bf be')), [
      ['grpc-status', '0'],
      ['grpc-message', ''],
    ]);
  });

  it('keeps indices right as the table wraps around many times', () => {
    const decoder = new HpackDecoder(256);
    const model: Field[] = [];
    for (let i = 0; i < 100; i++) {
      // Sizes vary from 34 to 64 octets, so the number of entries that fit varies too.
      const field: Field = [`n${i}`, 'v'.repeat(i % 31)];
      assert.deepEqual(decoder.decode(Uint8Array.from(indexedLiteral(...field))), [field]);
      model.unshift(field);
      let size = model.reduce((sum, [name, value]) => sum + name.length + value.length + 32, 0);
      while (size > 256) {
        const [name, value] = model.pop()!;
        size -= name.length + value.length + 32;
      }
      assert.deepEqual(dynamicTable(decoder), { entries: model, size }, `after entry ${i}`);
    }
  });

  it('returns non-ASCII octets one character each', () => {
    const decoder = new HpackDecoder();
    assert.deepEqual(decoder.decode(Uint8Array.of(0x00, 0x01, 0x78, 0x02, 0xe9, 0xff)), [['x', '\u00e9\u00ff']]);
  });

  it('decodes a block that is a view into a larger buffer', () => {
    const decoder = new HpackDecoder();
    const buffer = hex('ffff 040c 2f73 616d 706c 652f 7061 7468 ffff');
    assert.deepEqual(decoder.decode(buffer.subarray(2, buffer.byteLength - 2)), [[':path', '/sample/path']]);
  });

  describe('dynamic table size', () => {
    it('empties the table on a size update to 0 and keeps it empty until raised again', () => {
      const decoder = new HpackDecoder();
      decoder.decode(Uint8Array.from([...indexedLiteral('a', '1'), ...indexedLiteral('b', '2')]));
      assert.equal(dynamicTable(decoder).entries.length, 2);
      assert.deepEqual(decoder.decode(Uint8Array.from([0x20, ...indexedLiteral('c', '3')])), [['c', '3']]);
      assert.deepEqual(dynamicTable(decoder), { entries: [], size: 0 });
      // Two updates in one block: the last one sets the limit.
      decoder.decode(Uint8Array.from([0x20, ...integer(4096, 5, 0x20), ...indexedLiteral('d', '4')]));
      assert.deepEqual(dynamicTable(decoder).entries, [['d', '4']]);
    });

    it('evicts the oldest entries when the size shrinks', () => {
      const decoder = new HpackDecoder();
      decoder.decode(Uint8Array.from([...indexedLiteral('a', '1'), ...indexedLiteral('b', '2'), ...indexedLiteral('c', '3')]));
      decoder.decode(Uint8Array.from(integer(68, 5, 0x20)));
      assert.deepEqual(dynamicTable(decoder), {
        entries: [
          ['c', '3'],
          ['b', '2'],
        ],
        size: 68,
      });
      // The lowered limit applies to additions that follow.
      decoder.decode(Uint8Array.from(indexedLiteral('d', '4')));
      assert.deepEqual(dynamicTable(decoder).entries, [
        ['d', '4'],
        ['c', '3'],
      ]);
    });

    it('accepts an update up to the advertised maximum and rejects one above it', () => {
      const decoder = new HpackDecoder();
      // RFC 7541 C.1.2's encoding of 1337 with a 5-bit prefix.
      assert.deepEqual(decoder.decode(hex('3f9a0a')), []);
      assert.deepEqual(decoder.decode(Uint8Array.from(integer(4096, 5, 0x20))), []);
      assert.throws(
        () => decoder.decode(Uint8Array.from(integer(4097, 5, 0x20))),
        /size update to 4097 exceeds the advertised maximum 4096/,
      );
      assert.throws(() => new HpackDecoder(256).decode(Uint8Array.from(integer(257, 5, 0x20))), /257 exceeds/);
    });

    it('rejects a size update after a header field', () => {
      assert.throws(() => new HpackDecoder().decode(hex('82 20')), /size update after a header field/);
    });

    it('empties the table for an entry larger than the table, without adding it', () => {
      const decoder = new HpackDecoder(256);
      decoder.decode(Uint8Array.from([...indexedLiteral('a', '1'), ...indexedLiteral('b', '2')]));
      const big: Field = ['big', 'x'.repeat(222)];
      assert.deepEqual(decoder.decode(Uint8Array.from(indexedLiteral(...big))), [big]);
      assert.deepEqual(dynamicTable(decoder), { entries: [], size: 0 });
      // One octet less fits exactly.
      const fits: Field = ['big', 'x'.repeat(221)];
      decoder.decode(Uint8Array.from(indexedLiteral(...fits)));
      assert.deepEqual(dynamicTable(decoder), { entries: [fits], size: 256 });
    });

    it('never adds to a table advertised with size 0', () => {
      const decoder = new HpackDecoder(0);
      assert.deepEqual(decoder.decode(Uint8Array.from(indexedLiteral('a', '1'))), [['a', '1']]);
      assert.deepEqual(dynamicTable(decoder), { entries: [], size: 0 });
    });
  });

  describe('malformed blocks', () => {
    it('rejects index 0 and indices past the dynamic table', () => {
      const decoder = new HpackDecoder();
      assert.throws(() => decoder.decode(hex('80')), /HPACK: index 0 out of range/);
      assert.throws(() => decoder.decode(hex('be')), /HPACK: index 62 out of range.*61 static and 0 dynamic entries/);
      decoder.decode(Uint8Array.from(indexedLiteral('a', '1')));
      assert.deepEqual(decoder.decode(hex('be')), [['a', '1']]);
      assert.throws(() => decoder.decode(hex('82 bf')), /HPACK: index 63 out of range, in the indexed field at octet 1/);
      // A literal's name index is checked the same way.
      assert.throws(() => decoder.decode(hex('7f 01 01 61')), /HPACK: index 64 out of range, in the literal field name/);
      assert.throws(() => decoder.decode(hex('0f 30 01 61')), /HPACK: index 63 out of range/);
    });

    it('rejects integers that run past the end of the block', () => {
      const decoder = new HpackDecoder();
      assert.throws(() => decoder.decode(hex('ff')), /integer starting at octet 0 runs past the end/);
      assert.throws(() => decoder.decode(hex('82 ff 80')), /integer starting at octet 1 runs past the end/);
      assert.throws(() => decoder.decode(hex('40 7f')), /integer starting at octet 1 runs past the end/);
    });

    it('rejects integers above 2^31 - 1 and integers with too many continuation octets', () => {
      const decoder = new HpackDecoder();
      assert.throws(() => decoder.decode(Uint8Array.from(integer(2 ** 31, 7, 0x80))), /exceeds 2147483647/);
      assert.throws(() => decoder.decode(hex('ff ff ff ff ff 0f')), /exceeds/);
      assert.throws(() => decoder.decode(hex('ff 80 80 80 80 80 00')), /too many continuation octets/);
      // The largest accepted value is a valid integer, here an out-of-range index.
      assert.throws(() => decoder.decode(Uint8Array.from(integer(2 ** 31 - 1, 7, 0x80))), /index 2147483647 out of range/);
    });

    it('rejects strings longer than the rest of the block, and missing strings', () => {
      const decoder = new HpackDecoder();
      assert.throws(() => decoder.decode(hex('40 0a 63')), /string literal at octet 2 is 10 octets long, but only 1 remain/);
      assert.throws(() => decoder.decode(hex('04 8c f1e3')), /12 octets long, but only 2 remain/);
      assert.throws(() => decoder.decode(hex('40 01 61')), /string literal missing/);
      assert.throws(() => decoder.decode(hex('40')), /string literal missing/);
      assert.throws(() => decoder.decode(hex('04')), /string literal missing/);
    });

    it('rejects bad Huffman coding inside a block', () => {
      const decoder = new HpackDecoder();
      assert.throws(() => decoder.decode(hex('00 81 ff 00')), /HPACK: Huffman-coded string ends in 8 bits of padding/);
      assert.throws(() => decoder.decode(hex('04 81 00')), /not a prefix of EOS/);
    });

    it('keeps entries added before an error in the same block', () => {
      // Not rolled back: the caller drops the connection on any error, so the table no longer matters.
      const decoder = new HpackDecoder();
      assert.throws(() => decoder.decode(Uint8Array.from([...indexedLiteral('a', '1'), 0x80])), /index 0/);
      assert.deepEqual(dynamicTable(decoder).entries, [['a', '1']]);
    });
  });
});
