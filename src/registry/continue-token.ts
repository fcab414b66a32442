import { badRequest } from '../api/errors.js';

/**
 * List continuation tokens in kube-apiserver's format: base64 of {"v":"meta.k8s.io/v1","rv":<rev>,"start":<key>},
 * where start is the next key relative to the collection prefix. The revision pins every page to one snapshot.
 */
interface TokenBody {
  v: string;
  rv: number;
  start: string;
}

export function encodeContinue(revision: number, nextKeyRelative: string): string {
  const body: TokenBody = { v: 'meta.k8s.io/v1', rv: revision, start: nextKeyRelative };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

export function decodeContinue(token: string): { revision: number; start: string } {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(`continue key is not valid: illegal base64 data`);
  }
  const b = body as Partial<TokenBody> | null;
  if (b === null || typeof b !== 'object' || b.v !== 'meta.k8s.io/v1') {
    throw badRequest('continue key is not valid: server does not recognize this encoded key');
  }
  if (typeof b.rv !== 'number' || b.rv <= 0 || typeof b.start !== 'string' || b.start.includes('..') || b.start.startsWith('/')) {
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  return { revision: b.rv, start: b.start };
}
