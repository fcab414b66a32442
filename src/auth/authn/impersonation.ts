import type { IncomingMessage } from 'node:http';
import { StatusError } from '../../api/errors.js';
import { goQuote } from '../../util/go-quote.js';
import { isDns1123Label, isDns1123Subdomain } from '../../validation/names.js';
import type { Authorizer, ResourceAttributes } from '../authorizer.js';
import {
  ANONYMOUS_USER,
  SERVICE_ACCOUNT_PREFIX,
  SERVICE_ACCOUNTS_GROUP,
  SYSTEM_AUTHENTICATED,
  SYSTEM_UNAUTHENTICATED,
  type UserInfo,
} from '../../api/user.js';
import { forbidden, sanitizeForHtml } from './forbidden.js';

const USER_HEADER = 'impersonate-user';
const UID_HEADER = 'impersonate-uid';
const GROUP_HEADER = 'impersonate-group';
const EXTRA_HEADER_PREFIX = 'impersonate-extra-';
const AUTHENTICATION_GROUP = 'authentication.k8s.io';

/** One identity the requester asks to take on; each is authorized separately, in header order. */
interface ImpersonationRequest {
  readonly kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  readonly namespace: string;
  readonly name: string;
  /** The extra's key (Kubernetes carries it in ObjectReference.fieldPath). */
  readonly extraKey: string;
}

/** Node keeps header names lower-case, so a prefix test is enough; this runs on every request. */
function asksForImpersonation(headers: IncomingMessage['headers']): boolean {
  if (headers[USER_HEADER] !== undefined || headers[GROUP_HEADER] !== undefined || headers[UID_HEADER] !== undefined) return true;
  for (const name in headers) if (name.startsWith(EXTRA_HEADER_PREFIX)) return true;
  return false;
}

/** serviceaccount.SplitUsername: "system:serviceaccount:<ns>:<name>" with a valid namespace and name. */
function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace = '', name = ''] = parts;
  if (isDns1123Label(namespace).length > 0 || isDns1123Subdomain(name).length > 0) return undefined;
  return { namespace, name };
}

/** url.PathUnescape, keeping the key as sent when its escapes are malformed (as Kubernetes does). */
function unescapeExtraKey(encoded: string): string {
  if (!encoded.includes('%')) return encoded;
  if (/%(?![0-9a-fA-F]{2})/.test(encoded)) return encoded;
  const bytes: number[] = [];
  const raw = Buffer.from(encoded, 'utf8');
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i] ?? 0;
    if (byte === 0x25) {
      bytes.push(Number.parseInt(raw.subarray(i + 1, i + 3).toString('latin1'), 16));
      i += 2;
    } else {
      bytes.push(byte);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function collectRequests(req: IncomingMessage): ImpersonationRequest[] {
  const headers = req.headersDistinct;
  const requests: ImpersonationRequest[] = [];
  const none = { namespace: '', extraKey: '' };

  const requestedUser = headers[USER_HEADER]?.[0] ?? '';
  if (requestedUser !== '') {
    const serviceAccount = splitServiceAccountUsername(requestedUser);
    requests.push(
      serviceAccount === undefined
        ? { ...none, kind: 'User', name: requestedUser }
        : { kind: 'ServiceAccount', namespace: serviceAccount.namespace, name: serviceAccount.name, extraKey: '' },
    );
  }
  const groups = headers[GROUP_HEADER] ?? [];
  for (const group of groups) requests.push({ ...none, kind: 'Group', name: group });
  let hasExtra = false;
  for (const [header, values] of Object.entries(headers)) {
    if (!header.startsWith(EXTRA_HEADER_PREFIX) || values === undefined) continue;
    hasExtra = true;
    const extraKey = unescapeExtraKey(header.slice(EXTRA_HEADER_PREFIX.length));
    for (const value of values) requests.push({ kind: 'UserExtra', namespace: '', name: value, extraKey });
  }
  const requestedUid = headers[UID_HEADER]?.[0] ?? '';
  if (requestedUid !== '') requests.push({ ...none, kind: 'UID', name: requestedUid });

  if ((groups.length > 0 || hasExtra || requestedUid !== '') && requestedUser === '') {
    throw withoutUser(req, requests);
  }
  return requests;
}

/** Go's %v of the v1.ObjectReference Kubernetes builds for each request (Kind Namespace Name UID APIVersion ResourceVersion FieldPath). */
function describe(request: ImpersonationRequest): string {
  const apiVersion = request.kind === 'UserExtra' || request.kind === 'UID' ? `${AUTHENTICATION_GROUP}/v1` : '';
  return `{${[request.kind, request.namespace, request.name, '', apiVersion, '', request.extraKey].join(' ')}}`;
}

/**
 * Kubernetes answers this with a plain-text 500 (responsewriters.InternalError); the same text is carried here
 * as the Status message.
 */
function withoutUser(req: IncomingMessage, requests: readonly ImpersonationRequest[]): StatusError {
  const requested = `[${requests.map(describe).join(' ')}]`;
  const text = `Internal Server Error: ${goQuote(req.url ?? '')}: requested ${requested} without impersonating a user`;
  return new StatusError(500, 'InternalError', sanitizeForHtml(text));
}

function attributesFor(requester: UserInfo, request: ImpersonationRequest): ResourceAttributes {
  const base = { user: requester, resourceRequest: true as const, verb: 'impersonate', name: request.name };
  switch (request.kind) {
    case 'ServiceAccount':
      return { ...base, apiGroup: '', apiVersion: '', resource: 'serviceaccounts', subresource: '', namespace: request.namespace };
    case 'User':
      return { ...base, apiGroup: '', apiVersion: '', resource: 'users', subresource: '', namespace: '' };
    case 'Group':
      return { ...base, apiGroup: '', apiVersion: '', resource: 'groups', subresource: '', namespace: '' };
    case 'UserExtra':
      return {
        ...base,
        apiGroup: AUTHENTICATION_GROUP,
        apiVersion: 'v1',
        resource: 'userextras',
        subresource: request.extraKey,
        namespace: '',
      };
    case 'UID':
      return { ...base, apiGroup: AUTHENTICATION_GROUP, apiVersion: 'v1', resource: 'uids', subresource: '', namespace: '' };
  }
}

/**
 * kube-apiserver's impersonation filter. Returns the identity the request acts as: the requester itself when no
 * Impersonate-* header is present, otherwise the requested user once the requester may `impersonate` every part
 * of it (403 on the first refusal). Explicit groups are taken as given; system:authenticated (system:unauthenticated
 * for system:anonymous) is added unless already present, and a service account without explicit groups gets its
 * fixed groups.
 */
export function impersonate(req: IncomingMessage, requester: UserInfo, authorizer: Authorizer): UserInfo {
  if (!asksForImpersonation(req.headers)) return requester;
  const requests = collectRequests(req);
  if (requests.length === 0) return requester;

  const groupsSpecified = (req.headersDistinct[GROUP_HEADER] ?? []).length > 0;
  let name = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const request of requests) {
    const attributes = attributesFor(requester, request);
    const decision = authorizer.authorize(attributes);
    if (decision.decision !== 'allow') throw forbidden(attributes, decision.reason);
    switch (request.kind) {
      case 'ServiceAccount':
        name = `${SERVICE_ACCOUNT_PREFIX}${request.namespace}:${request.name}`;
        if (!groupsSpecified) groups = [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${request.namespace}`];
        break;
      case 'User':
        name = request.name;
        break;
      case 'Group':
        groups.push(request.name);
        break;
      case 'UserExtra': {
        const values = extra[request.extraKey] ?? [];
        values.push(request.name);
        extra[request.extraKey] = values;
        break;
      }
      case 'UID':
        uid = request.name;
        break;
    }
  }

  if (name !== ANONYMOUS_USER) {
    if (!groups.includes(SYSTEM_AUTHENTICATED) && !groups.includes(SYSTEM_UNAUTHENTICATED)) groups.push(SYSTEM_AUTHENTICATED);
  } else if (!groups.includes(SYSTEM_UNAUTHENTICATED)) {
    groups.push(SYSTEM_UNAUTHENTICATED);
  }

  return {
    name,
    groups,
    ...(uid === '' ? {} : { uid }),
    ...(Object.keys(extra).length === 0 ? {} : { extra }),
  };
}
