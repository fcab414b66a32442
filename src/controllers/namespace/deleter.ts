import { StatusError } from '../../api/errors.js';
import { FINALIZER_KUBERNETES } from '../../api/finalizers.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject } from '../../api/types.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { computeConditions, type DeletionPassResult, mergeConditions, type NamespaceCondition } from './conditions.js';

/** Content is still being removed; check again after about this long (ResourcesRemainingError). */
export class ResourcesRemainingError extends Error {
  readonly estimateSeconds: number;
  constructor(estimateSeconds: number, message: string) {
    super(message);
    this.name = 'ResourcesRemainingError';
    this.estimateSeconds = estimateSeconds;
  }
}

/** Objects held only by finalizers are re-checked after this estimate (R5.15). */
const FINALIZER_ESTIMATE_SECONDS = 15;
const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };

const qualified = (info: ResourceInfo): string => `${info.plural}.${info.group}`;
const refOf = (info: ResourceInfo): ResourceRef => ({ group: info.group, version: info.version, resource: info.plural });

/** R5.13, R8.17: namespaced resources that can be deleted, each in its group's preferred (first listed) version. */
export function deletableNamespacedResources(resources: readonly ResourceInfo[]): ResourceInfo[] {
  const chosen = new Map<string, ResourceInfo>();
  for (const info of resources) {
    if (!info.namespaced || !info.verbs.includes('delete')) continue;
    const key = qualified(info);
    if (!chosen.has(key)) chosen.set(key, info);
  }
  return [...chosen.values()];
}

/** R5.14: pods still running get their grace period, counted from the namespace's deletion. */
function podEstimate(pods: readonly KubeObject[], namespaceDeletedAt: number, now: number): number {
  let estimate = 0;
  for (const pod of pods) {
    const phase = isObject(pod.status) ? pod.status.phase : undefined;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const spec = isObject(pod.spec) ? pod.spec : {};
    const grace = typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30;
    estimate = Math.max(estimate, grace);
  }
  return estimate > 0 && now - namespaceDeletedAt >= estimate * 1000 ? 0 : estimate;
}

/**
 * Deletes everything in a terminating namespace and finalizes it once empty (namespaced_resources_deleter.go;
 * rules R5.12–R5.20). Talks to the API only through the client.
 */
export class NamespacedResourcesDeleter {
  private readonly client: ApiClient;
  private readonly now: () => Date;
  /** Resources whose delete-collection answered 404/405: deleted item by item from then on. */
  private readonly noCollectionDelete = new Set<string>();

  constructor(client: ApiClient, now: () => Date = () => new Date()) {
    this.client = client;
    this.now = now;
  }

  async delete(name: string): Promise<void> {
    let ns: KubeObject;
    try {
      ns = await this.client.get(NAMESPACES, undefined, name);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return;
      throw err;
    }
    if (ns.metadata.deletionTimestamp === undefined) return;
    const specFinalizers = isObject(ns.spec) && Array.isArray(ns.spec.finalizers) ? (ns.spec.finalizers as string[]) : [];
    if (!specFinalizers.includes(FINALIZER_KUBERNETES)) return;

    const result = await this.deleteAllContent(ns);
    ns = await this.updateConditions(ns, result);
    const errors = [...result.discoveryErrors, ...result.groupVersionErrors, ...result.contentErrors];
    if (errors.length > 0) throw new Error(errors.join(', '));
    if (result.remaining.size > 0) {
      throw new ResourcesRemainingError(
        result.estimateSeconds,
        `namespace ${name} still has content: ${[...result.remaining.keys()].join(', ')}`,
      );
    }
    await this.finalize(ns, specFinalizers);
  }

  private async deleteAllContent(ns: KubeObject): Promise<DeletionPassResult & { estimateSeconds: number }> {
    const name = ns.metadata.name ?? '';
    const deletedAt = Date.parse(ns.metadata.deletionTimestamp ?? '') || this.now().getTime();
    const discoveryErrors: string[] = [];
    let resources: ResourceInfo[] = [];
    try {
      resources = deletableNamespacedResources(await this.client.discover());
      // R5.13, D8: content of an unreadable group-version may exist, so the namespace cannot be finalized yet.
      for (const failure of this.client.lastDiscoveryErrors) discoveryErrors.push(`${failure.groupVersion}: ${failure.error.message}`);
    } catch (err) {
      discoveryErrors.push(err instanceof Error ? err.message : String(err));
    }
    const contentErrors: string[] = [];
    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    let estimateSeconds = 0;
    for (const info of resources) {
      try {
        const left = await this.deleteResource(info, name);
        if (left.length === 0) continue;
        const estimate = info.group === '' && info.plural === 'pods' ? podEstimate(left, deletedAt, this.now().getTime()) : 0;
        remaining.set(qualified(info), left.length);
        const held = left.filter((o) => (o.metadata.finalizers ?? []).length > 0);
        for (const obj of held) for (const f of obj.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
        if (estimate > 0) estimateSeconds = Math.max(estimateSeconds, estimate);
        else if (held.length > 0) estimateSeconds = Math.max(estimateSeconds, FINALIZER_ESTIMATE_SECONDS);
        else if (left.some((o) => o.metadata.deletionTimestamp === undefined)) {
          contentErrors.push(
            `unexpected items still remain in namespace: ${name} for gvr: ${info.group}/${info.version}, Resource=${info.plural}`,
          );
        } else {
          estimateSeconds = Math.max(estimateSeconds, 1);
        }
      } catch (err) {
        contentErrors.push(err instanceof Error ? err.message : String(err));
      }
    }
    return { discoveryErrors, groupVersionErrors: [], contentErrors, remaining, finalizers, estimateSeconds };
  }

  /** R5.14: delete-collection (Background) where served, else list and delete each; then list what is left. */
  private async deleteResource(info: ResourceInfo, namespace: string): Promise<KubeObject[]> {
    const ref = refOf(info);
    const key = qualified(info);
    const background = { propagationPolicy: 'Background' as const };
    const cause = { reason: 'NamespaceTerminating' as const, namespace };
    let collected = false;
    if (info.verbs.includes('deletecollection') && !this.noCollectionDelete.has(key)) {
      try {
        await this.client.deleteCollection(ref, namespace, {}, background, cause);
        collected = true;
      } catch (err) {
        if (!(err instanceof StatusError && (err.code === 404 || err.code === 405))) throw err;
        this.noCollectionDelete.add(key);
      }
    }
    if (!collected) {
      const list = await this.client.list(ref, namespace);
      for (const item of list.items) {
        if (item.metadata.deletionTimestamp !== undefined) continue;
        try {
          await this.client.delete(ref, namespace, item.metadata.name ?? '', background, cause);
        } catch (err) {
          if (!(err instanceof StatusError && (err.code === 404 || err.code === 405))) throw err;
        }
      }
    }
    return (await this.client.list(ref, namespace)).items;
  }

  /** Writes the conditions through /status when they changed; returns the namespace as now stored. */
  private async updateConditions(ns: KubeObject, result: DeletionPassResult): Promise<KubeObject> {
    const status = isObject(ns.status) ? ns.status : {};
    const stored = Array.isArray(status.conditions) ? (status.conditions as NamespaceCondition[]) : [];
    const now = this.now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    const conditions = mergeConditions(stored, computeConditions(result), now);
    if (conditions === undefined && status.phase === 'Terminating') return ns;
    const next: KubeObject = { ...ns, status: { ...status, phase: 'Terminating', conditions: conditions ?? stored } };
    try {
      return await this.client.update(NAMESPACES, undefined, next, 'status');
    } catch (err) {
      // A newer version wins; the next pass recomputes the conditions from it.
      if (err instanceof StatusError && err.code === 409) return this.client.get(NAMESPACES, undefined, ns.metadata.name ?? '');
      throw err;
    }
  }

  /** R5.19: drop `kubernetes` from spec.finalizers through /finalize (the rest deduplicated and sorted). */
  private async finalize(ns: KubeObject, specFinalizers: readonly string[]): Promise<void> {
    const rest = [...new Set(specFinalizers.filter((f) => f !== FINALIZER_KUBERNETES))].sort();
    const next: KubeObject = { ...ns, spec: { ...(isObject(ns.spec) ? ns.spec : {}), finalizers: rest } };
    try {
      await this.client.update(NAMESPACES, undefined, next, 'finalize');
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
}
