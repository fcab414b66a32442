import { createInformerFactory, type InformerFactory } from '../../cache/informer-factory.js';
import type { SharedInformer } from '../../cache/shared-informer.js';
import { createStore, type StoreReader } from '../../cache/store.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import type { AuthorizationAttributes, Authorizer, Decision, NonResourceRuleInfo, ResourceRuleInfo, RulesInfo } from '../authorizer.js';
import type { UserInfo } from '../../api/user.js';
import { SUBJECT_INDEX, subjectIndexFunc } from './binding-index.js';
import { aggregateMessage } from './go-format.js';
import { type PolicyRule, RBAC_GROUP, type RoleRef } from './policy.js';
import { ruleAllows } from './rule-matching.js';
import { type BoundRules, lookupRoleRules, type RbacStores, type ResolvedRules, type RoleLookup, resolveRules } from './rule-resolver.js';

const ref = (resource: string): ResourceRef => ({ group: RBAC_GROUP, version: 'v1', resource });
const ROLES = ref('roles');
const CLUSTER_ROLES = ref('clusterroles');
const ROLE_BINDINGS = ref('rolebindings');
const CLUSTER_ROLE_BINDINGS = ref('clusterrolebindings');

/** Resolutions kept between RBAC changes; beyond this many (user, namespace) pairs the cache starts over. */
const MAX_CACHED_RESOLUTIONS = 10_000;

/** What escalation checks need beyond authorize(): the raw rules of a user, and of the role a binding names. */
export interface RbacRuleSource {
  /** Every rule bound to the user in `namespace` ("" = ClusterRoleBindings only), with the resolution errors. */
  policyRulesFor(user: UserInfo, namespace: string): { readonly rules: readonly PolicyRule[]; readonly errors: readonly string[] };
  /** The rules of the Role (in `namespace`) or ClusterRole a binding refers to. */
  roleRules(roleRef: RoleRef, namespace: string): RoleLookup;
}

export interface RbacAuthorizerOptions {
  /** Errors the informers survive (failed lists and watches they retry). */
  readonly onError?: (err: unknown) => void;
}

/** A user's resolved rules with the decisions they lead to, built once per resolution rather than per request. */
interface Resolution {
  readonly rules: ResolvedRules;
  /** allows[i]: the decision when a rule of rules.bound[i] matches. */
  readonly allows: readonly Decision[];
  readonly denied: Decision;
}

function decisionsFor(rules: ResolvedRules): Resolution {
  return {
    rules,
    allows: rules.bound.map(({ source }) => ({ decision: 'allow', reason: `RBAC: allowed by ${source}` })),
    denied: { decision: 'noOpinion', reason: rules.errors.length > 0 ? `RBAC: ${aggregateMessage(rules.errors)}` : '' },
  };
}

const emptyBindingStore = (): StoreReader => createStore({ [SUBJECT_INDEX]: subjectIndexFunc });

/**
 * Kubernetes' RBAC authorizer: allows a request when some Role or ClusterRole bound to the user (directly, through
 * a group, or as a service account) has a rule that matches it; otherwise it has no opinion. Roles and bindings
 * come from informers, so decisions follow RBAC changes within a watch event's delay, and authorize() never waits.
 */
export class RbacAuthorizer implements Authorizer, RbacRuleSource {
  private factory: InformerFactory | undefined;
  private stores: RbacStores = {
    roles: createStore(),
    clusterRoles: createStore(),
    roleBindings: emptyBindingStore(),
    clusterRoleBindings: emptyBindingStore(),
  };
  /** Resolved rules by user and namespace; any RBAC change empties it. */
  private readonly cache = new Map<string, Resolution>();
  /**
   * The same resolutions by UserInfo object: controllers and token users present one object per identity, and
   * looking it up spares building the string key on every request. Replaced whenever `cache` is emptied.
   */
  private byUser = new WeakMap<UserInfo, Map<string, Resolution>>();
  private readonly onError: ((err: unknown) => void) | undefined;

  constructor(options: RbacAuthorizerOptions = {}) {
    this.onError = options.onError;
  }

  /** Starts following the four RBAC collections; resolves once all are listed. */
  async start(client: ApiClient): Promise<void> {
    if (this.factory !== undefined) throw new Error('the RBAC authorizer has already been started');
    const factory = createInformerFactory(client, this.onError === undefined ? {} : { onError: this.onError });
    this.factory = factory;
    const informer = (r: ResourceRef, indexed: boolean): SharedInformer => {
      const i = factory.informerFor(r);
      if (indexed) i.addIndexers({ [SUBJECT_INDEX]: subjectIndexFunc });
      const invalidate = (): void => this.invalidate();
      i.addEventHandler({ onAdd: invalidate, onUpdate: invalidate, onDelete: invalidate });
      return i;
    };
    const informers = {
      roles: informer(ROLES, false),
      clusterRoles: informer(CLUSTER_ROLES, false),
      roleBindings: informer(ROLE_BINDINGS, true),
      clusterRoleBindings: informer(CLUSTER_ROLE_BINDINGS, true),
    };
    this.stores = {
      roles: informers.roles.store,
      clusterRoles: informers.clusterRoles.store,
      roleBindings: informers.roleBindings.store,
      clusterRoleBindings: informers.clusterRoleBindings.store,
    };
    this.invalidate();
    factory.start();
    const synced = await Promise.all(Object.values(informers).map((i) => i.whenSynced()));
    if (!synced.every(Boolean)) throw new Error('the RBAC authorizer was stopped before its caches synced');
  }

  async stop(): Promise<void> {
    await this.factory?.stop();
  }

  authorize(attributes: AuthorizationAttributes): Decision {
    const resolution = this.resolve(attributes.user, attributes.resourceRequest ? attributes.namespace : '');
    const { bound } = resolution.rules;
    for (let i = 0; i < bound.length; i++) {
      for (const rule of (bound[i] as BoundRules).rules) {
        if (ruleAllows(attributes, rule)) return resolution.allows[i] as Decision;
      }
    }
    return resolution.denied;
  }

  private invalidate(): void {
    this.cache.clear();
    this.byUser = new WeakMap();
  }

  /**
   * The rules behind SelfSubjectRulesReview. Like Kubernetes' RBAC authorizer it never reports itself incomplete:
   * a missing role shows only in evaluationError, since the rules that did resolve are still exactly right.
   */
  rulesFor(user: UserInfo, namespace: string): RulesInfo {
    const { rules, errors } = this.policyRulesFor(user, namespace);
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    for (const r of rules) {
      if (r.resources.length > 0)
        resourceRules.push({ verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources, resourceNames: r.resourceNames });
      if (r.nonResourceURLs.length > 0) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
    }
    const info: RulesInfo = { resourceRules, nonResourceRules, incomplete: false };
    return errors.length > 0 ? { ...info, evaluationError: aggregateMessage(errors) } : info;
  }

  policyRulesFor(user: UserInfo, namespace: string): { readonly rules: readonly PolicyRule[]; readonly errors: readonly string[] } {
    const resolved = this.resolve(user, namespace).rules;
    return { rules: resolved.bound.flatMap((b) => b.rules), errors: resolved.errors };
  }

  roleRules(roleRef: RoleRef, namespace: string): RoleLookup {
    return lookupRoleRules(this.stores, roleRef, namespace);
  }

  private resolve(user: UserInfo, namespace: string): Resolution {
    let perUser = this.byUser.get(user);
    const known = perUser?.get(namespace);
    if (known !== undefined) return known;
    const key = `${namespace}\0${user.name}\0${user.groups.join('\0')}`;
    let resolution = this.cache.get(key);
    if (resolution === undefined) {
      resolution = decisionsFor(resolveRules(this.stores, user, namespace));
      if (this.cache.size >= MAX_CACHED_RESOLUTIONS) this.invalidate();
      this.cache.set(key, resolution);
    }
    if (perUser === undefined || perUser.size >= MAX_CACHED_RESOLUTIONS) {
      perUser = new Map();
      this.byUser.set(user, perUser);
    }
    perUser.set(namespace, resolution);
    return resolution;
  }
}
