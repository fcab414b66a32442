import { forbidden, StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import type { AdmissionAttributes } from '../../registry/admission/attributes.js';
import type { ValidatingAdmissionPlugin } from '../../registry/admission/plugin.js';
import { add, compare, formatQuantity, parseQuantity, subtract, type Quantity, ZERO } from './quantity.js';
import { matchingResources, podConstraintViolation, quotaCovers, type Usage, usageOf } from './usage.js';

/** How the plugin reads and charges the namespace's quotas. */
export interface QuotaAccess {
  /** The namespace's quotas as last seen (an informer's cache). */
  cached(namespace: string): KubeObject[];
  /** The namespace's quotas as stored now, after a charge lost a race. */
  live(namespace: string): Promise<KubeObject[]>;
  /** Writes a quota's status, guarded by its resourceVersion (409 when it changed). */
  updateStatus(quota: KubeObject): Promise<void>;
}

/** How often a charge is retried against fresh quotas after losing a race with another. */
const CHARGE_ATTEMPTS = 10;
/** Kinds whose UPDATE can change what they charge (a Service's type, a claim's size). */
const CHARGED_ON_UPDATE = new Set(['services', 'persistentvolumeclaims']);

const record = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});

function resourceList(value: unknown): Map<string, Quantity> {
  return new Map(Object.entries(record(value)).map(([name, q]) => [name, parseQuantity(q)]));
}

/** quota's prettyPrint: sorted `name=value` pairs. */
function pretty(names: readonly string[], list: Map<string, Quantity>): string {
  return names.map((name) => `${name}=${formatQuantity(list.get(name) ?? ZERO)}`).join(',');
}

/**
 * The ResourceQuota admission plugin (plugin/pkg/admission/resourcequota): refuses a create (or a Service or claim
 * update) that would take any covering quota's usage above its hard limit, and charges the usage to every covering
 * quota's `status.used` before the object is stored, with a resourceVersion-guarded status write, so concurrent
 * creates cannot all pass one limit. A quota counts only once its controller has filled `status.hard`.
 */
export function resourceQuotaAdmission(access: QuotaAccess): ValidatingAdmissionPlugin {
  return {
    name: 'ResourceQuota',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    async validate(attributes) {
      const { namespace, object, resource } = attributes;
      if (namespace === undefined || object === undefined || attributes.subresource !== '' || attributes.user === undefined) return;
      if (attributes.operation === 'UPDATE' && !(resource.group === '' && CHARGED_ON_UPDATE.has(resource.plural))) return;
      let quotas = access.cached(namespace);
      for (let attempt = 0; quotas.length > 0; attempt++) {
        const charges = chargesFor(attributes, object, quotas);
        if (charges.length === 0 || attributes.dryRun) return;
        try {
          for (const quota of charges) await access.updateStatus(quota);
          return;
        } catch (err) {
          if (!(err instanceof StatusError && err.code === 409) || attempt + 1 >= CHARGE_ATTEMPTS) throw err;
          quotas = await access.live(namespace);
        }
      }
    },
  };
}

/** The covering quotas with their new `status.used`; throws the refusal when one would be exceeded. */
function chargesFor(attributes: AdmissionAttributes, object: KubeObject, quotas: readonly KubeObject[]): KubeObject[] {
  const { group, plural } = attributes.resource;
  const name =
    object.metadata.generateName !== undefined && object.metadata.generateName !== '' ? object.metadata.generateName : attributes.name;
  const refuse = (why: string): StatusError => forbidden({ group, resource: plural }, name, why);
  const now = Date.now();
  const delta: Usage = usageOf(group, plural, object, now);
  if (attributes.oldObject !== undefined) {
    const previous = usageOf(group, plural, attributes.oldObject, now);
    for (const [resourceName, q] of delta) {
      const diff = subtract(q, previous.get(resourceName) ?? ZERO);
      delta.set(resourceName, diff.nano < 0n ? { ...diff, nano: 0n } : diff);
    }
  }
  const covering = [...quotas]
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
    .map((quota) => {
      const status = record(quota.status);
      const hard = resourceList(status.hard);
      return { quota, hard, used: resourceList(status.used), interesting: matchingResources(group, plural, hard.keys()) };
    })
    .filter((q) => q.interesting.length > 0 && quotaCovers(q.quota, group, plural, object));
  if (group === '' && plural === 'pods' && attributes.operation === 'CREATE') {
    for (const q of covering) {
      const violation = podConstraintViolation(object, q.interesting);
      if (violation !== undefined) throw refuse(`failed quota: ${q.quota.metadata.name}: ${violation}`);
    }
  }
  for (const q of covering) {
    const unknown = q.interesting.filter((resourceName) => !q.used.has(resourceName));
    if (unknown.length > 0) throw refuse(`status unknown for quota: ${q.quota.metadata.name}, resource: ${unknown.join(',')}`);
  }
  const charges: KubeObject[] = [];
  for (const q of covering) {
    const requested = q.interesting.filter((resourceName) => (delta.get(resourceName)?.nano ?? 0n) !== 0n);
    if (requested.length === 0) continue;
    const next = new Map(q.used);
    for (const resourceName of requested) next.set(resourceName, add(q.used.get(resourceName) ?? ZERO, delta.get(resourceName) ?? ZERO));
    const exceeded = requested.filter((resourceName) => compare(next.get(resourceName) ?? ZERO, q.hard.get(resourceName) ?? ZERO) > 0);
    if (exceeded.length > 0) {
      throw refuse(
        `exceeded quota: ${q.quota.metadata.name}, requested: ${pretty(exceeded, delta)}, used: ${pretty(exceeded, q.used)}, limited: ${pretty(exceeded, q.hard)}`,
      );
    }
    const used: Record<string, string> = { ...(record(record(q.quota.status).used) as Record<string, string>) };
    for (const resourceName of requested) used[resourceName] = formatQuantity(next.get(resourceName) ?? ZERO);
    charges.push({ ...q.quota, status: { ...record(q.quota.status), used } });
  }
  return charges;
}
