import type { UserInfo } from '../api/user.js';

/** A request on an API resource, as authorizers see it (authorizer.Attributes with IsResourceRequest). */
export interface ResourceAttributes {
  readonly user: UserInfo;
  readonly resourceRequest: true;
  /** get list watch create update patch delete deletecollection, or impersonate, bind, escalate, use… */
  readonly verb: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  /** "" for cluster-scoped resources and for requests across all namespaces. */
  readonly namespace: string;
  /** "" for collection requests. */
  readonly name: string;
}

/** A request on a non-resource path such as /healthz or /apis (verb = lower-cased HTTP method). */
export interface NonResourceAttributes {
  readonly user: UserInfo;
  readonly resourceRequest: false;
  readonly verb: string;
  readonly path: string;
}

export type AuthorizationAttributes = ResourceAttributes | NonResourceAttributes;

/** Kubernetes authorizers allow, deny, or have no opinion; the chain refuses when nobody allows. */
export type DecisionKind = 'allow' | 'deny' | 'noOpinion';

export interface Decision {
  readonly decision: DecisionKind;
  /** Why, in the authorizer's words (RBAC: `allowed by ClusterRoleBinding "x" of ClusterRole "y" to User "z"`). */
  readonly reason: string;
}

export interface ResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

export interface NonResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/** What a user may do in a namespace: the answer SelfSubjectRulesReview (`kubectl auth can-i --list`) gives. */
export interface RulesInfo {
  readonly resourceRules: readonly ResourceRuleInfo[];
  readonly nonResourceRules: readonly NonResourceRuleInfo[];
  readonly incomplete: boolean;
  readonly evaluationError?: string;
}

/** Synchronous by design: it runs on every request, over rules already held in memory. */
export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): Decision;
  rulesFor(user: UserInfo, namespace: string): RulesInfo;
}
