/** HTTP/2 frame layout (RFC 9113 section 4 and 6): the constants and encoders the client needs. */

export const FRAME_HEADER_BYTES = 9;

export const FrameType = {
  DATA: 0x0,
  HEADERS: 0x1,
  PRIORITY: 0x2,
  RST_STREAM: 0x3,
  SETTINGS: 0x4,
  PUSH_PROMISE: 0x5,
  PING: 0x6,
  GOAWAY: 0x7,
  WINDOW_UPDATE: 0x8,
  CONTINUATION: 0x9,
} as const;

export const Flag = {
  END_STREAM: 0x1,
  ACK: 0x1,
  END_HEADERS: 0x4,
  PADDED: 0x8,
  PRIORITY: 0x20,
} as const;

export const Setting = {
  HEADER_TABLE_SIZE: 0x1,
  ENABLE_PUSH: 0x2,
  MAX_CONCURRENT_STREAMS: 0x3,
  INITIAL_WINDOW_SIZE: 0x4,
  MAX_FRAME_SIZE: 0x5,
} as const;

export const ErrorCode = {
  NO_ERROR: 0x0,
  PROTOCOL_ERROR: 0x1,
  FLOW_CONTROL_ERROR: 0x3,
  FRAME_SIZE_ERROR: 0x6,
  CANCEL: 0x8,
  COMPRESSION_ERROR: 0x9,
} as const;

/** The connection preface a client sends before its first SETTINGS frame. */
export const CLIENT_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** Both sides start with these until SETTINGS say otherwise. */
export const DEFAULT_WINDOW_BYTES = 65_535;
export const DEFAULT_MAX_FRAME_BYTES = 16_384;
export const MAX_WINDOW_BYTES = 2 ** 31 - 1;
export const MAX_STREAM_ID = 2 ** 31 - 1;

/** Writes a frame header into `target` at `offset`. */
function writeFrameHeader(target: Buffer, offset: number, length: number, type: number, flags: number, streamId: number): void {
  target.writeUIntBE(length, offset, 3);
  target[offset + 3] = type;
  target[offset + 4] = flags;
  target.writeUInt32BE(streamId, offset + 5);
}

/** A whole frame: header and payload in one buffer. */
export function frame(type: number, flags: number, streamId: number, payload: Uint8Array = EMPTY): Buffer {
  const out = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payload.byteLength);
  writeFrameHeader(out, 0, payload.byteLength, type, flags, streamId);
  out.set(payload, FRAME_HEADER_BYTES);
  return out;
}

export function settingsFrame(settings: ReadonlyArray<readonly [id: number, value: number]>): Buffer {
  const payload = Buffer.allocUnsafe(settings.length * 6);
  settings.forEach(([id, value], i) => {
    payload.writeUInt16BE(id, i * 6);
    payload.writeUInt32BE(value, i * 6 + 2);
  });
  return frame(FrameType.SETTINGS, 0, 0, payload);
}

export function windowUpdateFrame(streamId: number, increment: number): Buffer {
  const payload = Buffer.allocUnsafe(4);
  payload.writeUInt32BE(increment, 0);
  return frame(FrameType.WINDOW_UPDATE, 0, streamId, payload);
}

export function rstStreamFrame(streamId: number, code: number): Buffer {
  const payload = Buffer.allocUnsafe(4);
  payload.writeUInt32BE(code, 0);
  return frame(FrameType.RST_STREAM, 0, streamId, payload);
}

export function goawayFrame(lastStreamId: number, code: number): Buffer {
  const payload = Buffer.allocUnsafe(8);
  payload.writeUInt32BE(lastStreamId, 0);
  payload.writeUInt32BE(code, 4);
  return frame(FrameType.GOAWAY, 0, 0, payload);
}

const EMPTY = new Uint8Array(0);

/** A padded frame's content (RFC 9113 section 6.1), or undefined when the padding does not fit. */
export function unpad(payload: Buffer): Buffer | undefined {
  if (payload.byteLength === 0) return undefined;
  const padding = payload[0] as number;
  if (padding >= payload.byteLength) return undefined;
  return payload.subarray(1, payload.byteLength - padding);
}
