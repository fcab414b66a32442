import type { KubeObject } from '../../api/types.js';
import type { StoreReader } from '../../cache/store.js';
import type { UserInfo } from '../../api/user.js';
import { SUBJECT_INDEX, subjectKeysFor } from './binding-index.js';
import { goQuote } from '../../util/go-quote.js';
import { type PolicyRule, type RoleRef, roleRefOf, rulesOf, type Subject, subjectsOf } from './policy.js';
import { subjectMatches } from './rule-matching.js';

/** The rules one binding grants, with the description the RBAC authorizer gives as its reason. */
export interface BoundRules {
  readonly source: string;
  readonly rules: readonly PolicyRule[];
}

/**
 * What applies to a user in a namespace, in the order Kubernetes visits it: ClusterRoleBindings first, then the
 * namespace's RoleBindings. `errors` are the bindings whose role could not be resolved (rules are additive, so
 * the rest still count).
 */
export interface ResolvedRules {
  readonly bound: readonly BoundRules[];
  readonly errors: readonly string[];
}

export type RoleLookup =
  | { readonly found: true; readonly rules: readonly PolicyRule[] }
  | { readonly found: false; readonly resource: 'roles' | 'clusterroles'; readonly name: string }
  | { readonly found: false; readonly resource: undefined; readonly kind: string };

/** The four RBAC collections, as the informers cache them. */
export interface RbacStores {
  readonly roles: StoreReader;
  readonly clusterRoles: StoreReader;
  readonly roleBindings: StoreReader;
  readonly clusterRoleBindings: StoreReader;
}

/** The lister's error text: singular resource, as in `clusterrole.rbac.authorization.k8s.io "x" not found`. */
export function describeLookupFailure(lookup: Exclude<RoleLookup, { found: true }>): string {
  if (lookup.resource === undefined) return `unsupported role reference kind: ${goQuote(lookup.kind)}`;
  const singular = lookup.resource === 'roles' ? 'role' : 'clusterrole';
  return `${singular}.rbac.authorization.k8s.io ${goQuote(lookup.name)} not found`;
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${goQuote(`${s.name}/${s.namespace !== '' ? s.namespace : bindingNamespace}`)}`;
  return `${s.kind} ${goQuote(s.name)}`;
}

function describeBinding(binding: KubeObject, ref: RoleRef, subject: Subject): string {
  const name = binding.metadata.name ?? '';
  const namespace = binding.metadata.namespace ?? '';
  const role = `${ref.kind} ${goQuote(ref.name)}`;
  if (namespace === '') return `ClusterRoleBinding ${goQuote(name)} of ${role} to ${describeSubject(subject, '')}`;
  return `RoleBinding ${goQuote(`${name}/${namespace}`)} of ${role} to ${describeSubject(subject, namespace)}`;
}

/**
 * Parsed rules per cached role object (informer objects are immutable; an update brings a new object), so every
 * binding of a role, in every user's resolution, shares one set of rule objects.
 */
const parsedRules = new WeakMap<KubeObject, readonly PolicyRule[]>();

function cachedRulesOf(role: KubeObject): readonly PolicyRule[] {
  let rules = parsedRules.get(role);
  if (rules === undefined) {
    rules = rulesOf(role);
    parsedRules.set(role, rules);
  }
  return rules;
}

export function lookupRoleRules(stores: RbacStores, ref: RoleRef, bindingNamespace: string): RoleLookup {
  if (ref.kind === 'Role') {
    const role = stores.roles.get(bindingNamespace, ref.name);
    return role === undefined ? { found: false, resource: 'roles', name: ref.name } : { found: true, rules: cachedRulesOf(role) };
  }
  if (ref.kind === 'ClusterRole') {
    const role = stores.clusterRoles.get(undefined, ref.name);
    return role === undefined ? { found: false, resource: 'clusterroles', name: ref.name } : { found: true, rules: cachedRulesOf(role) };
  }
  return { found: false, resource: undefined, kind: ref.kind };
}

/** Bindings in one store filed under the user's identities, once each, in name order. */
function candidateBindings(store: StoreReader, user: UserInfo, namespace: string): KubeObject[] {
  const byName = new Map<string, KubeObject>();
  for (const key of subjectKeysFor(user, namespace)) {
    for (const binding of store.byIndex(SUBJECT_INDEX, key)) byName.set(binding.metadata.name ?? '', binding);
  }
  return [...byName.keys()].sort().map((name) => byName.get(name) as KubeObject);
}

export function resolveRules(stores: RbacStores, user: UserInfo, namespace: string): ResolvedRules {
  const bound: BoundRules[] = [];
  const errors: string[] = [];
  const visit = (binding: KubeObject, bindingNamespace: string): void => {
    // The first subject that designates the user is the one the reason names.
    const subject = subjectsOf(binding).find((s) => subjectMatches(user, s, bindingNamespace));
    if (subject === undefined) return;
    const ref = roleRefOf(binding);
    const lookup = lookupRoleRules(stores, ref, bindingNamespace);
    if (!lookup.found) errors.push(describeLookupFailure(lookup));
    else if (lookup.rules.length > 0) bound.push({ source: describeBinding(binding, ref, subject), rules: lookup.rules });
  };
  for (const binding of candidateBindings(stores.clusterRoleBindings, user, '')) visit(binding, '');
  if (namespace !== '') {
    for (const binding of candidateBindings(stores.roleBindings, user, namespace)) visit(binding, namespace);
  }
  return { bound, errors };
}
