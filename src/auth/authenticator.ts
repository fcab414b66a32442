import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../api/user.js';

/**
 * One way of proving identity (bearer token, client certificate, …). Returns the user when the request carries
 * this kind of credential and it is valid, undefined when the request carries none of it, and throws a 401
 * StatusError when it carries one that is invalid (kube-apiserver refuses a bad token even with anonymous auth on).
 * A credential that needs a lookup to judge (a service account token) answers with a promise of the same.
 */
export type Authenticator = (req: IncomingMessage) => UserInfo | undefined | Promise<UserInfo | undefined>;
