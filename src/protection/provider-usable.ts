import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { ApiClient, ResourceRef } from '../client/interface.js';
import type { CompiledRule } from './compiled-rule.js';
import type { ProtectionRule } from './rule-types.js';

export type ProviderUnusableReason = 'NotFound' | 'Terminating' | 'Unprotected';

/** Why a dependent's controller must not start using a provider now. */
export class ProviderUnusableError extends Error {
  readonly reason: ProviderUnusableReason;
  readonly provider: string;

  constructor(reason: ProviderUnusableReason, provider: string, message: string) {
    super(message);
    this.name = 'ProviderUnusableError';
    this.reason = reason;
    this.provider = provider;
  }
}

function providerOf(rule: CompiledRule | ProtectionRule): { ref: ResourceRef; finalizer: string } {
  if ('spec' in rule) return { ref: rule.spec.provider, finalizer: rule.spec.finalizer };
  return { ref: rule.provider, finalizer: rule.finalizer };
}

/**
 * The check the design asks of a dependent's controller before it starts using a provider: a live read of the
 * provider, which must exist, not be being deleted, and already carry the rule's finalizer (before the protection
 * controller has added it, nothing would hold a deletion back). Returns the provider; throws ProviderUnusableError
 * when the dependency must not be implemented ('NotFound' and 'Terminating' are final for this provider object,
 * 'Unprotected' passes once the finalizer is added), and any other API error as it came.
 *
 * `namespace` is the dependent's namespace for a namespaced provider, undefined for a cluster-scoped one.
 */
export async function assertProviderUsable(
  client: ApiClient,
  rule: CompiledRule | ProtectionRule,
  providerName: string,
  namespace: string | undefined,
): Promise<KubeObject> {
  const { ref, finalizer } = providerOf(rule);
  const what = `${ref.group === '' ? ref.resource : `${ref.resource}.${ref.group}`} "${providerName}"`;
  let provider: KubeObject;
  try {
    provider = await client.get(ref, namespace, providerName);
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) throw new ProviderUnusableError('NotFound', providerName, `${what} not found`);
    throw err;
  }
  if (provider.metadata.deletionTimestamp !== undefined) {
    throw new ProviderUnusableError('Terminating', providerName, `${what} is being deleted`);
  }
  if (!(provider.metadata.finalizers ?? []).includes(finalizer)) {
    throw new ProviderUnusableError('Unprotected', providerName, `${what} does not carry the ${finalizer} finalizer yet`);
  }
  return provider;
}
