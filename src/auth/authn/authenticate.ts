import type { IncomingMessage } from 'node:http';
import { StatusError } from '../../api/errors.js';
import type { Authenticator } from '../authenticator.js';
import { ANONYMOUS_USER, SYSTEM_AUTHENTICATED, SYSTEM_UNAUTHENTICATED, type UserInfo } from '../../api/user.js';

/** kube-apiserver's answer to a missing or bad credential; the body carries no details. */
export function unauthorized(): StatusError {
  return new StatusError(401, 'Unauthorized', 'Unauthorized');
}

export interface RequestAuthenticatorOptions {
  /** Tried in order (kube-apiserver: client certificate, then bearer token). */
  readonly authenticators: readonly Authenticator[];
  /** --anonymous-auth: a request without any credential acts as system:anonymous. */
  readonly anonymous: boolean;
}

/** Undefined when the request has no credential and anonymous requests are off: the caller answers 401. */
export type RequestAuthenticator = (req: IncomingMessage) => UserInfo | undefined | Promise<UserInfo | undefined>;

const ANONYMOUS: UserInfo = { name: ANONYMOUS_USER, groups: [SYSTEM_UNAUTHENTICATED] };

/** Kubernetes' AuthenticatedGroupAdder: every authenticated user is in system:authenticated unless it says otherwise. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === ANONYMOUS_USER) return user;
  if (user.groups.some((g) => g === SYSTEM_AUTHENTICATED || g === SYSTEM_UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, SYSTEM_AUTHENTICATED] };
}

function isUnauthorized(err: unknown): boolean {
  return err instanceof StatusError && err.code === 401;
}

/**
 * The authentication chain: the first authenticator that recognises the request wins, even if an earlier one
 * rejected a credential. When none does and one rejected a credential the request is refused even with anonymous
 * access on — a bad token is never treated as no token.
 */
export function createRequestAuthenticator(options: RequestAuthenticatorOptions): RequestAuthenticator {
  const { authenticators, anonymous } = options;
  const finish = (rejected: boolean): UserInfo | undefined => {
    if (rejected) throw unauthorized();
    return anonymous ? ANONYMOUS : undefined;
  };
  /** Tries authenticators from `start` on; synchronous until one answers with a promise (a lookup to make). */
  const from = (req: IncomingMessage, start: number, rejectedBefore: boolean): UserInfo | undefined | Promise<UserInfo | undefined> => {
    let rejected = rejectedBefore;
    for (let i = start; i < authenticators.length; i++) {
      const authenticate = authenticators[i] as Authenticator;
      let user: UserInfo | undefined | Promise<UserInfo | undefined>;
      try {
        user = authenticate(req);
      } catch (err) {
        if (!isUnauthorized(err)) throw err;
        rejected = true;
        continue;
      }
      if (user instanceof Promise) {
        return user.then(
          (u) => (u !== undefined ? withAuthenticatedGroup(u) : from(req, i + 1, rejected)),
          (err: unknown) => {
            if (!isUnauthorized(err)) throw err;
            return from(req, i + 1, true);
          },
        );
      }
      if (user !== undefined) return withAuthenticatedGroup(user);
    }
    return finish(rejected);
  };
  return (req) => from(req, 0, false);
}

const ANONYMOUS_HEALTH_PATHS = ['/livez', '/readyz', '/healthz'];

/**
 * The only paths an anonymous request may reach (AnonymousAuthConfigurableEndpoints style): the health endpoints
 * with their individual checks, and /version. Everything else from system:anonymous is answered with 401.
 */
export function anonymousAllowedPath(pathname: string): boolean {
  if (pathname === '/version') return true;
  return ANONYMOUS_HEALTH_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}
