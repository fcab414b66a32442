import { StatusError } from '../api/errors.js';
import type { StatusCause } from '../api/types.js';
import { goQuote } from '../util/go-quote.js';
import { type FieldSet, pathString } from './fieldpath.js';
import type { ManagedEntry } from './managed-fields.js';

/** One other manager's paths an apply would change. */
export interface Conflict {
  readonly key: string;
  readonly entry: ManagedEntry;
  readonly paths: FieldSet;
}

/** R10.87: `"name"`, then ` with subresource "…"`, then ` using <apiVersion>` for Update entries. */
function printManager(e: ManagedEntry): string {
  let out = goQuote(e.manager);
  if (e.subresource !== undefined) out += ` with subresource ${goQuote(e.subresource)}`;
  if (e.operation === 'Update') out += ` using ${e.apiVersion}`;
  return out;
}

/** The 409 of an apply, with the conflicts it reports (kubectl's last-applied allowance needs them, R10.110). */
export class ApplyConflictError extends StatusError {
  readonly conflicts: readonly Conflict[];

  constructor(conflicts: readonly Conflict[], message: string, causes: StatusCause[]) {
    super(409, 'Conflict', message, { causes });
    this.conflicts = conflicts;
  }
}

/** The 409 Conflict of an apply (R10.86, R10.88): message and one FieldManagerConflict cause per (manager, path). */
export function conflictError(conflicts: readonly Conflict[]): ApplyConflictError {
  const sorted = [...conflicts].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const causes: StatusCause[] = [];
  const lines: string[] = [];
  for (const c of sorted) {
    const who = printManager(c.entry);
    const paths = c.paths.paths().map(pathString);
    lines.push(`conflicts with ${who}:`);
    for (const p of paths) {
      lines.push(`- ${p}`);
      causes.push({ reason: 'FieldManagerConflict', message: `conflict with ${who}`, field: p });
    }
  }
  let message: string;
  if (causes.length === 1) {
    const only = causes[0] as StatusCause;
    message = `Apply failed with 1 conflict: ${only.message}: ${only.field}`;
  } else {
    message = `Apply failed with ${causes.length} conflicts: ${lines.join('\n')}`;
  }
  return new ApplyConflictError(conflicts, message, causes);
}
