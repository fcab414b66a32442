import type { Authenticator } from '../authenticator.js';
import type { UserInfo } from '../../api/user.js';
import { unauthorized } from './authenticate.js';

/**
 * `Authorization: Bearer <token>` against a fixed token table (kube-apiserver's bearertoken + tokenfile).
 * Only the text between the first and second space is the token; another scheme, or an empty token (as in
 * `Bearer  abc`, two spaces), counts as no credential. An unknown token is refused outright.
 */
export function bearerTokenAuthenticator(tokens: ReadonlyMap<string, UserInfo>): Authenticator {
  return (req) => {
    const header = req.headers.authorization;
    if (header === undefined) return undefined;
    const parts = header.trim().split(' ');
    const [scheme, token] = parts;
    if (scheme === undefined || token === undefined || scheme.toLowerCase() !== 'bearer') return undefined;
    if (token === '') return undefined;
    const user = tokens.get(token);
    if (user === undefined) throw unauthorized();
    return user;
  };
}
