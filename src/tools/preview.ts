import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../api/finalizers.js';
import { qualifiedResource } from '../api/resource-info.js';
import { isObject, type KubeObject, type OwnerReference } from '../api/types.js';
import type { PropagationPolicy } from '../api/delete-options.js';
import { finalizerOwner } from './finalizer-owners.js';
import { type Entry, type ObjectRef, refFromOwnerReference } from './object-ref.js';
import { classifyReferences, currentOwnerState, type OwnerStateOf, type ReferenceClassification, type ReferenceProblem, referenceProblems } from './owner-references.js';
import type { ClusterSnapshot, ListFailure } from './snapshot.js';

/**
 * The `cascade delete --preview -o json` document (version 1): what the garbage collector deletes and what it
 * leaves behind, computed from live owner references with the collector's own classification (R4.26–R4.39).
 */
export interface CascadePreview {
  readonly kind: 'CascadePreview';
  readonly version: 1;
  readonly target: ObjectRef;
  readonly propagationPolicy: PropagationPolicy;
  /** The target first, then its collected dependents, nearest first. */
  readonly deleted: readonly PreviewDeletion[];
  /** Dependents of deleted objects that stay, and the references they lose. */
  readonly survivors: readonly PreviewSurvivor[];
  /** References among the objects above that the collector treats as absent or never follows. */
  readonly invalidReferences: readonly { readonly object: ObjectRef; readonly problems: readonly ReferenceProblem[] }[];
  readonly incomplete: readonly ListFailure[];
}

export interface PreviewDeletion {
  readonly object: ObjectRef;
  /** Owner-reference hops from the target (0 for the target). */
  readonly depth: number;
  /** The requested policy for the target; the collector's choice for dependents (R4.28, R4.29). */
  readonly policy: PropagationPolicy;
  /** The deleted owners it is collected through (empty for the target). */
  readonly via: readonly ObjectRef[];
  /** Already being deleted before this request. */
  readonly alreadyTerminating: boolean;
  /** Finalizers other than the collector's: the object disappears only once their removers are done. */
  readonly heldBy: readonly { readonly finalizer: string; readonly component: string | null }[];
  /** A scheduled pod: it disappears only after the kubelet stops it (graceful deletion, R2.17). */
  readonly gracefulTermination: boolean;
  /** Foreground only: the deleted dependents whose blockOwnerDeletion reference it waits for (R4.31). */
  readonly waitsFor: readonly ObjectRef[];
}

export type SurvivorReason = 'orphan-policy' | 'kept-by-other-owner' | 'never-collected';

export interface PreviewSurvivor {
  readonly object: ObjectRef;
  readonly reason: SurvivorReason;
  /** The references the collector removes from it (R4.27, R4.34). */
  readonly losesReferencesTo: readonly ObjectRef[];
  /** Owners that stay and keep it (kept-by-other-owner). */
  readonly keptBy: readonly ObjectRef[];
  /** It is left without any owner reference, so it is never collected later (R4.36). */
  readonly orphaned: boolean;
  readonly detail: string;
}

interface Member {
  readonly entry: Entry;
  readonly policy: PropagationPolicy;
  readonly depth: number;
  readonly via: readonly ObjectRef[];
  readonly alreadyTerminating: boolean;
}

/** R4.29: an object's own GC finalizers decide how the collector deletes it. */
function policyFromFinalizers(obj: KubeObject): PropagationPolicy {
  const finalizers = obj.metadata.finalizers ?? [];
  if (finalizers.includes(FINALIZER_ORPHAN)) return 'Orphan';
  if (finalizers.includes(FINALIZER_FOREGROUND)) return 'Foreground';
  return 'Background';
}

function scheduledRunningPod(entry: Entry): boolean {
  if (entry.info.group !== '' || entry.info.plural !== 'pods') return false;
  const spec = entry.object.spec;
  const status = entry.object.status;
  const phase = isObject(status) ? status.phase : undefined;
  return isObject(spec) && typeof spec.nodeName === 'string' && spec.nodeName !== '' && phase !== 'Succeeded' && phase !== 'Failed';
}

function sortKey(ref: ObjectRef): string {
  return [ref.resource, ref.namespace ?? '', ref.name].join('\u0000');
}

class CascadeSimulation {
  private readonly snapshot: ClusterSnapshot;
  readonly members = new Map<string, Member>();

  constructor(snapshot: ClusterSnapshot) {
    this.snapshot = snapshot;
  }

  /**
   * The state each owner is in while the cascade runs: a deleted owner deleting its dependents in the foreground
   * is waiting, one removed in the background is absent, and one orphaning its dependents still exists (it only
   * strips its references); owners outside the cascade keep their live state.
   */
  readonly stateOf: OwnerStateOf = (owner) => {
    const member = this.members.get(owner.ref.uid);
    if (member === undefined) return currentOwnerState(owner);
    if (member.policy === 'Orphan') return 'solid';
    return member.policy === 'Foreground' ? 'waiting' : 'dangling';
  };

  private propagating(uid: string): boolean {
    const member = this.members.get(uid);
    return member !== undefined && member.policy !== 'Orphan';
  }

  /** Dependents the collector would queue: linked by uid to an owner that is deleted with propagation (R4.14, R4.15). */
  private candidates(): Entry[] {
    const found = new Map<string, Entry>();
    for (const uid of this.members.keys()) {
      if (!this.propagating(uid)) continue;
      for (const dependent of this.snapshot.dependentsOf(uid)) if (!this.members.has(dependent.ref.uid)) found.set(dependent.ref.uid, dependent);
    }
    return [...found.values()];
  }

  private goingOwners(entry: Entry): ObjectRef[] {
    return (entry.object.metadata.ownerReferences ?? []).flatMap((r) => {
      const member = this.members.get(r.uid);
      return member === undefined || member.policy === 'Orphan' ? [] : [member.entry.ref];
    });
  }

  private depthOf(entry: Entry): number {
    const depths = (entry.object.metadata.ownerReferences ?? []).map((r) => this.members.get(r.uid)?.depth).filter((d): d is number => d !== undefined);
    return depths.length === 0 ? 0 : Math.min(...depths) + 1;
  }

  /** Adds every dependent the collector would delete, until nothing changes (each deletion can free more). */
  async run(): Promise<void> {
    for (;;) {
      let changed = false;
      for (const dependent of this.candidates()) {
        const meta = dependent.object.metadata;
        if (meta.deletionTimestamp !== undefined) {
          // R4.22: already being deleted; it goes (with its own finalizers' policy) without the collector's help.
          this.add(dependent, policyFromFinalizers(dependent.object), true);
          changed = true;
          continue;
        }
        const verdict = await classifyReferences(dependent, this.snapshot, this.stateOf);
        if (verdict.kind !== 'classified' || verdict.references.some((r) => r.state === 'solid')) continue;
        const waiting = verdict.references.some((r) => r.state === 'waiting');
        // R4.28: waiting for a foreground owner and owning something itself → deleted in the foreground.
        const policy = waiting && this.snapshot.dependentsOf(dependent.ref.uid).length > 0 ? 'Foreground' : policyFromFinalizers(dependent.object);
        this.add(dependent, policy, false);
        changed = true;
      }
      if (!changed) return;
    }
  }

  add(entry: Entry, policy: PropagationPolicy, alreadyTerminating: boolean): void {
    this.members.set(entry.ref.uid, { entry, policy, depth: this.depthOf(entry), via: this.goingOwners(entry), alreadyTerminating });
  }

  deletion(member: Member): PreviewDeletion {
    const uid = member.entry.ref.uid;
    const heldBy = (member.entry.object.metadata.finalizers ?? [])
      .filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND)
      .map((finalizer) => ({ finalizer, component: finalizerOwner(finalizer)?.component ?? null }));
    const waitsFor =
      member.policy === 'Foreground'
        ? this.snapshot
            .dependentsOf(uid)
            .filter((d) => this.members.has(d.ref.uid) && (d.object.metadata.ownerReferences ?? []).some((r) => r.uid === uid && r.blockOwnerDeletion === true))
            .map((d) => d.ref)
        : [];
    return {
      object: member.entry.ref,
      depth: member.depth,
      policy: member.policy,
      via: member.via,
      alreadyTerminating: member.alreadyTerminating,
      heldBy,
      gracefulTermination: scheduledRunningPod(member.entry),
      waitsFor,
    };
  }

  private ownerRef(reference: OwnerReference, dependent: Entry): ObjectRef {
    const member = this.members.get(reference.uid);
    if (member !== undefined) return member.entry.ref;
    const info = this.snapshot.resourceOfReference(reference);
    return refFromOwnerReference(reference, info === undefined ? '' : qualifiedResource(info), info?.namespaced === true ? dependent.ref.namespace : undefined);
  }

  /** What happens to a dependent of a deleted object that is not deleted itself. */
  async survivor(dependent: Entry): Promise<PreviewSurvivor> {
    const references = dependent.object.metadata.ownerReferences ?? [];
    const verdict: ReferenceClassification = await classifyReferences(dependent, this.snapshot, this.stateOf);
    const stripped = new Set<string>();
    for (const r of references) if (this.members.get(r.uid)?.policy === 'Orphan') stripped.add(r.uid);
    const keptBy: ObjectRef[] = [];
    if (verdict.kind === 'classified') {
      for (const c of verdict.references) {
        if (c.state !== 'solid') stripped.add(c.reference.uid);
        else if (!stripped.has(c.reference.uid)) keptBy.push(this.ownerRef(c.reference, dependent));
      }
    }
    const losesReferencesTo = references.filter((r) => stripped.has(r.uid)).map((r) => this.ownerRef(r, dependent));
    const orphaned = references.every((r) => stripped.has(r.uid));
    const names = (refs: readonly ObjectRef[]): string => refs.map((r) => `${r.kind}/${r.name}`).join(', ');
    if (verdict.kind !== 'classified') {
      const why =
        verdict.kind === 'unmapped'
          ? `owner kind ${verdict.reference.kind} (${verdict.reference.apiVersion}) is not served: the collector retries it forever (R4.26b)`
          : `it is cluster-scoped and references the namespaced ${verdict.reference.kind}/${verdict.reference.name} (R4.26c)`;
      return { object: dependent.ref, reason: 'never-collected', losesReferencesTo, keptBy, orphaned, detail: `never collected: ${why}` };
    }
    if (keptBy.length > 0) {
      return { object: dependent.ref, reason: 'kept-by-other-owner', losesReferencesTo, keptBy, orphaned, detail: `kept by ${names(keptBy)}; loses its reference to ${names(losesReferencesTo)} (R4.27)` };
    }
    return { object: dependent.ref, reason: 'orphan-policy', losesReferencesTo, keptBy, orphaned, detail: `orphaned: the reference to ${names(losesReferencesTo)} is removed and it keeps running (R4.34, R4.36)` };
  }

  /** Dependents (by uid) of any deleted object that are not deleted themselves. */
  surviving(): Entry[] {
    const found = new Map<string, Entry>();
    for (const uid of this.members.keys()) for (const d of this.snapshot.dependentsOf(uid)) if (!this.members.has(d.ref.uid)) found.set(d.ref.uid, d);
    return [...found.values()];
  }
}

/** Exactly what deleting `target` with `policy` makes the garbage collector delete and leave, without deleting anything. */
export async function previewDeletion(snapshot: ClusterSnapshot, target: Entry, policy: PropagationPolicy): Promise<CascadePreview> {
  const current = snapshot.byUid(target.ref.uid) ?? target;
  const simulation = new CascadeSimulation(snapshot);
  simulation.add(current, policy, current.object.metadata.deletionTimestamp !== undefined);
  await simulation.run();
  const members = [...simulation.members.values()];
  members.sort((a, b) => a.depth - b.depth || (a.entry.ref.uid === current.ref.uid ? -1 : b.entry.ref.uid === current.ref.uid ? 1 : sortKey(a.entry.ref) < sortKey(b.entry.ref) ? -1 : 1));
  const survivorEntries = simulation.surviving().sort((a, b) => (sortKey(a.ref) < sortKey(b.ref) ? -1 : 1));
  const survivors: PreviewSurvivor[] = [];
  for (const entry of survivorEntries) survivors.push(await simulation.survivor(entry));
  const invalidReferences = [];
  for (const entry of [...members.map((m) => m.entry), ...survivorEntries]) {
    const problems = await referenceProblems(entry, snapshot);
    if (problems.length > 0) invalidReferences.push({ object: entry.ref, problems });
  }
  return {
    kind: 'CascadePreview',
    version: 1,
    target: current.ref,
    propagationPolicy: policy,
    deleted: members.map((m) => simulation.deletion(m)),
    survivors,
    invalidReferences,
    incomplete: snapshot.failures,
  };
}
