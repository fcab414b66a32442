import { SERVICE_ACCOUNT_PREFIX, SERVICE_ACCOUNTS_GROUP, type UserInfo } from '../../api/user.js';

/**
 * The claims of a service account token as kube-apiserver writes them (pkg/serviceaccount/claims.go): the
 * registered claims, and the `kubernetes.io` private claim naming the namespace, the service account and the
 * object the token is bound to. Keys are in the order go-jose writes them (sorted, at every level).
 */

/** The issuer of Cascade's tokens (kube-apiserver --service-account-issuer, as kubeadm sets it). */
export const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** jwt.DefaultLeeway: clock skew tolerated on exp, nbf and iat, and the grace after a bound object's deletion. */
export const LEEWAY_SECONDS = 60;

export interface ObjectRef {
  readonly name: string;
  readonly uid: string;
}

export interface BoundObjects {
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
  /** The node of a bound pod (uid empty when the node does not exist), or the node a token is bound to. */
  readonly node?: { readonly name: string; readonly uid?: string };
}

export interface TokenClaimsInput {
  readonly namespace: string;
  readonly serviceAccount: ObjectRef;
  readonly bound: BoundObjects;
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
  /** Seconds after which a use is reported stale (the extended pod token transition); 0 for none. */
  readonly warnAfterSeconds: number;
  readonly now: Date;
  readonly jti: string;
}

export interface KubernetesClaim {
  readonly namespace: string;
  readonly node?: { name: string; uid?: string };
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
  readonly serviceaccount: ObjectRef;
  readonly warnafter?: number;
}

const ref = (r: { name: string; uid?: string }): { name: string; uid?: string } =>
  r.uid === undefined || r.uid === '' ? { name: r.name } : { name: r.name, uid: r.uid };

export function tokenClaims(input: TokenClaimsInput): Record<string, unknown> {
  const now = Math.floor(input.now.getTime() / 1000);
  const kubernetes: Record<string, unknown> = { namespace: input.namespace };
  if (input.bound.node !== undefined) kubernetes.node = ref(input.bound.node);
  if (input.bound.pod !== undefined) kubernetes.pod = ref(input.bound.pod);
  if (input.bound.secret !== undefined) kubernetes.secret = ref(input.bound.secret);
  kubernetes.serviceaccount = ref(input.serviceAccount);
  if (input.warnAfterSeconds !== 0) kubernetes.warnafter = now + input.warnAfterSeconds;
  return {
    aud: [...input.audiences],
    exp: now + input.expirationSeconds,
    iat: now,
    iss: SERVICE_ACCOUNT_ISSUER,
    jti: input.jti,
    'kubernetes.io': kubernetes,
    nbf: now,
    sub: `${SERVICE_ACCOUNT_PREFIX}${input.namespace}:${input.serviceAccount.name}`,
  };
}

/** The registered time claims checked as go-jose checks them; an error message (as Kubernetes words it) or undefined. */
export function timeClaimsError(payload: Record<string, unknown>, now: Date): string | undefined {
  const t = now.getTime() / 1000;
  const { exp, nbf, iat } = payload;
  if (typeof nbf === 'number' && t + LEEWAY_SECONDS < nbf) return 'service account token is not valid yet';
  if (typeof exp === 'number' && t - LEEWAY_SECONDS > exp) return 'service account token has expired';
  if (typeof iat === 'number' && t + LEEWAY_SECONDS < iat) return 'service account token is issued in the future';
  return undefined;
}

const asRef = (value: unknown): ObjectRef | undefined => {
  if (typeof value !== 'object' || value === null) return undefined;
  const { name, uid } = value as Record<string, unknown>;
  return typeof name === 'string' ? { name, uid: typeof uid === 'string' ? uid : '' } : undefined;
};

/** The `kubernetes.io` claim, or undefined when the token lacks the parts every service account token has. */
export function kubernetesClaim(payload: Record<string, unknown>): KubernetesClaim | undefined {
  const claim = payload['kubernetes.io'];
  if (typeof claim !== 'object' || claim === null) return undefined;
  const c = claim as Record<string, unknown>;
  const serviceaccount = asRef(c.serviceaccount);
  if (typeof c.namespace !== 'string' || serviceaccount === undefined) return undefined;
  return {
    namespace: c.namespace,
    serviceaccount,
    pod: asRef(c.pod),
    secret: asRef(c.secret),
    node: asRef(c.node),
    ...(typeof c.warnafter === 'number' ? { warnafter: c.warnafter } : {}),
  };
}

/** The `aud` claim as a list (JWT allows a single string too). */
export function audiencesOf(payload: Record<string, unknown>): string[] {
  const aud = payload.aud;
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

/** ServiceAccountInfo.UserInfo(): the user a valid token authenticates as, with the bound pod and node as extras. */
export function tokenUser(claim: KubernetesClaim, jti: unknown): UserInfo {
  const extra: Record<string, string[]> = {};
  if (claim.pod !== undefined) {
    extra['authentication.kubernetes.io/pod-name'] = [claim.pod.name];
    extra['authentication.kubernetes.io/pod-uid'] = [claim.pod.uid];
  }
  if (claim.node !== undefined) {
    extra['authentication.kubernetes.io/node-name'] = [claim.node.name];
    if (claim.node.uid !== undefined && claim.node.uid !== '') extra['authentication.kubernetes.io/node-uid'] = [claim.node.uid];
  }
  if (typeof jti === 'string' && jti !== '') extra['authentication.kubernetes.io/credential-id'] = [`JTI=${jti}`];
  return {
    name: `${SERVICE_ACCOUNT_PREFIX}${claim.namespace}:${claim.serviceaccount.name}`,
    uid: claim.serviceaccount.uid,
    groups: [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${claim.namespace}`],
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}
