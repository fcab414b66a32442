import type { FuzzRequest } from './request.js';
import type { Violation } from './invariants.js';
import type { WireOutcome } from './wire-client.js';

// Failures grouped by class (invariant, generator case, method, answer) with the smallest request of each class as
// its reproduction, so thousands of hits read as a short list of distinct bugs.

export interface Failure {
  readonly request: FuzzRequest;
  readonly outcome: WireOutcome | undefined;
  readonly violation: Violation;
}

export interface FailureClass {
  readonly key: string;
  readonly count: number;
  /** The failing request with the shortest path and body. */
  readonly smallest: Failure;
}

function outcomeLabel(outcome: WireOutcome | undefined): string {
  if (outcome === undefined) return '-';
  if (outcome.kind !== 'response') return outcome.kind;
  const reason = /"reason":"([A-Za-z]*)"/.exec(outcome.body.subarray(0, 2000).toString('utf8'))?.[1];
  return `${outcome.status}${reason === undefined ? '' : ` ${reason}`}`;
}

/** A violation's detail with the parts that vary per request (numbers, quoted values) blurred, for grouping. */
function blurred(detail: string): string {
  return detail
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, 'N')
    .slice(0, 120);
}

const KEPT_ANSWER_BYTES = 2048;

/**
 * Classifies failures as they come and keeps one per class: a long run with many hits (and megabyte answers) must
 * not grow the test process's memory, which is the server's too.
 */
export class FailureLog {
  private readonly byKey = new Map<string, { count: number; smallest: Failure }>();
  private count = 0;

  get total(): number {
    return this.count;
  }

  add(f: Failure): void {
    this.count++;
    const { request: q, violation: v } = f;
    const key = `${v.invariant} | ${q.category}/${q.variant} | ${q.method} | ${outcomeLabel(f.outcome)} | ${blurred(v.detail)}`;
    const known = this.byKey.get(key);
    if (known === undefined) this.byKey.set(key, { count: 1, smallest: trimmed(f) });
    else {
      known.count++;
      if (size(f) < size(known.smallest)) known.smallest = trimmed(f);
    }
  }

  classes(): FailureClass[] {
    return [...this.byKey.entries()].map(([key, c]) => ({ key, ...c })).sort((a, b) => a.key.localeCompare(b.key));
  }
}

function size(f: Failure): number {
  return f.request.path.length + (f.request.body?.length ?? 0);
}

function trimmed(f: Failure): Failure {
  const o = f.outcome;
  if (o?.kind !== 'response' || o.body.length <= KEPT_ANSWER_BYTES) return f;
  return { ...f, outcome: { ...o, body: Buffer.from(o.body.subarray(0, KEPT_ANSWER_BYTES)) } };
}

function prefix(data: Buffer | undefined, max: number): string {
  if (data === undefined) return '(none)';
  const text = JSON.stringify(data.subarray(0, max).toString('utf8'));
  return data.length > max ? `${text}… (${data.length} bytes)` : text;
}

export function formatFailure(f: Failure, seed: number): string {
  const q = f.request;
  const headers = Object.entries(q.headers)
    .filter(([name]) => name !== 'Authorization')
    .map(([name, value]) => `${name}: ${value.length > 120 ? `${value.slice(0, 120)}… (${value.length} chars)` : value}`)
    .join('; ');
  const lines = [
    `  reproduce: CASCADE_FUZZ_SEED=${seed} CASCADE_FUZZ_ONLY=${q.index} (request #${q.index}, as ${q.actor})`,
    `  ${q.method} ${q.path.length > 400 ? `${q.path.slice(0, 400)}… (${q.path.length} chars)` : q.path}`,
    `  headers: ${headers}${q.declaredLength === undefined ? '' : `; Content-Length: ${q.declaredLength} (declared)`}${q.chunked ? '; chunked' : ''}`,
    `  body: ${prefix(q.body, 300)}`,
    `  violation: ${f.violation.invariant}: ${f.violation.detail}`,
  ];
  const o = f.outcome;
  if (o?.kind === 'response') lines.push(`  answer: ${o.status} ${String(o.headers['content-type'] ?? '')} ${prefix(o.body, 300)}`);
  else if (o !== undefined) lines.push(`  answer: ${o.kind === 'timeout' ? `none within ${o.afterMs} ms` : `${o.code} ${o.message}`}`);
  return lines.join('\n');
}

export function formatReport(log: FailureLog, seed: number): string {
  const classes = log.classes();
  const out = [`${log.total} violations in ${classes.length} classes (seed ${seed}):`];
  for (const c of classes) out.push(`\n[${c.count}×] ${c.key}\n${formatFailure(c.smallest, seed)}`);
  return out.join('\n');
}
