/**
 * The protobuf wire format, only as far as etcd's KV messages need it: varints (non-negative integers below 2^53)
 * and length-delimited fields. Messages are sized first and then written into one buffer, without the
 * intermediate objects a general-purpose library builds.
 */

export const VARINT = 0;
export const FIXED64 = 1;
export const LENGTH_DELIMITED = 2;
export const FIXED32 = 5;

export function varintSize(value: number): number {
  let size = 1;
  while (value >= 128) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

/** The size of a length-delimited field's tag, length and content. */
export function delimitedFieldSize(field: number, length: number): number {
  return varintSize(field << 3) + varintSize(length) + length;
}

export function varintFieldSize(field: number, value: number): number {
  return varintSize(field << 3) + varintSize(value);
}

export class ProtoWriter {
  readonly buffer: Buffer;
  #position: number;

  /** Writes after `offset` bytes left for the caller (the gRPC message prefix). */
  constructor(size: number, offset = 0) {
    this.buffer = Buffer.allocUnsafe(offset + size);
    this.#position = offset;
  }

  get position(): number {
    return this.#position;
  }

  varint(value: number): void {
    const buffer = this.buffer;
    let position = this.#position;
    while (value >= 128) {
      buffer[position++] = (value % 128) | 128;
      value = Math.floor(value / 128);
    }
    buffer[position++] = value;
    this.#position = position;
  }

  /** The tag and length of a length-delimited field whose content the caller writes next. */
  delimited(field: number, length: number): void {
    this.varint((field << 3) | LENGTH_DELIMITED);
    this.varint(length);
  }

  bytesField(field: number, bytes: Uint8Array): void {
    this.delimited(field, bytes.byteLength);
    this.buffer.set(bytes, this.#position);
    this.#position += bytes.byteLength;
  }

  varintField(field: number, value: number): void {
    this.varint((field << 3) | VARINT);
    this.varint(value);
  }
}

/** Reads a message's fields in order; values of length-delimited fields are views of the input, not copies. */
export class ProtoReader {
  readonly #buffer: Buffer;
  #position: number;
  readonly #end: number;
  #wireType = 0;

  constructor(buffer: Buffer, start = 0, end = buffer.byteLength) {
    this.#buffer = buffer;
    this.#position = start;
    this.#end = end;
  }

  /** The next field's number, or 0 at the end of the message. */
  next(): number {
    if (this.#position >= this.#end) return 0;
    const tag = this.varint();
    this.#wireType = tag % 8;
    return Math.floor(tag / 8);
  }

  /** A varint as a number: exact below 2^53, which etcd's revisions and counts stay far from. */
  varint(): number {
    const buffer = this.#buffer;
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.#position >= this.#end) throw new RangeError('protobuf: truncated varint');
      const byte = buffer[this.#position++] as number;
      value += (byte & 127) * scale;
      if (byte < 128) return value;
      scale *= 128;
    }
  }

  bool(): boolean {
    return this.varint() !== 0;
  }

  bytes(): Buffer {
    const length = this.varint();
    const start = this.#position;
    const end = start + length;
    if (end > this.#end) throw new RangeError('protobuf: truncated field');
    this.#position = end;
    return this.#buffer.subarray(start, end);
  }

  /** A nested message's reader, positioned past it in this one. */
  message(): ProtoReader {
    const length = this.varint();
    const start = this.#position;
    const end = start + length;
    if (end > this.#end) throw new RangeError('protobuf: truncated message');
    this.#position = end;
    return new ProtoReader(this.#buffer, start, end);
  }

  /** Passes over the value of the field just read by next(), e.g. one this decoder does not use. */
  skip(): void {
    switch (this.#wireType) {
      case VARINT:
        this.varint();
        return;
      case FIXED64:
        this.#position += 8;
        return;
      case LENGTH_DELIMITED:
        this.#position += this.varint();
        return;
      case FIXED32:
        this.#position += 4;
        return;
      default:
        throw new RangeError(`protobuf: unsupported wire type ${this.#wireType}`);
    }
  }
}
