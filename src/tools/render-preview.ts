import { describeRef } from './object-ref.js';
import type { CascadePreview, PreviewDeletion } from './preview.js';

function deletionNotes(d: PreviewDeletion, isTarget: boolean, ns: string | undefined): string {
  const notes: string[] = [isTarget ? `target, ${d.policy.toLowerCase()}` : `via ${d.via.map((r) => describeRef(r, ns)).join(', ')}, ${d.policy.toLowerCase()}`];
  if (d.alreadyTerminating) notes.push('already terminating');
  if (d.waitsFor.length > 0) notes.push(`waits for ${d.waitsFor.map((r) => describeRef(r, ns)).join(', ')}`);
  for (const h of d.heldBy) notes.push(`held by finalizer ${h.finalizer} (${h.component ?? 'unknown: nothing here handles it'})`);
  if (d.gracefulTermination) notes.push('goes once the kubelet stops it');
  return notes.join('; ');
}

/** The preview for people: what goes, what stays and why. */
export function renderPreview(doc: CascadePreview, dryRunNote: boolean): string {
  const ns = doc.target.namespace;
  const lines: string[] = [];
  lines.push(`Deleting ${describeRef(doc.target, ns)}${ns === undefined ? '' : ` in namespace ${ns}`} with --cascade=${doc.propagationPolicy.toLowerCase()} deletes ${doc.deleted.length} object${doc.deleted.length === 1 ? '' : 's'}:`);
  for (const d of doc.deleted) lines.push(`  ${'  '.repeat(d.depth)}${describeRef(d.object, ns)}  (${deletionNotes(d, d.object.uid === doc.target.uid, ns)})`);
  if (doc.survivors.length > 0) {
    lines.push(`and keeps ${doc.survivors.length}:`);
    for (const s of doc.survivors) lines.push(`  ${describeRef(s.object, ns)}  (${s.detail})`);
  }
  for (const i of doc.invalidReferences) for (const p of i.problems) lines.push(`owner reference problem on ${describeRef(i.object, ns)}: ${p.message}`);
  for (const f of doc.incomplete) lines.push(`warning: could not list ${f.resource} (${f.error}); its objects are not in this preview`);
  if (dryRunNote) lines.push('Nothing was deleted (--preview).');
  return `${lines.join('\n')}\n`;
}
