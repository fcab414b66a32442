import type { CascadeExplanation, FinalizerExplanation, ObjectExplanation } from './explain-types.js';
import { describeRef } from './object-ref.js';

function finalizerLine(f: FinalizerExplanation): string {
  return f.component === null ? `finalizer ${f.name}: ${f.detail}` : `finalizer ${f.name} (${f.component}): ${f.detail}`;
}

function objectLines(e: ObjectExplanation, indent: string, contextNamespace: string | undefined): string[] {
  const name = describeRef(e.object, contextNamespace);
  const lines: string[] = [];
  if (e.seenAbove === true) return [`${indent}${name}: already shown above (an ownership cycle)`];
  if (e.terminating) lines.push(`${indent}${name} is being deleted (since ${e.deletionTimestamp ?? '?'})`);
  else if (e.notDeletedBecause !== undefined) lines.push(`${indent}${name} is not being deleted: ${e.notDeletedBecause}`);
  else lines.push(`${indent}${name} is not being deleted`);
  const inner = `${indent}  `;
  for (const f of e.finalizers) lines.push(`${inner}${finalizerLine(f)}`);
  if (e.gracePeriod !== undefined) lines.push(`${inner}in its ${e.gracePeriod.seconds}s grace period until ${e.gracePeriod.until}: waiting for the kubelet to stop it`);
  if (e.terminating && e.finalizers.length === 0 && e.gracePeriod === undefined && (e.namespace?.specFinalizers.length ?? 0) === 0) lines.push(`${inner}no finalizer is left: it should disappear at once`);
  for (const b of e.blockingDependents) {
    lines.push(`${inner}waits for blocking dependent${b.controller ? ' (controller reference)' : ''}:`);
    lines.push(...objectLines(b.explanation, `${inner}  `, e.object.namespace));
  }
  if (e.orphaning.length > 0) lines.push(`${inner}dependents still referencing it: ${e.orphaning.map((r) => describeRef(r, e.object.namespace)).join(', ')}`);
  for (const p of e.ownerReferenceProblems) lines.push(`${inner}owner reference problem: ${p.message}`);
  if (e.namespace !== undefined) {
    const ns = e.namespace;
    lines.push(`${inner}phase ${ns.phase || 'unknown'}`);
    for (const f of ns.specFinalizers) lines.push(`${inner}spec.${finalizerLine(f)}`);
    for (const c of ns.problems) lines.push(`${inner}condition ${c.type} (${c.reason}): ${c.message}`);
    if (ns.remaining.length === 0) lines.push(`${inner}no content remains in the namespace`);
    for (const r of ns.remaining) {
      const finalizers = Object.entries(r.finalizers).map(([f, n]) => `${f} on ${n}`);
      lines.push(`${inner}remaining ${r.resource}: ${r.count}${finalizers.length > 0 ? ` (finalizers: ${finalizers.join(', ')})` : ''}`);
      for (const o of r.objects) lines.push(...objectLines(o, `${inner}  `, e.object.name));
    }
  }
  return lines;
}

/** The report for people: one block per object, indented along what it waits on. */
export function renderExplanation(doc: CascadeExplanation): string {
  const lines = objectLines(doc.target, '', undefined);
  for (const api of doc.unavailableApiServices) lines.push(`aggregated API ${api.name} is unavailable (${api.reason}): ${api.message}; namespaces cannot finish deleting while it is down (D8)`);
  for (const f of doc.incomplete) lines.push(`warning: could not list ${f.resource} (${f.error}); objects of that type are missing from this report`);
  return `${lines.join('\n')}\n`;
}
