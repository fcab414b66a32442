import type { KubeObject } from '../../api/types.js';
import type { IndexFunc } from '../../cache/store.js';
import { SERVICE_ACCOUNT_PREFIX, type UserInfo } from '../../api/user.js';
import { subjectsOf } from './policy.js';

/**
 * Files bindings under the identities their subjects name, so a request looks only at the bindings that can apply
 * to its user instead of scanning all of them. Keys carry the binding's namespace ("" for ClusterRoleBindings).
 */
export const SUBJECT_INDEX = 'rbac-subject';

const userKey = (namespace: string, name: string): string => `${namespace}\0user\0${name}`;
const groupKey = (namespace: string, name: string): string => `${namespace}\0group\0${name}`;

export const subjectIndexFunc: IndexFunc = (binding: KubeObject) => {
  const namespace = binding.metadata.namespace ?? '';
  const keys: string[] = [];
  for (const s of subjectsOf(binding)) {
    if (s.kind === 'User') keys.push(userKey(namespace, s.name));
    else if (s.kind === 'Group') keys.push(groupKey(namespace, s.name));
    else if (s.kind === 'ServiceAccount') {
      // A service account subject is the user name its tokens authenticate as.
      const saNamespace = s.namespace !== '' ? s.namespace : namespace;
      if (saNamespace !== '') keys.push(userKey(namespace, `${SERVICE_ACCOUNT_PREFIX}${saNamespace}:${s.name}`));
    }
  }
  return keys;
};

/** The index keys under which bindings in `namespace` that may apply to `user` are filed. */
export function subjectKeysFor(user: UserInfo, namespace: string): string[] {
  return [userKey(namespace, user.name), ...user.groups.map((g) => groupKey(namespace, g))];
}
