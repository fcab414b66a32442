import { isObject } from '../../api/types.js';
import type { ObjectStore, StoredObject } from './object-store.js';

/** The namespace controller's five deletion conditions (R5.20), in the order kubectl describe lists them. */
export const NAMESPACE_CONDITIONS = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

export interface ConditionRow {
  readonly type: string;
  /** "True", "False", or "" when the controller has not reported it. */
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

export interface UnavailableApiServiceRow {
  readonly name: string;
  readonly reason: string;
  readonly message: string;
  /** The backing Service, e.g. "default/sample-api:443"; empty for a local APIService. */
  readonly endpoint: string;
}

export interface StuckNamespace {
  readonly name: string;
  readonly href: string;
  readonly since: string;
  readonly specFinalizers: readonly string[];
  readonly conditions: readonly ConditionRow[];
  /** Objects still in the namespace that carry finalizers. */
  readonly held: readonly StoredObject[];
}

function record(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

function conditions(stored: StoredObject): ConditionRow[] {
  const found = Array.isArray(record(stored.object.status).conditions)
    ? (record(stored.object.status).conditions as unknown[]).filter(isObject)
    : [];
  return NAMESPACE_CONDITIONS.map((type) => {
    const c = found.find((x) => x.type === type);
    return { type, status: String(c?.status ?? ''), reason: String(c?.reason ?? ''), message: String(c?.message ?? '') };
  });
}

/** Namespaces being deleted, with what their controller reports and what still holds them. */
export function stuckNamespaces(store: ObjectStore): StuckNamespace[] {
  const namespaces = [...store.all()].filter((o) => o.resource.key === 'namespaces' && o.object.metadata.deletionTimestamp !== undefined);
  return namespaces
    .map((ns) => {
      const name = ns.object.metadata.name ?? '';
      const held = [...store.all()].filter((o) => o.object.metadata.namespace === name && (o.object.metadata.finalizers?.length ?? 0) > 0);
      const spec = record((ns.object as { spec?: unknown }).spec);
      return {
        name,
        href: `#/cluster/namespaces/${encodeURIComponent(name)}`,
        since: ns.object.metadata.deletionTimestamp ?? '',
        specFinalizers: Array.isArray(spec.finalizers) ? spec.finalizers.map(String) : [],
        conditions: conditions(ns),
        held,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** APIServices whose Available condition is not True: their resources can be neither listed nor deleted (D8). */
export function unavailableApiServices(store: ObjectStore): UnavailableApiServiceRow[] {
  const rows: UnavailableApiServiceRow[] = [];
  for (const o of store.all()) {
    if (o.resource.key !== 'apiservices.apiregistration.k8s.io') continue;
    const status = record(o.object.status);
    const available = (Array.isArray(status.conditions) ? status.conditions.filter(isObject) : []).find((c) => c.type === 'Available');
    if (available === undefined || available.status === 'True') continue;
    const service = record(record((o.object as { spec?: unknown }).spec).service);
    const endpoint =
      typeof service.name === 'string' ? `${String(service.namespace ?? '')}/${service.name}:${String(service.port ?? 443)}` : '';
    rows.push({
      name: o.object.metadata.name ?? '',
      reason: String(available.reason ?? ''),
      message: String(available.message ?? ''),
      endpoint,
    });
  }
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}
