import { badRequest } from '../../../api/errors.js';
import type { KubeObject } from '../../../api/types.js';
import type { UserInfo } from '../../../api/user.js';
import { SERVICE_ACCOUNT_ISSUER } from '../../../auth/serviceaccount/claims.js';
import type { TokenAuthentication } from '../../../auth/serviceaccount/token-authenticator.js';
import { goObjectMeta, type Json, objectAt, omitEmpty } from './go-json.js';

/**
 * The audiences the API server's own tokens are valid for (kube-apiserver --api-audiences, which defaults to the
 * service account issuer; this is the issuer kubeadm and most distributions configure). Tokens the server
 * authenticates without knowing their audience count as issued for these.
 */
export const API_AUDIENCES: readonly string[] = [SERVICE_ACCOUNT_ISSUER];

/** authentication/v1 UserInfo as Go writes it: every field omitempty. */
function userInfoJson(user: UserInfo): Json {
  const extra = user.extra === undefined ? undefined : Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
  return omitEmpty([
    ['username', user.name],
    ['uid', user.uid],
    ['groups', [...user.groups]],
    ['extra', extra],
  ]);
}

/** SelfSubjectReview (`kubectl auth whoami`): a new object stamped with the time it was made, naming the requester. */
export function answerSelfSubjectReview(obj: KubeObject, requester: UserInfo, now: Date): KubeObject {
  return {
    kind: obj.kind,
    apiVersion: obj.apiVersion,
    metadata: { creationTimestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z') },
    status: { userInfo: userInfoJson(requester) },
  } as unknown as KubeObject;
}

const asStrings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * TokenReview: which user a bearer token authenticates as, for the audiences asked about (the API server's own when
 * none are). Service account tokens carry their audiences; the static tokens count as issued for API_AUDIENCES.
 */
export async function answerTokenReview(
  obj: KubeObject,
  authenticateToken: (token: string, audiences: readonly string[]) => Promise<TokenAuthentication | undefined>,
): Promise<KubeObject> {
  const spec = objectAt(obj as unknown as Json, 'spec') ?? {};
  const token = typeof spec.token === 'string' ? spec.token : '';
  if (token === '') throw badRequest('token is required for TokenReview in authentication');
  const requested = asStrings(spec.audiences);
  const result = await authenticateToken(token, requested.length > 0 ? requested : API_AUDIENCES);
  const status =
    result === undefined
      ? { user: {} }
      : 'error' in result
        ? { user: {}, error: result.error }
        : { authenticated: true, user: userInfoJson(result.user), audiences: result.audiences };
  return {
    kind: obj.kind,
    apiVersion: obj.apiVersion,
    metadata: goObjectMeta(obj.metadata as unknown as Json),
    spec: omitEmpty([
      ['token', token],
      ['audiences', requested],
    ]),
    status,
  } as unknown as KubeObject;
}
