import { isDeepStrictEqual } from 'node:util';
import { goQuote } from '../../util/go-quote.js';

/**
 * The diff Kubernetes appends to "is immutable after creation" errors (go-cmp's cmp.Diff of the internal Go
 * structs), in go-cmp's line layout: the changed fields as "-"/"+" pairs under their Go names, the unchanged ones
 * counted. go-cmp itself renders values with Go types and randomises its spacing so that nobody depends on the
 * text; this keeps the layout and renders values as JSON.
 */

type Obj = Record<string, unknown>;

/** A struct field: its JSON name and its Go name. */
export type GoField = readonly [json: string, go: string];

function render(value: unknown): string {
  if (value === undefined || value === null) return 'nil';
  if (typeof value === 'string') return goQuote(value);
  return JSON.stringify(value);
}

export function goStructDiff(goType: string, fields: readonly GoField[], old: Obj, next: Obj): string {
  const lines = [`  ${goType}{`];
  let identical = 0;
  for (const [json, go] of fields) {
    if (isDeepStrictEqual(old[json] ?? null, next[json] ?? null)) {
      identical++;
      continue;
    }
    lines.push(`- \t${go}: ${render(old[json])},`, `+ \t${go}: ${render(next[json])},`);
  }
  if (identical > 0) lines.push(`  \t... // ${identical} identical fields`);
  lines.push('  }');
  return `${lines.join('\n')}\n`;
}
