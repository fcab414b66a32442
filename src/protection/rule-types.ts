import type { KubeObject } from '../api/types.js';
import type { ResourceRef } from '../client/interface.js';

/** The ProtectionRule resource: cluster-scoped, served as a built-in CRD (rule-crd.ts). */
export const PROTECTION_RULES: ResourceRef = { group: 'cascade.dev', version: 'v1alpha1', resource: 'protectionrules' };
export const PROTECTION_RULE_KIND = 'ProtectionRule';

/**
 * Keeps a rule until the protection controllers have taken its finalizer off every provider: deleting a rule
 * withdraws the protection, and providers waiting only for it must then be able to go.
 */
export const PROTECTION_RULE_CLEANUP_FINALIZER = 'cascade.dev/protection-rule-cleanup';

export interface ResourceSpec {
  /** "" for the core group. */
  group: string;
  version: string;
  /** Plural resource name. */
  resource: string;
}

export interface ProtectionRuleSpec {
  /** The kind whose objects are protected while in use. */
  provider: ResourceSpec;
  /** The kind whose objects use providers. A namespaced provider is used only by dependents in its namespace. */
  dependent: ResourceSpec;
  /** Field paths in a dependent that hold provider names (field-path.ts): `.spec.providerName`, `.spec.providers[*]`. */
  references: string[];
  /** When a referencing dependent counts as using its providers (condition.ts); absent or empty: always. */
  condition?: string;
  /** The finalizer put on providers; a domain-qualified name such as `example.com/in-use`. */
  finalizer: string;
}

export interface ProtectionRule extends KubeObject {
  spec: ProtectionRuleSpec;
}
