import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LENGTH_DELIMITED, ProtoReader, ProtoWriter, VARINT, varintFieldSize, varintSize } from './protobuf-wire.js';

describe('protobuf wire format', () => {
  it('writes varints in base-128 groups, low group first, and reads them back up to 2^53 - 1', () => {
    const cases: [number, number[]][] = [
      [0, [0x00]],
      [1, [0x01]],
      [127, [0x7f]],
      [128, [0x80, 0x01]],
      [300, [0xac, 0x02]],
      [2 ** 32, [0x80, 0x80, 0x80, 0x80, 0x10]],
    ];
    for (const [value, encoded] of cases) {
      const writer = new ProtoWriter(varintSize(value));
      writer.varint(value);
      assert.deepEqual([...writer.buffer], encoded, `varint ${value}`);
      assert.equal(new ProtoReader(writer.buffer).varint(), value);
    }
    const max = Number.MAX_SAFE_INTEGER;
    const writer = new ProtoWriter(varintSize(max));
    writer.varint(max);
    assert.equal(writer.buffer.byteLength, 8);
    assert.equal(new ProtoReader(writer.buffer).varint(), max);
  });

  it('reads fields in order, skips those it is not asked about, and views bytes without copying', () => {
    const payload = Buffer.from('value');
    const writer = new ProtoWriter(varintFieldSize(1, 5) + 2 + payload.byteLength + varintFieldSize(3, 300), 5);
    writer.varintField(1, 5);
    writer.bytesField(2, payload);
    writer.varintField(3, 300);
    assert.equal(writer.position, writer.buffer.byteLength, 'sized exactly');
    const reader = new ProtoReader(writer.buffer, 5);
    assert.equal(reader.next(), 1);
    reader.skip();
    assert.equal(reader.next(), 2);
    const bytes = reader.bytes();
    assert.equal(bytes.toString(), 'value');
    assert.equal(bytes.buffer, writer.buffer.buffer, 'a view of the input');
    assert.equal(reader.next(), 3);
    assert.equal(reader.varint(), 300);
    assert.equal(reader.next(), 0, 'end of message');
    assert.equal(writer.buffer[5], (1 << 3) | VARINT);
    assert.equal(writer.buffer[7], (2 << 3) | LENGTH_DELIMITED);
  });

  it('refuses truncated input instead of reading past the message', () => {
    assert.throws(() => new ProtoReader(Buffer.from([0x80])).varint(), /truncated varint/);
    assert.throws(() => new ProtoReader(Buffer.from([0x05, 0x61])).bytes(), /truncated field/);
    assert.throws(() => new ProtoReader(Buffer.from([0x03, 0x08])).message(), /truncated message/);
  });
});
