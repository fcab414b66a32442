import { isDeepStrictEqual } from 'node:util';
import { forbidden, internalError, notFound, type StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import type { Authorizer } from '../auth/authorizer.js';
import type { RbacRuleSource } from '../auth/rbac/authorizer.js';
import { aggregateMessage, goQuoteList } from '../auth/rbac/go-format.js';
import { goQuote } from '../util/go-quote.js';
import { hasAggregationRule, type PolicyRule, RBAC_GROUP, type RoleRef, roleRefOf, rulesOf } from '../auth/rbac/policy.js';
import { describeMissing, uncoveredRules } from '../auth/rbac/rule-coverage.js';
import { SYSTEM_MASTERS, type UserInfo } from '../api/user.js';
import type { ValidatingAdmissionPlugin } from '../registry/admission/plugin.js';

/** What an aggregationRule can gather: everything, so only holders of everything may set or change one. */
const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [], nonResourceURLs: [] },
  { verbs: ['*'], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: ['*'] },
];

/**
 * RBAC privilege-escalation prevention (Kubernetes' policybased RBAC storage): nobody can grant, through a role
 * they write or a binding they create, permissions they do not hold themselves — unless they are explicitly
 * allowed to: the `escalate` verb on roles/clusterroles, or the `bind` verb on the role a binding refers to.
 * Members of system:masters, and the server itself (no user), are exempt. `authorizer` is the full chain the
 * server authorizes with; `rbac` resolves the rules RBAC grants.
 */
export function rbacEscalationAdmission(authorizer: () => Authorizer, rbac: () => RbacRuleSource): ValidatingAdmissionPlugin {
  return {
    name: 'RBACEscalation',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate: async ({ operation, resource: info, object: obj, oldObject: old, user }) => {
      if (info.group !== RBAC_GROUP || obj === undefined || operation === 'DELETE') return;
      if (user === undefined || user.groups.includes(SYSTEM_MASTERS)) return;
      const check = new EscalationCheck(authorizer(), rbac(), user, info, obj);
      switch (info.plural) {
        case 'roles':
        case 'clusterroles':
          if (check.escalateAllowed(operation)) return;
          if (operation === 'UPDATE' && old !== undefined && onlyGarbageCollectorFieldsChange(obj, old)) return;
          check.role(old);
          return;
        case 'rolebindings':
        case 'clusterrolebindings':
          if (operation === 'UPDATE' && old !== undefined && onlyGarbageCollectorFieldsChange(obj, old)) return;
          check.binding();
          return;
      }
    },
  };
}

class EscalationCheck {
  private readonly authorizer: Authorizer;
  private readonly rbac: RbacRuleSource;
  private readonly user: UserInfo;
  private readonly info: ResourceInfo;
  private readonly obj: KubeObject;
  /** The request's namespace: "" for the cluster-scoped kinds. */
  private readonly namespace: string;

  constructor(authorizer: Authorizer, rbac: RbacRuleSource, user: UserInfo, info: ResourceInfo, obj: KubeObject) {
    this.authorizer = authorizer;
    this.rbac = rbac;
    this.user = user;
    this.info = info;
    this.obj = obj;
    this.namespace = info.namespaced ? (obj.metadata.namespace ?? '') : '';
  }

  /** Kubernetes asks with the request's own name, which a create (POST to the collection) does not have. */
  escalateAllowed(operation: 'CREATE' | 'UPDATE'): boolean {
    const decision = this.authorizer.authorize({
      user: this.user,
      resourceRequest: true,
      verb: 'escalate',
      apiGroup: RBAC_GROUP,
      apiVersion: '*',
      resource: this.info.plural,
      subresource: '',
      namespace: this.namespace,
      name: operation === 'CREATE' ? '' : (this.obj.metadata.name ?? ''),
    });
    return decision.decision === 'allow';
  }

  role(old: KubeObject | undefined): void {
    this.confirmNoEscalation(rulesOf(this.obj));
    const aggregated =
      this.info.plural === 'clusterroles' && (hasAggregationRule(this.obj) || (old !== undefined && hasAggregationRule(old)));
    if (aggregated && this.missingPermissions(FULL_AUTHORITY) !== undefined) {
      throw this.forbidden('must have cluster-admin privileges to use the aggregationRule');
    }
  }

  binding(): void {
    const roleRef = roleRefOf(this.obj);
    if (this.bindAllowed(roleRef)) return;
    const lookup = this.rbac.roleRules(roleRef, this.namespace);
    if (!lookup.found) {
      if (lookup.resource === undefined) throw internalError(new Error(`unsupported role reference kind: ${goQuote(lookup.kind)}`));
      throw notFound({ group: RBAC_GROUP, resource: lookup.resource }, lookup.name);
    }
    this.confirmNoEscalation(lookup.rules);
  }

  private bindAllowed(roleRef: RoleRef): boolean {
    const resource = roleRef.kind === 'ClusterRole' ? 'clusterroles' : roleRef.kind === 'Role' ? 'roles' : undefined;
    if (resource === undefined) return false;
    const decision = this.authorizer.authorize({
      user: this.user,
      resourceRequest: true,
      verb: 'bind',
      apiGroup: roleRef.apiGroup,
      apiVersion: '',
      resource,
      subresource: '',
      namespace: this.namespace,
      name: roleRef.name,
    });
    return decision.decision === 'allow';
  }

  private confirmNoEscalation(rules: readonly PolicyRule[]): void {
    const missing = this.missingPermissions(rules);
    if (missing !== undefined) throw this.forbidden(missing);
  }

  /** Kubernetes' ConfirmNoEscalation message, or undefined when the user holds every permission in `rules`. */
  private missingPermissions(rules: readonly PolicyRule[]): string | undefined {
    const held = this.rbac.policyRulesFor(this.user, this.namespace);
    const missing = uncoveredRules(held.rules, rules);
    if (missing.length === 0) return undefined;
    const who = `user ${goQuote(this.user.name)} (groups=${goQuoteList(this.user.groups)})`;
    let message = `${who} is attempting to grant RBAC permissions not currently held:\n${describeMissing(missing)}`;
    if (held.errors.length > 0) message += `; resolution errors: [${aggregateMessage(held.errors)}]`;
    return message;
  }

  private forbidden(why: string): StatusError {
    return forbidden({ group: RBAC_GROUP, resource: this.info.plural }, this.obj.metadata.name ?? '', why);
  }
}

/** Updates that only touch what the garbage collector changes (owner references, finalizers) need no check. */
function onlyGarbageCollectorFieldsChange(obj: KubeObject, old: KubeObject): boolean {
  const meta: Record<string, unknown> = { ...obj.metadata };
  for (const field of ['ownerReferences', 'finalizers', 'selfLink']) {
    if (old.metadata[field] === undefined) delete meta[field];
    else meta[field] = old.metadata[field];
  }
  return isDeepStrictEqual({ ...obj, metadata: meta }, old);
}
