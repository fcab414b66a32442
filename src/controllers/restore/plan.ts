import type { KubeObject, OwnerReference } from '../../api/types.js';
import { type DeletionRecord, entryParts, type OriginalIdentity } from '../../registry/archive/entry.js';
import type { RestoreSpec } from '../../registry/archive/restore-resource.js';

/** One archived object a restore recreates. */
export interface PlannedObject {
  readonly original: OriginalIdentity;
  readonly deletion: DeletionRecord;
  /** The last state, as archived. */
  readonly object: KubeObject;
}

const NAMESPACES = 'namespaces';
const CRDS = 'customresourcedefinitions.apiextensions.k8s.io';

function planned(entry: KubeObject): PlannedObject {
  const { original, deletion, object } = entryParts(entry);
  return { original, deletion, object };
}

const timeOf = (p: PlannedObject): number => Date.parse(p.deletion.time);

/** The archived object a target names: the last one removed (at or before asOf, when given). */
export function findTarget(entries: readonly KubeObject[], spec: RestoreSpec): PlannedObject | undefined {
  const t = spec.target;
  const asOf = t.asOf === undefined ? Number.POSITIVE_INFINITY : Date.parse(t.asOf);
  let best: PlannedObject | undefined;
  for (const entry of entries) {
    const p = planned(entry);
    const o = p.original;
    if (o.resource !== t.resource) continue;
    if (t.uid !== undefined && t.uid !== '' && o.uid !== t.uid) continue;
    if (t.name !== undefined && t.name !== '' && o.name !== t.name) continue;
    if ((o.namespace ?? '') !== (t.namespace ?? '') && o.namespace !== undefined) continue;
    if (timeOf(p) > asOf) continue;
    if (best === undefined || timeOf(p) > timeOf(best)) best = p;
  }
  return best;
}

/** When the target's removal began (its deletionTimestamp) and ended (its archive time). */
function removalWindow(target: PlannedObject): [number, number] {
  const end = timeOf(target);
  const began = target.object.metadata.deletionTimestamp;
  return [began === undefined ? end : Date.parse(began), end];
}

/**
 * What the target's removal took with it: a namespace's content, a CRD's instances (each removed while the target
 * was being deleted), and, transitively, what the collector removed because its owners were among them.
 */
export function dependentsOf(entries: readonly KubeObject[], target: PlannedObject): PlannedObject[] {
  const [began, ended] = removalWindow(target);
  const within = (p: PlannedObject): boolean => timeOf(p) >= began && timeOf(p) <= ended;
  const all = entries.map(planned);
  const selected = new Map<string, PlannedObject>([[target.original.uid, target]]);
  for (const p of all) {
    if (p.original.uid === target.original.uid || !within(p)) continue;
    const d = p.deletion;
    const ofNamespace =
      target.original.resource === NAMESPACES && d.reason === 'NamespaceTerminating' && d.namespace === target.original.name;
    const ofCrd = target.original.resource === CRDS && d.reason === 'CRDRemoval' && d.crd === target.original.name;
    if (ofNamespace || ofCrd) selected.set(p.original.uid, p);
  }
  // The collector's cascades: a dependent removed because (all) its owners were going, some of them selected.
  const cascaded = all.filter((p) => p.deletion.reason === 'Cascade');
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of cascaded) {
      if (selected.has(p.original.uid)) continue;
      if ((p.deletion.ownerUIDs ?? []).some((uid) => selected.has(uid))) {
        selected.set(p.original.uid, p);
        grew = true;
      }
    }
  }
  selected.delete(target.original.uid);
  return [...selected.values()];
}

/** Namespaces and CRDs come before anything that may live in them or be one of their instances. */
function rank(p: PlannedObject): number {
  if (p.original.resource === NAMESPACES) return 0;
  if (p.original.resource === CRDS) return 1;
  return p.original.namespace === undefined ? 2 : 3;
}

const nameOf = (p: PlannedObject): string => `${p.original.namespace ?? ''}/${p.original.name}`;

/**
 * Orders the objects so that each comes after the owners it references among them (and namespaces and CRDs
 * first): the collector then never sees a restored object whose owner is not there yet. Otherwise objects go by
 * namespace and name. An ownership cycle (which the collector would never have removed as a cascade) keeps
 * its members in that order.
 */
export function ownersFirst(objects: readonly PlannedObject[]): PlannedObject[] {
  const byUid = new Map(objects.map((p) => [p.original.uid, p]));
  const ordered: PlannedObject[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: PlannedObject): void => {
    const uid = p.original.uid;
    if (state.has(uid)) return;
    state.set(uid, 'visiting');
    for (const ref of p.object.metadata.ownerReferences ?? []) {
      const owner = byUid.get(ref.uid);
      if (owner !== undefined && state.get(ref.uid) !== 'visiting') visit(owner);
    }
    state.set(uid, 'done');
    ordered.push(p);
  };
  const sorted = [...objects].sort((a, b) => rank(a) - rank(b) || nameOf(a).localeCompare(nameOf(b)));
  for (const p of sorted) visit(p);
  // Owners pulled forward may outrank their place; a stable sort by rank keeps owner order within each rank.
  return ordered.sort((a, b) => rank(a) - rank(b));
}

/** The finalizers a DELETE adds to carry out a propagation policy: the restored object is not being deleted. */
const DELETION_FINALIZERS = new Set(['foregroundDeletion', 'orphan']);

/**
 * The object to create for an archived one, rolled forward: the system fields cleared (the server sets new ones),
 * owner references rewritten to the new uids of restored owners, deletion's own finalizers dropped. `keepRef`
 * decides about a reference to an owner that is not being restored (true: it lives, keep it).
 */
export function rollForward(
  object: KubeObject,
  newUids: ReadonlyMap<string, string>,
  keepRef: (ref: OwnerReference) => boolean,
): KubeObject {
  // What the server sets, and a new object must not carry, is left out of the copy (not deleted from it: a restore
  // of a cascade rolls thousands forward).
  const {
    uid: _uid,
    resourceVersion: _resourceVersion,
    creationTimestamp: _creationTimestamp,
    deletionTimestamp: _deletionTimestamp,
    deletionGracePeriodSeconds: _deletionGracePeriodSeconds,
    generation: _generation,
    managedFields: _managedFields,
    selfLink: _selfLink,
    finalizers: oldFinalizers,
    ownerReferences: oldRefs,
    ...kept
  } = object.metadata as KubeObject['metadata'] & { selfLink?: string };
  const meta: KubeObject['metadata'] = structuredClone(kept);
  const finalizers = (oldFinalizers ?? []).filter((f) => !DELETION_FINALIZERS.has(f));
  if (finalizers.length > 0) meta.finalizers = finalizers;
  const refs = (oldRefs ?? []).flatMap((ref) => {
    const renewed = newUids.get(ref.uid);
    if (renewed !== undefined) return [{ ...ref, uid: renewed }];
    return keepRef(ref) ? [{ ...ref }] : [];
  });
  if (refs.length > 0) meta.ownerReferences = refs;
  const { metadata: _metadata, ...rest } = object;
  return { ...structuredClone(rest), metadata: meta };
}

/**
 * Splits owners-first `ordered` objects into waves: an object goes in the wave after the last of its owners, its
 * namespace and its CRD among them, so each wave can be written at once and still after all that it needs.
 */
export function waves(ordered: readonly PlannedObject[]): PlannedObject[][] {
  const waveOf = new Map<string, number>();
  const namespaces = new Map<string, string>();
  const crds = new Map<string, string>();
  const result: PlannedObject[][] = [];
  for (const p of ordered) {
    const needs = (p.object.metadata.ownerReferences ?? []).map((ref) => ref.uid);
    const ns = p.original.namespace === undefined ? undefined : namespaces.get(p.original.namespace);
    if (ns !== undefined) needs.push(ns);
    const crd = crds.get(p.original.resource);
    if (crd !== undefined) needs.push(crd);
    let wave = 0;
    for (const uid of needs) {
      const before = waveOf.get(uid);
      if (before !== undefined) wave = Math.max(wave, before + 1);
    }
    waveOf.set(p.original.uid, wave);
    if (p.original.resource === NAMESPACES) namespaces.set(p.original.name, p.original.uid);
    if (p.original.resource === CRDS) crds.set(p.original.name, p.original.uid);
    const members = result[wave];
    if (members === undefined) result[wave] = [p];
    else members.push(p);
  }
  return result;
}
