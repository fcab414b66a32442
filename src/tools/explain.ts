import { FINALIZER_FOREGROUND, FINALIZER_KUBERNETES, FINALIZER_ORPHAN } from '../api/finalizers.js';
import { qualifiedResource } from '../api/resource-info.js';
import { isObject, type KubeObject } from '../api/types.js';
import type {
  BlockingDependent,
  CascadeExplanation,
  FinalizerExplanation,
  NamespaceCondition,
  NamespaceExplanation,
  ObjectExplanation,
  RemainingResource,
  UnavailableApiService,
} from './explain-types.js';
import { finalizerOwner } from './finalizer-owners.js';
import { describeRef, type Entry, type ObjectRef } from './object-ref.js';
import { classifyReferences, referenceProblems } from './owner-references.js';
import type { ClusterSnapshot } from './snapshot.js';

function conditionsOf(obj: KubeObject): NamespaceCondition[] {
  const status = obj.status;
  if (!isObject(status) || !Array.isArray(status.conditions)) return [];
  return status.conditions.filter(isObject).map((c) => ({
    type: String(c.type ?? ''),
    status: String(c.status ?? ''),
    reason: String(c.reason ?? ''),
    message: String(c.message ?? ''),
  }));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What a finalizer's remover waits for, from the live state around this object. */
function finalizerDetail(
  name: string,
  entry: Entry,
  snapshot: ClusterSnapshot,
  blocking: readonly BlockingDependent[],
  orphaning: readonly ObjectRef[],
): string {
  const terminating = entry.object.metadata.deletionTimestamp !== undefined;
  const owner = finalizerOwner(name);
  if (owner === undefined) return 'unknown: nothing here handles it; whoever added it must remove it';
  if (!terminating) return `keeps the object once it is deleted, until the ${owner.component} sees that ${owner.removedWhen}`;
  if (name === FINALIZER_FOREGROUND) {
    if (blocking.length === 0) return 'no dependent blocks this object any more: the garbage collector removes the finalizer next';
    return `waiting for ${plural(blocking.length, 'blocking dependent')}: ${blocking.map((b) => describeRef(b.explanation.object, entry.ref.namespace)).join(', ')}`;
  }
  if (name === FINALIZER_ORPHAN) {
    if (orphaning.length === 0) return 'no dependent references this object any more: the garbage collector removes the finalizer next';
    return `the garbage collector still has to remove the reference from ${plural(orphaning.length, 'dependent')}`;
  }
  if (name === FINALIZER_KUBERNETES) return `removed by the ${owner.component} once ${owner.removedWhen}`;
  if (name === 'customresourcecleanup.apiextensions.k8s.io') {
    const spec = entry.object.spec;
    const group = isObject(spec) ? String(spec.group ?? '') : '';
    const names = isObject(spec) && isObject(spec.names) ? String(spec.names.plural ?? '') : '';
    const left = snapshot.entries().filter((e) => e.info.group === group && e.info.plural === names).length;
    return left === 0
      ? 'no instance remains: the apiextensions server removes the finalizer next'
      : `waiting for ${plural(left, 'instance')} of ${names}.${group} to be deleted`;
  }
  if (name === 'kubernetes.io/pvc-protection' && entry.info.group === '' && entry.info.plural === 'persistentvolumeclaims') {
    const users = podsUsingClaim(entry, snapshot);
    const where = owner.inCascade ? '' : ` (run by ${owner.home}; a Cascade server does not run it)`;
    return users.length === 0
      ? `no pod uses the claim: the ${owner.component} removes it next${where}`
      : `in use by ${users.join(', ')}${where}`;
  }
  const where = owner.inCascade ? '' : ` (${owner.home}${owner.home === 'operator' ? '' : '; a Cascade server does not run it'})`;
  return `removed by the ${owner.component}${where} once ${owner.removedWhen}`;
}

function podsUsingClaim(claim: Entry, snapshot: ClusterSnapshot): string[] {
  const namespace = claim.object.metadata.namespace;
  return snapshot
    .entries()
    .filter((e) => e.info.group === '' && e.info.plural === 'pods' && e.object.metadata.namespace === namespace)
    .filter((pod) => {
      const spec = pod.object.spec;
      if (!isObject(spec) || typeof spec.nodeName !== 'string' || spec.nodeName === '') return false;
      const volumes = Array.isArray(spec.volumes) ? spec.volumes.filter(isObject) : [];
      return volumes.some((v) => isObject(v.persistentVolumeClaim) && v.persistentVolumeClaim.claimName === claim.object.metadata.name);
    })
    .map((pod) => `Pod/${pod.object.metadata.name ?? ''}`);
}

function explainFinalizers(
  names: readonly string[],
  entry: Entry,
  snapshot: ClusterSnapshot,
  blocking: readonly BlockingDependent[],
  orphaning: readonly ObjectRef[],
): FinalizerExplanation[] {
  return names.map((name) => {
    const owner = finalizerOwner(name);
    return {
      name,
      component: owner?.component ?? null,
      home: owner?.home ?? null,
      inCascade: owner?.inCascade ?? false,
      detail: finalizerDetail(name, entry, snapshot, blocking, orphaning),
    };
  });
}

/** Why the collector has not deleted an object that an owner waits on (R4.26–R4.29). */
async function notDeletedBecause(entry: Entry, snapshot: ClusterSnapshot): Promise<string> {
  const verdict = await classifyReferences(entry, snapshot);
  if (verdict.kind === 'unmapped') {
    return `the garbage collector cannot map owner ${verdict.reference.kind}/${verdict.reference.name} (${verdict.reference.apiVersion}) to a served resource and retries forever (R4.26b, D7)`;
  }
  if (verdict.kind === 'namespaced-owner-of-cluster-scoped') {
    return `it is cluster-scoped and references the namespaced ${verdict.reference.kind}/${verdict.reference.name}: the garbage collector never collects it (R4.26c)`;
  }
  const solid = verdict.references.filter((r) => r.state === 'solid');
  if (solid.length > 0) {
    const keepers = solid.map((r) => `${r.reference.kind}/${r.reference.name}`).join(', ');
    return `kept by ${keepers}, an owner that is not being deleted (R4.37); Kubernetes drops the reference to the waiting owner instead of waiting (D1), so this persists only on a server run with --strict-block-owner-deletion or until the garbage collector gets to it`;
  }
  return 'all its owners are gone or being deleted, so the garbage collector should delete it: it has not yet (is a garbage collector running?)';
}

const NOT_DELETED_BY_NAMESPACE_CONTROLLER =
  'the namespace controller deletes all content of a terminating namespace and has not deleted this yet (is it running?)';

class Explainer {
  private readonly snapshot: ClusterSnapshot;

  constructor(snapshot: ClusterSnapshot) {
    this.snapshot = snapshot;
  }

  /** `role` says who waits on the object, which decides who should have deleted it already. */
  async object(entry: Entry, above: ReadonlySet<string>, role: 'target' | 'blocking' | 'content'): Promise<ObjectExplanation> {
    const meta = entry.object.metadata;
    const uid = meta.uid ?? '';
    const ownerReferenceProblems = await referenceProblems(entry, this.snapshot);
    if (above.has(uid))
      return {
        object: entry.ref,
        terminating: meta.deletionTimestamp !== undefined,
        finalizers: [],
        blockingDependents: [],
        orphaning: [],
        ownerReferenceProblems,
        seenAbove: true,
      };
    const path = new Set(above).add(uid);
    const terminating = meta.deletionTimestamp !== undefined;
    const finalizerNames = meta.finalizers ?? [];
    const dependents = this.snapshot.dependentsOf(uid);
    const blockingDependents: BlockingDependent[] = [];
    if (terminating && finalizerNames.includes(FINALIZER_FOREGROUND)) {
      for (const dependent of dependents) {
        const ref = (dependent.object.metadata.ownerReferences ?? []).find((r) => r.uid === uid && r.blockOwnerDeletion === true);
        if (ref === undefined) continue;
        blockingDependents.push({ controller: ref.controller === true, explanation: await this.object(dependent, path, 'blocking') });
      }
    }
    const orphaning = terminating && finalizerNames.includes(FINALIZER_ORPHAN) ? dependents.map((d) => d.ref) : [];
    const explanation: ObjectExplanation = {
      object: entry.ref,
      terminating,
      ...(meta.deletionTimestamp === undefined ? {} : { deletionTimestamp: meta.deletionTimestamp }),
      finalizers: explainFinalizers(finalizerNames, entry, this.snapshot, blockingDependents, orphaning),
      blockingDependents,
      orphaning,
      ...(terminating || role === 'target'
        ? {}
        : { notDeletedBecause: role === 'blocking' ? await notDeletedBecause(entry, this.snapshot) : NOT_DELETED_BY_NAMESPACE_CONTROLLER }),
      ...gracePeriodOf(entry),
      ownerReferenceProblems,
      ...(entry.info.group === '' && entry.info.plural === 'namespaces' && terminating
        ? { namespace: await this.namespace(entry, path) }
        : {}),
    };
    return explanation;
  }

  private async namespace(entry: Entry, path: ReadonlySet<string>): Promise<NamespaceExplanation> {
    const name = entry.object.metadata.name ?? '';
    const spec = entry.object.spec;
    const status = entry.object.status;
    const contentByResource = new Map<string, Entry[]>();
    for (const e of this.snapshot.entries()) {
      if (!e.info.namespaced || e.object.metadata.namespace !== name) continue;
      const key = qualifiedResource(e.info);
      const list = contentByResource.get(key);
      if (list === undefined) contentByResource.set(key, [e]);
      else list.push(e);
    }
    const remaining: RemainingResource[] = [];
    for (const [resource, entries] of [...contentByResource.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const finalizers: Record<string, number> = {};
      for (const e of entries) for (const f of e.object.metadata.finalizers ?? []) finalizers[f] = (finalizers[f] ?? 0) + 1;
      const objects: ObjectExplanation[] = [];
      for (const e of entries) objects.push(await this.object(e, path, 'content'));
      remaining.push({ resource, count: entries.length, finalizers, objects });
    }
    const specFinalizers = stringList(isObject(spec) ? spec.finalizers : undefined);
    return {
      phase: isObject(status) && typeof status.phase === 'string' ? status.phase : '',
      specFinalizers: specFinalizers.map((f) => {
        const owner = finalizerOwner(f);
        const total = remaining.reduce((n, r) => n + r.count, 0);
        const detail =
          f === FINALIZER_KUBERNETES
            ? total > 0
              ? `waiting for ${plural(total, 'object')} in the namespace to be deleted`
              : this.snapshot.failures.length > 0
                ? `no content found where it could be read; the namespace controller waits until ${this.snapshot.failures.map((f) => f.resource).join(', ')} can be read too`
                : 'no content remains: the namespace controller finalizes the namespace next'
            : owner === undefined
              ? 'unknown: nothing here handles it; whoever added it must remove it through /finalize'
              : `removed through /finalize by the ${owner.component} once ${owner.removedWhen}`;
        return { name: f, component: owner?.component ?? null, home: owner?.home ?? null, inCascade: owner?.inCascade ?? false, detail };
      }),
      problems: conditionsOf(entry.object).filter((c) => c.status === 'True'),
      remaining,
    };
  }
}

function gracePeriodOf(entry: Entry): { gracePeriod?: { seconds: number; until: string } } {
  const meta = entry.object.metadata;
  const seconds = meta.deletionGracePeriodSeconds;
  if (meta.deletionTimestamp === undefined || seconds === undefined || seconds <= 0) return {};
  return { gracePeriod: { seconds, until: meta.deletionTimestamp } };
}

function unavailableApiServices(snapshot: ClusterSnapshot): UnavailableApiService[] {
  return snapshot
    .entries()
    .filter((e) => e.info.group === 'apiregistration.k8s.io' && e.info.kind === 'APIService')
    .flatMap((e) => {
      const available = conditionsOf(e.object).find((c) => c.type === 'Available');
      if (available?.status !== 'False') return [];
      return [{ name: e.object.metadata.name ?? '', reason: available.reason, message: available.message }];
    });
}

/** Why `target` is still there, from one snapshot of the cluster. */
export async function explain(snapshot: ClusterSnapshot, target: Entry): Promise<CascadeExplanation> {
  const current = snapshot.byUid(target.ref.uid) ?? target;
  return {
    kind: 'CascadeExplanation',
    version: 1,
    target: await new Explainer(snapshot).object(current, new Set(), 'target'),
    unavailableApiServices: unavailableApiServices(snapshot),
    incomplete: snapshot.failures,
  };
}
