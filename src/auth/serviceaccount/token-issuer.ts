import { type KeyObject, randomUUID } from 'node:crypto';
import { type TokenClaimsInput, tokenClaims } from './claims.js';
import { signJwt } from './jwt.js';

/** Signs service account tokens with the server's key (kube-apiserver's TokenGenerator). */
export interface TokenIssuer {
  /** The public half, for the authenticator. */
  readonly publicKeys: readonly KeyObject[];
  issue(input: Omit<TokenClaimsInput, 'jti'>): string;
}

export function createTokenIssuer(privateKey: KeyObject, publicKey: KeyObject): TokenIssuer {
  return {
    publicKeys: [publicKey],
    // A fresh jti per token: Kubernetes reports it as the credential id (ServiceAccountTokenJTI, on since 1.30).
    issue: (input) => signJwt(tokenClaims({ ...input, jti: randomUUID() }), privateKey),
  };
}
