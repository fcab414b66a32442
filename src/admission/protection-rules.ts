import { isDeepStrictEqual } from 'node:util';
import { fieldError, forbidden, invalid, StatusError } from '../api/errors.js';
import { qualifiedKind, qualifiedResource, type ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import { type CompiledRule, validateRuleSpec } from '../protection/compiled-rule.js';
import { stringsAt } from '../protection/field-path.js';
import type { ProtectionRuleSet } from '../protection/rule-set.js';
import { PROTECTION_RULE_CLEANUP_FINALIZER, PROTECTION_RULES } from '../protection/rule-types.js';
import type { Registry } from '../registry/registry.js';
import type { MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from '../registry/admission/plugin.js';

/**
 * Admission for declarative in-use protection (src/protection/):
 * - ProtectionRules: the spec is validated and immutable (422 Invalid, as a CRD validation rule would answer), and
 *   every rule is born with the cleanup finalizer;
 * - providers of a rule in force are born with the rule's finalizer;
 * - a dependent may not be created, nor updated to name a further provider, when a provider it names does not
 *   exist or is being deleted. The provider is read live, and the refusal is 403 Forbidden, as every built-in
 *   admission plugin answers (NamespaceLifecycle's "is being terminated", ServiceAccount's missing account).
 *   This narrows the race the design describes; the finalizer and the live check close it.
 */
export function protectionRulesAdmission(
  rules: ProtectionRuleSet,
  registry: Registry,
): MutatingAdmissionPlugin & ValidatingAdmissionPlugin {
  const isRule = (info: ResourceInfo): boolean => info.group === PROTECTION_RULES.group && info.plural === PROTECTION_RULES.resource;
  return {
    name: 'ProtectionRules',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    // Finalizers first, in the mutating phase, so that validation and the validating plugins see them.
    admit: async ({ operation, resource, object }) => {
      if (operation !== 'CREATE' || object === undefined) return;
      const finalizers = isRule(resource)
        ? [PROTECTION_RULE_CLEANUP_FINALIZER]
        : rules.forProvider(resource.group, resource.plural).map((r) => r.finalizer);
      for (const finalizer of finalizers) {
        const present = object.metadata.finalizers ?? [];
        if (!present.includes(finalizer)) object.metadata.finalizers = [...present, finalizer];
      }
    },
    validate: async ({ operation, resource, object, oldObject }) => {
      if (object === undefined || operation === 'DELETE') return;
      if (isRule(resource)) {
        validateRule(operation, resource, object, oldObject);
        return;
      }
      for (const rule of rules.forDependent(resource.group, resource.plural))
        await admitDependent(registry, rule, resource, object, oldObject);
    },
  };
}

function validateRule(operation: 'CREATE' | 'UPDATE', info: ResourceInfo, obj: KubeObject, old: KubeObject | undefined): void {
  const name = obj.metadata.name ?? '';
  const refuse = (errs: ReturnType<typeof validateRuleSpec>): StatusError =>
    invalid(qualifiedKind(info), info.group, info.kind, name, errs);
  if (operation === 'UPDATE' && old !== undefined && !isDeepStrictEqual(obj.spec, old.spec)) {
    throw refuse([fieldError.invalid('spec', 'object', 'spec is immutable: delete the rule and create a new one')]);
  }
  const errs = validateRuleSpec(obj.spec);
  if (errs.length > 0) throw refuse(errs);
}

async function admitDependent(
  registry: Registry,
  rule: CompiledRule,
  info: ResourceInfo,
  obj: KubeObject,
  old: KubeObject | undefined,
): Promise<void> {
  const before = new Set(old === undefined ? [] : rule.referencedProviders(old));
  const providers = registry.lookup(rule.provider.group, rule.provider.version, rule.provider.resource);
  for (const path of rule.references) {
    for (const provider of stringsAt(obj, path)) {
      if (before.has(provider)) continue;
      const namespace = providers?.info.namespaced === true ? obj.metadata.namespace : undefined;
      const state = providers === undefined ? undefined : await providerState(providers.get.bind(providers), namespace, provider);
      if (state === 'usable') continue;
      const what = `${qualifiedResource({ group: rule.provider.group, plural: rule.provider.resource })} "${provider}"`;
      const message = state === 'terminating' ? `unable to refer to ${what} because it is being deleted` : `${what} not found`;
      const denied = forbidden(
        { group: info.group, resource: info.plural },
        obj.metadata.name || (obj.metadata.generateName ?? ''),
        message,
      );
      throw new StatusError(denied.code, denied.reason, denied.message, {
        ...denied.details,
        causes: [{ reason: state === 'terminating' ? 'ProviderTerminating' : 'ProviderNotFound', message, field: path.text.slice(1) }],
      });
    }
  }
}

async function providerState(
  get: (namespace: string | undefined, name: string) => Promise<KubeObject>,
  namespace: string | undefined,
  name: string,
): Promise<'usable' | 'terminating' | undefined> {
  try {
    const provider = await get(namespace, name);
    return provider.metadata.deletionTimestamp === undefined ? 'usable' : 'terminating';
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) return undefined;
    throw err;
  }
}
