import { serviceAccountUser, type UserInfo } from '../../api/user.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { CelAuthorizerBackend } from '../../cel/authorizer-library.js';

/** The CEL `authorizer` over Cascade's authorizer chain; principals are users (R11.137). */
export function celAuthorizerBackend(authorizer: () => Authorizer): CelAuthorizerBackend {
  return {
    resource: (principal, check, verb) => {
      const d = authorizer().authorize({
        user: principal as UserInfo,
        resourceRequest: true,
        verb,
        apiGroup: check.group,
        apiVersion: '*',
        resource: check.resource,
        subresource: check.subresource,
        namespace: check.namespace,
        name: check.name,
      });
      return { allowed: d.decision === 'allow', reason: d.reason };
    },
    path: (principal, path, verb) => {
      const d = authorizer().authorize({ user: principal as UserInfo, resourceRequest: false, verb, path });
      return { allowed: d.decision === 'allow', reason: d.reason };
    },
    serviceAccount: (namespace, name) => serviceAccountUser(namespace, name),
  };
}
