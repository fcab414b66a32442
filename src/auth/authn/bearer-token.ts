import type { Authenticator } from '../authenticator.js';
import type { UserInfo } from '../../api/user.js';
import { unauthorized } from './authenticate.js';

/** A token authenticator that needs a lookup: undefined for a token it does not recognise, else the user or why not. */
export type AsyncTokenAuthenticator = (token: string) => Promise<{ readonly user: UserInfo } | { readonly error: string }> | undefined;

/**
 * `Authorization: Bearer <token>` against a fixed token table (kube-apiserver's bearertoken + tokenfile), then the
 * service account token authenticator for tokens the table lacks. Only the text between the first and second space
 * is the token; another scheme, or an empty token (as in `Bearer  abc`, two spaces), counts as no credential. A
 * token no authenticator accepts is refused outright.
 */
export function bearerTokenAuthenticator(
  tokens: ReadonlyMap<string, UserInfo>,
  serviceAccountTokens?: AsyncTokenAuthenticator,
): Authenticator {
  return (req) => {
    const header = req.headers.authorization;
    if (header === undefined) return undefined;
    const parts = header.trim().split(' ');
    const [scheme, token] = parts;
    if (scheme === undefined || token === undefined || scheme.toLowerCase() !== 'bearer') return undefined;
    if (token === '') return undefined;
    const user = tokens.get(token);
    if (user !== undefined) return user;
    const pending = serviceAccountTokens?.(token);
    if (pending === undefined) throw unauthorized();
    return pending.then((result) => {
      if ('error' in result) throw unauthorized();
      return result.user;
    });
  };
}
