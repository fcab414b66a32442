/**
 * HPACK header block decoding (RFC 7541), for the responses and trailers etcd sends the gRPC client. The decoder
 * keeps the connection's dynamic table, so blocks must be decoded in the order they arrive on the connection. Any
 * malformed block throws; the connection cannot continue after that, because its dynamic table is then unknown.
 */

import { decodeHuffman } from './hpack-huffman.js';
import { STATIC_TABLE } from './hpack-static-table.js';

/** Per-entry overhead counted in the dynamic table's size (section 4.1). */
const ENTRY_OVERHEAD = 32;

/** Integers above this are refused rather than decoded: no index, length or table size legitimately gets there. */
const MAX_INTEGER = 2 ** 31 - 1;

const EMPTY = Buffer.alloc(0);

export class HpackDecoder {
  /** The table size this side advertised in SETTINGS_HEADER_TABLE_SIZE: the most a size update may ask for. */
  readonly #maxTableSize: number;
  /** The current size limit, as last set by the peer's dynamic table size update. */
  #tableSizeLimit: number;
  #tableSize = 0;

  /**
   * The dynamic table as a ring, newest entry at `#newest` and older ones at the following slots, so that HPACK's
   * dynamic index i (1 = newest) is slot `(#newest + i - 1) % capacity` and adding an entry moves nothing. Every
   * entry takes at least ENTRY_OVERHEAD octets, which bounds how many fit at the largest size allowed.
   */
  readonly #names: string[];
  readonly #values: string[];
  #newest = 0;
  #count = 0;

  /** Decoding state of the block in progress, kept on the instance rather than passed through every helper. */
  #block: Buffer = EMPTY;
  #position = 0;
  /** Where the representation being decoded starts, for error messages. */
  #representation = 0;

  constructor(maxTableSize = 4096) {
    if (!Number.isInteger(maxTableSize) || maxTableSize < 0 || maxTableSize > MAX_INTEGER) {
      throw new RangeError(`HPACK: invalid maximum table size ${maxTableSize}`);
    }
    this.#maxTableSize = maxTableSize;
    this.#tableSizeLimit = maxTableSize;
    const capacity = Math.max(1, Math.floor(maxTableSize / ENTRY_OVERHEAD));
    this.#names = new Array<string>(capacity).fill('');
    this.#values = new Array<string>(capacity).fill('');
  }

  /** Decodes one complete header block (a HEADERS frame's fragment joined with its CONTINUATION fragments). */
  decode(block: Uint8Array): Array<[name: string, value: string]> {
    // Socket data arrives as Buffers already; viewing anything else as one gives raw strings a latin1 decoder.
    this.#block = Buffer.isBuffer(block) ? block : Buffer.from(block.buffer, block.byteOffset, block.byteLength);
    this.#position = 0;
    const fields: Array<[name: string, value: string]> = [];
    try {
      while (this.#position < block.byteLength) {
        this.#representation = this.#position;
        const first = block[this.#position]!;
        if (first & 0x80) {
          fields.push(this.#field(this.#integer(7), 'indexed field'));
        } else if (first & 0x40) {
          const field = this.#literal(6);
          this.#add(field[0], field[1]);
          fields.push(field);
        } else if (first & 0x20) {
          // Section 4.2: size updates come before the block's first field.
          if (fields.length > 0) throw new Error(`HPACK: dynamic table size update after a header field, at octet ${this.#position}`);
          this.#resize(this.#integer(5));
        } else {
          // Without indexing (0000) and never indexed (0001) decode alike; the difference matters only to re-encoders.
          fields.push(this.#literal(4));
        }
      }
    } finally {
      // The block may be a view into a large receive buffer, which holding on to it would keep alive.
      this.#block = EMPTY;
    }
    return fields;
  }

  /** A prefix-coded integer (section 5.1) whose first octet's low `prefixBits` bits start it. */
  #integer(prefixBits: number): number {
    const block = this.#block;
    const start = this.#position;
    const prefixMax = (1 << prefixBits) - 1;
    let value = block[this.#position++]! & prefixMax;
    if (value < prefixMax) return value;
    for (let shift = 0; ; shift += 7) {
      if (this.#position >= block.byteLength) throw new Error(`HPACK: integer starting at octet ${start} runs past the end of the block`);
      const octet = block[this.#position++]!;
      value += (octet & 0x7f) * 2 ** shift;
      if (value > MAX_INTEGER) throw new Error(`HPACK: integer starting at octet ${start} exceeds ${MAX_INTEGER}`);
      if ((octet & 0x80) === 0) return value;
      // Past five continuation octets, further ones could only add zeros or overflow.
      if (shift >= 28) throw new Error(`HPACK: integer starting at octet ${start} has too many continuation octets`);
    }
  }

  /** A literal field whose first octet's low `prefixBits` bits hold the name's index, or 0 for a literal name. */
  #literal(prefixBits: number): [name: string, value: string] {
    const index = this.#integer(prefixBits);
    const name = index === 0 ? this.#string() : this.#field(index, 'literal field name')[0];
    return [name, this.#string()];
  }

  /** A string literal (section 5.2): the H bit, a 7-bit-prefix length, then that many octets. */
  #string(): string {
    if (this.#position >= this.#block.byteLength) throw new Error(`HPACK: string literal missing at the end of the block`);
    const huffman = (this.#block[this.#position]! & 0x80) !== 0;
    const length = this.#integer(7);
    const start = this.#position;
    const end = start + length;
    if (end > this.#block.byteLength) {
      throw new Error(
        `HPACK: string literal at octet ${start} is ${length} octets long, but only ${this.#block.byteLength - start} remain`,
      );
    }
    this.#position = end;
    return huffman ? decodeHuffman(this.#block, start, end) : this.#block.toString('latin1', start, end);
  }

  /** The field at an HPACK index: static entries first, then the dynamic table from its newest entry. */
  #field(index: number, what: string): [name: string, value: string] {
    if (index >= 1 && index <= STATIC_TABLE.length) {
      const entry = STATIC_TABLE[index - 1]!;
      return [entry[0], entry[1]];
    }
    const dynamic = index - STATIC_TABLE.length;
    if (index === 0 || dynamic > this.#count) {
      throw new Error(
        `HPACK: index ${index} out of range, in the ${what} at octet ${this.#representation} (${STATIC_TABLE.length} static and ${this.#count} dynamic entries)`,
      );
    }
    const slot = (this.#newest + dynamic - 1) % this.#names.length;
    return [this.#names[slot]!, this.#values[slot]!];
  }

  /** Adds an entry, evicting the oldest ones until it fits (section 4.4). */
  #add(name: string, value: string): void {
    // Strings decode one character per octet, so lengths are octet counts.
    const size = name.length + value.length + ENTRY_OVERHEAD;
    if (size > this.#tableSizeLimit) {
      // An entry larger than the whole table empties it and is not added; that is not an error.
      this.#evictTo(0);
      return;
    }
    this.#evictTo(this.#tableSizeLimit - size);
    const capacity = this.#names.length;
    this.#newest = (this.#newest + capacity - 1) % capacity;
    this.#names[this.#newest] = name;
    this.#values[this.#newest] = value;
    this.#count++;
    this.#tableSize += size;
  }

  #resize(limit: number): void {
    if (limit > this.#maxTableSize) {
      throw new Error(`HPACK: dynamic table size update to ${limit} exceeds the advertised maximum ${this.#maxTableSize}`);
    }
    this.#tableSizeLimit = limit;
    this.#evictTo(limit);
  }

  /** Evicts the oldest entries until the table's size is at most `size`. */
  #evictTo(size: number): void {
    const capacity = this.#names.length;
    while (this.#tableSize > size) {
      const oldest = (this.#newest + this.#count - 1) % capacity;
      this.#tableSize -= this.#names[oldest]!.length + this.#values[oldest]!.length + ENTRY_OVERHEAD;
      // Release the strings now rather than when the slot is next written.
      this.#names[oldest] = '';
      this.#values[oldest] = '';
      this.#count--;
    }
  }
}
