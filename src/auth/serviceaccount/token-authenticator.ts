import { createPublicKey, type KeyObject } from 'node:crypto';
import type { KubeObject } from '../../api/types.js';
import type { UserInfo } from '../../api/user.js';
import {
  audiencesOf,
  kubernetesClaim,
  LEEWAY_SECONDS,
  type ObjectRef,
  SERVICE_ACCOUNT_ISSUER,
  timeClaimsError,
  tokenUser,
} from './claims.js';
import { parseJwt, verifyJwt } from './jwt.js';

export type BoundResource = 'serviceaccounts' | 'pods' | 'secrets' | 'nodes';

export interface ServiceAccountTokenAuthenticatorOptions {
  /** The keys whose signatures are accepted (the server's signing key's public half). */
  readonly keys: readonly KeyObject[];
  /** A live read of a service account or of a token's bound object; undefined when it does not exist. */
  readonly lookup: (resource: BoundResource, namespace: string | undefined, name: string) => Promise<KubeObject | undefined>;
  readonly clock: () => Date;
}

/** Recognised and valid: the user and the audiences it was accepted for. */
export type TokenAuthentication = { readonly user: UserInfo; readonly audiences: string[] } | { readonly error: string };

/**
 * Kubernetes' service account token authenticator: a JWT from Cascade's issuer, signed with its key, for one of the
 * audiences asked about, unexpired, whose service account and bound object still exist with the uids the token
 * names and were not deleted more than a minute ago. Resolves to undefined for a token that is not such a JWT, so
 * other authenticators may claim it.
 */
export function createServiceAccountTokenAuthenticator(
  options: ServiceAccountTokenAuthenticatorOptions,
): (token: string, audiences: readonly string[]) => Promise<TokenAuthentication> | undefined {
  const keys = options.keys.map((key) => (key.type === 'private' ? createPublicKey(key) : key));
  const deletedTooLongAgo = (obj: KubeObject, now: Date): boolean => {
    const deleted = obj.metadata.deletionTimestamp;
    return typeof deleted === 'string' && Date.parse(deleted) < now.getTime() - LEEWAY_SECONDS * 1000;
  };
  /** The bound object still there under the uid the token names; an error message otherwise. */
  const checkBound = async (
    resource: BoundResource,
    kind: string,
    namespace: string | undefined,
    ref: ObjectRef,
    now: Date,
  ): Promise<string | undefined> => {
    const obj = await options.lookup(resource, namespace, ref.name);
    if (obj === undefined) return 'service account token has been invalidated';
    if (obj.metadata.uid !== ref.uid)
      return `${kind} UID (${obj.metadata.uid ?? ''}) does not match service account ${kind} ref claim (${ref.uid})`;
    if (deletedTooLongAgo(obj, now)) return 'service account token has been invalidated';
    return undefined;
  };
  return (token, audiences) => {
    const jwt = parseJwt(token);
    // Only tokens of this issuer are this authenticator's to judge, as kube-apiserver's hasCorrectIssuer check.
    if (jwt === undefined || jwt.payload.iss !== SERVICE_ACCOUNT_ISSUER) return undefined;
    return (async (): Promise<TokenAuthentication> => {
      if (!verifyJwt(jwt, keys)) return { error: 'invalid signature' };
      const tokenAudiences = audiencesOf(jwt.payload);
      const accepted = audiences.filter((a) => tokenAudiences.includes(a));
      if (accepted.length === 0) {
        return { error: `token audiences ${goQuotedList(tokenAudiences)} is invalid for the target audiences ${goQuotedList(audiences)}` };
      }
      const claim = kubernetesClaim(jwt.payload);
      if (claim === undefined) return { error: 'service account token claims could not be validated due to unexpected validation error' };
      const now = options.clock();
      const timeError = timeClaimsError(jwt.payload, now);
      if (timeError !== undefined) return { error: timeError };
      const { namespace, serviceaccount } = claim;
      const account = await options.lookup('serviceaccounts', namespace, serviceaccount.name);
      if (account === undefined) return { error: `serviceaccounts "${serviceaccount.name}" not found` };
      if (account.metadata.uid !== serviceaccount.uid) {
        return { error: `service account UID (${account.metadata.uid ?? ''}) does not match claim (${serviceaccount.uid})` };
      }
      if (deletedTooLongAgo(account, now)) return { error: `service account ${namespace}/${serviceaccount.name} has been deleted` };
      const boundError =
        claim.secret !== undefined
          ? await checkBound('secrets', 'secret', namespace, claim.secret, now)
          : claim.pod !== undefined
            ? await checkBound('pods', 'pod', namespace, claim.pod, now)
            : claim.node !== undefined
              ? await checkBound('nodes', 'node', undefined, { name: claim.node.name, uid: claim.node.uid ?? '' }, now)
              : undefined;
      if (boundError !== undefined) return { error: boundError };
      return { user: tokenUser(claim, jwt.payload.jti), audiences: accepted };
    })();
  };
}

/** A Go %q of a []string: ["a" "b"]. */
function goQuotedList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}
