/** Protocol-buffer wire format primitives (varints, length-delimited fields, fixed-width numbers). */

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_FIXED32 = 5;

/** A malformed protobuf byte stream; the text follows gogo/protobuf's unmarshal errors. */
export class WireFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireFormatError';
  }
}

const UTF8 = new TextDecoder();

export class ProtoReader {
  private readonly buf: Uint8Array;
  private readonly view: DataView;
  private pos: number;
  private readonly end: number;

  constructor(buf: Uint8Array) {
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.pos = 0;
    this.end = buf.length;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  /** Reads a field key; field number 0 is never valid. */
  readKey(messageName: string): { field: number; wireType: number } {
    const key = this.readVarint();
    const wireType = Number(key & 7n);
    const field = key >> 3n;
    if (wireType === 4) throw new WireFormatError(`proto: ${messageName}: wiretype end group for non-group`);
    if (field <= 0n || field > 0x1fffffffn)
      throw new WireFormatError(`proto: ${messageName}: illegal tag ${field} (wire type ${wireType})`);
    return { field: Number(field), wireType };
  }

  /** An unsigned 64-bit varint. */
  readVarint(): bigint {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (shift >= 64n) throw new WireFormatError('proto: integer overflow');
      if (this.pos >= this.end) throw new WireFormatError('unexpected EOF');
      const byte = this.buf[this.pos++] as number;
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return BigInt.asUintN(64, result);
    }
  }

  /** A length-delimited payload (string, bytes, embedded message, packed repeated field, map entry). */
  readBytes(): Uint8Array {
    const length = this.readVarint();
    if (BigInt.asIntN(64, length) < 0n) throw new WireFormatError('proto: negative length found during unmarshaling');
    if (length > BigInt(this.end - this.pos)) throw new WireFormatError('unexpected EOF');
    const start = this.pos;
    this.pos += Number(length);
    return this.buf.subarray(start, this.pos);
  }

  readString(): string {
    return UTF8.decode(this.readBytes());
  }

  readDouble(): number {
    this.need(8);
    const value = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return value;
  }

  readFloat(): number {
    this.need(4);
    const value = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return value;
  }

  /** Skips a field this reader has no use for, as protobuf requires of unknown fields. */
  skip(wireType: number): void {
    switch (wireType) {
      case WIRE_VARINT:
        this.readVarint();
        return;
      case WIRE_FIXED64:
        this.need(8);
        this.pos += 8;
        return;
      case WIRE_LEN:
        this.readBytes();
        return;
      case WIRE_FIXED32:
        this.need(4);
        this.pos += 4;
        return;
      default:
        throw new WireFormatError(`proto: illegal wireType ${wireType}`);
    }
  }

  private need(bytes: number): void {
    if (this.end - this.pos < bytes) throw new WireFormatError('unexpected EOF');
  }
}

const UTF8_ENCODER = new TextEncoder();

export class ProtoWriter {
  private chunks: number[] = [];
  private readonly parts: Uint8Array[] = [];
  private length = 0;

  writeKey(field: number, wireType: number): void {
    this.writeVarint(BigInt(field) * 8n + BigInt(wireType));
  }

  /** Negative numbers take ten bytes, as Go encodes int32 and int64 fields. */
  writeVarint(value: bigint | number): void {
    let rest = BigInt.asUintN(64, BigInt(value));
    while (rest >= 0x80n) {
      this.chunks.push(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }
    this.chunks.push(Number(rest));
  }

  writeBytes(field: number, bytes: Uint8Array): void {
    this.writeKey(field, WIRE_LEN);
    this.writeVarint(bytes.length);
    this.flushChunks();
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  writeString(field: number, value: string): void {
    this.writeBytes(field, UTF8_ENCODER.encode(value));
  }

  writeDouble(field: number, value: number): void {
    this.writeKey(field, WIRE_FIXED64);
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, value, true);
    for (const byte of bytes) this.chunks.push(byte);
  }

  finish(): Uint8Array {
    this.flushChunks();
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const part of this.parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }

  private flushChunks(): void {
    if (this.chunks.length === 0) return;
    this.parts.push(Uint8Array.from(this.chunks));
    this.length += this.chunks.length;
    this.chunks = [];
  }
}
