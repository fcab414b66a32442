// PEM framing (RFC 7468) for the DER blobs the PKI writes and reads.

const LINE_LENGTH = 64;

export function pemEncode(label: string, der: Uint8Array): string {
  const base64 = Buffer.from(der).toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < base64.length; i += LINE_LENGTH) lines.push(base64.slice(i, i + LINE_LENGTH));
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** Returns the DER bytes of the first block with the given label; throws when there is none. */
export function pemDecode(pem: string, label: string): Buffer {
  const begin = `-----BEGIN ${label}-----`;
  const end = `-----END ${label}-----`;
  const start = pem.indexOf(begin);
  if (start < 0) throw new Error(`no "${label}" PEM block found`);
  const stop = pem.indexOf(end, start + begin.length);
  if (stop < 0) throw new Error(`the "${label}" PEM block has no END line`);
  const body = pem.slice(start + begin.length, stop).replace(/\s+/g, '');
  if (body.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length % 4 !== 0) {
    throw new Error(`the "${label}" PEM block is not valid base64`);
  }
  return Buffer.from(body, 'base64');
}
