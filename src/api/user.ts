/** Who a request acts as, after authentication and impersonation (k8s.io/apiserver user.Info). */
export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** Members are allowed everything, before RBAC is consulted (kube-apiserver's privileged-group authorizer). */
export const SYSTEM_MASTERS = 'system:masters';
export const SYSTEM_AUTHENTICATED = 'system:authenticated';
export const SYSTEM_UNAUTHENTICATED = 'system:unauthenticated';
export const ANONYMOUS_USER = 'system:anonymous';
export const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
export const SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';

/** The identity every request has when the server runs without authentication (--insecure-http). */
export const INSECURE_ADMIN: UserInfo = { name: 'cascade-admin', groups: [SYSTEM_MASTERS, SYSTEM_AUTHENTICATED] };

/** "system:serviceaccount:kube-system:generic-garbage-collector" and the groups a service account token carries. */
export function serviceAccountUser(namespace: string, name: string): UserInfo {
  return {
    name: `${SERVICE_ACCOUNT_PREFIX}${namespace}:${name}`,
    groups: [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${namespace}`, SYSTEM_AUTHENTICATED],
  };
}
