import { createHash, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

/**
 * Compact JWS (JWT) with ES256, the algorithm kube-apiserver uses for an ECDSA P-256 service account key. The
 * header carries `alg` and `kid` only, as go-jose writes it; `kid` is the key id Kubernetes derives from the public
 * key (unpadded base64url of the SHA-256 of its PKIX DER form), so verifiers can pick the key.
 */

const b64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

export function keyIdOf(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return b64url(
    createHash('sha256')
      .update(publicKey.export({ type: 'spki', format: 'der' }))
      .digest(),
  );
}

export function signJwt(payload: Record<string, unknown>, privateKey: KeyObject): string {
  const header = { alg: 'ES256', kid: keyIdOf(privateKey) };
  const signingInput = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  // JWS wants the raw r‖s signature (IEEE P1363), not the DER sequence node:crypto writes by default.
  const signature = sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${signingInput}.${b64url(signature)}`;
}

export interface ParsedJwt {
  readonly header: Record<string, unknown>;
  readonly payload: Record<string, unknown>;
  readonly signingInput: string;
  readonly signature: Buffer;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function parseSegment(segment: string): Record<string, unknown> | undefined {
  if (!BASE64URL.test(segment)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The three parts of a compact JWS, or undefined when the text is not one (then it is some other kind of token). */
export function parseJwt(token: string): ParsedJwt | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [h = '', p = '', s = ''] = parts;
  const header = parseSegment(h);
  const payload = parseSegment(p);
  if (header === undefined || payload === undefined || !BASE64URL.test(s)) return undefined;
  return { header, payload, signingInput: `${h}.${p}`, signature: Buffer.from(s, 'base64url') };
}

/** Whether one of the keys signed the token with ES256. */
export function verifyJwt(jwt: ParsedJwt, publicKeys: readonly KeyObject[]): boolean {
  if (jwt.header.alg !== 'ES256' || jwt.signature.length !== 64) return false;
  return publicKeys.some((key) => verify('sha256', Buffer.from(jwt.signingInput), { key, dsaEncoding: 'ieee-p1363' }, jwt.signature));
}
