import type { IncomingMessage } from 'node:http';
import type { Authorizer } from '../auth/authorizer.js';
import { anonymousAllowedPath, type RequestAuthenticator, unauthorized } from '../auth/authn/authenticate.js';
import { forbidden } from '../auth/authn/forbidden.js';
import { impersonate } from '../auth/authn/impersonation.js';
import { PUBLIC_INFO_URLS } from '../auth/rbac/bootstrap/cluster-roles.js';
import { ANONYMOUS_USER, SYSTEM_AUTHENTICATED, SYSTEM_UNAUTHENTICATED, type UserInfo } from '../api/user.js';
import { addAuditAnnotation } from '../audit/context.js';
import type { RequestTarget } from './request-info.js';
import { requestAttributes } from './request-attributes.js';
import type { RequestUrl } from '../api/request-url.js';

/** kube-apiserver's security filters, split where it runs the in-flight limit between them. */
export interface RequestSecurity {
  /**
   * Authentication then impersonation: the user the request acts as, or the 401/403 Status to answer; a promise only
   * when a credential needs a lookup (a service account token).
   */
  identify(req: IncomingMessage, url: RequestUrl): UserInfo | Promise<UserInfo>;
  /** Authorization: throws the 403 Status Kubernetes answers when no authorizer allows the request. */
  authorize(verb: string, url: RequestUrl, target: RequestTarget, user: UserInfo): void;
}

const PUBLIC_INFO_PATHS: ReadonlySet<string> = new Set(PUBLIC_INFO_URLS);

/** The audit annotations of the authorization filter. */
const DECISION = 'authorization.k8s.io/decision';
const REASON = 'authorization.k8s.io/reason';

/** What RBAC answers for the public-info paths: the bootstrap binding, through the group the user is in. */
function publicInfoReason(user: UserInfo): string {
  const group = user.groups.includes(SYSTEM_AUTHENTICATED) ? SYSTEM_AUTHENTICATED : SYSTEM_UNAUTHENTICATED;
  return `RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "${group}"`;
}

export function createRequestSecurity(authenticate: RequestAuthenticator, authorizer: Authorizer): RequestSecurity {
  return {
    identify(req, url) {
      const afterAuthentication = (authenticated: UserInfo | undefined): UserInfo => {
        if (authenticated === undefined) throw unauthorized();
        // Health and version answer everyone who got this far (system:public-info-viewer's grant, without the lookup).
        if (anonymousAllowedPath(url.pathname)) return authenticated;
        if (authenticated.name === ANONYMOUS_USER) throw unauthorized();
        return impersonate(req, authenticated, authorizer);
      };
      const authenticated = authenticate(req);
      return authenticated instanceof Promise ? authenticated.then(afterAuthentication) : afterAuthentication(authenticated);
    },
    authorize(verb, url, target, user) {
      // What system:public-info-viewer grants everyone, answered without the lookup; other methods and the
      // individual checks below these paths are RBAC's to decide, as in Kubernetes.
      if (verb === 'get' && PUBLIC_INFO_PATHS.has(url.pathname)) {
        addAuditAnnotation(DECISION, 'allow');
        addAuditAnnotation(REASON, publicInfoReason(user));
        return;
      }
      const attributes = requestAttributes(verb, url, target, user);
      const decision = authorizer.authorize(attributes);
      addAuditAnnotation(DECISION, decision.decision === 'allow' ? 'allow' : 'forbid');
      addAuditAnnotation(REASON, decision.reason);
      if (decision.decision !== 'allow') throw forbidden(attributes, decision.reason);
    },
  };
}
