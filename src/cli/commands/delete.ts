import type { ApiClient } from '../../client/interface.js';
import type { PropagationPolicy } from '../../api/delete-options.js';
import { waitForObjectsGone, progressBar } from '../../tools/cascade-progress.js';
import { type CommandIo, CommandFailure, parseCommandArgs, runCommand, UsageError } from '../../tools/command-io.js';
import { parseDuration } from '../../tools/duration.js';
import { describeRef, type Entry } from '../../tools/object-ref.js';
import { parseOutputFormat, writeDocument } from '../../tools/output-format.js';
import { previewDeletion } from '../../tools/preview.js';
import { renderPreview } from '../../tools/render-preview.js';
import { resourceRefOf } from '../../tools/snapshot.js';
import { loadTarget } from '../../tools/target.js';
import type { ToolDefaults } from './explain.js';

export const DELETE_USAGE = `Usage: cascade delete TYPE/NAME [--cascade=background|foreground|orphan] [--preview] [-n NAMESPACE]

With --preview, lists exactly what the garbage collector would delete and what it would leave (and the
references it would remove) given the live owner references, and deletes nothing. Without it, deletes the
object and shows the dependents remaining until the cascade completes or --timeout passes.

Flags:
      --cascade string     background, foreground or orphan (default background; true/false as in kubectl)
      --preview            show what would be deleted and kept; delete nothing
  -n, --namespace string   namespace of the object (default: the kubeconfig context's, else "default")
  -o, --output string      json or yaml, with --preview (default: a report for people)
      --timeout duration   how long to wait for the cascade to complete (default 60s)
`;

const POLICIES: Readonly<Record<string, PropagationPolicy>> = {
  background: 'Background',
  foreground: 'Foreground',
  orphan: 'Orphan',
  // kubectl's deprecated boolean spellings.
  true: 'Background',
  false: 'Orphan',
};

const FLAGS = {
  namespace: { type: 'string', short: 'n' },
  output: { type: 'string', short: 'o' },
  cascade: { type: 'string', default: 'background' },
  preview: { type: 'boolean' },
  timeout: { type: 'string', default: '60s' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parsePolicy(value: string): PropagationPolicy {
  const policy = POLICIES[value];
  if (policy === undefined) throw new UsageError(`invalid cascade value (${value}). Must be "background", "foreground", or "orphan".`);
  return policy;
}

/** `cascade delete`: returns the exit code. */
export async function deleteCommand(
  client: ApiClient,
  argv: readonly string[],
  io: CommandIo,
  defaults: ToolDefaults = { namespace: 'default' },
  wait: { readonly intervalMs?: number } = {},
): Promise<number> {
  return runCommand(io, async () => {
    const { values, positionals } = parseCommandArgs(argv, FLAGS);
    if (values.help === true) {
      io.stdout.write(DELETE_USAGE);
      return;
    }
    const format = parseOutputFormat(values.output);
    const policy = parsePolicy(values.cascade);
    const timeoutMs = parseDuration('timeout', values.timeout);
    if (format !== 'text' && values.preview !== true) throw new UsageError('--output is only supported with --preview');
    const { entry, snapshot } = await loadTarget(client, positionals, values.namespace ?? defaults.namespace, (w) =>
      io.stderr.write(`Warning: ${w}\n`),
    );
    const preview = await previewDeletion(snapshot, entry, policy);
    if (values.preview === true) {
      writeDocument(io.stdout, format, preview, (doc) => renderPreview(doc, true));
      return;
    }
    const going: Entry[] = preview.deleted.map((d) => snapshot.byUid(d.object.uid) ?? entry);
    // The uid precondition makes sure the object deleted is the one previewed, not a namesake created since.
    await client.delete(resourceRefOf(entry.info), entry.ref.namespace, entry.ref.name, {
      propagationPolicy: policy,
      preconditions: { uid: entry.ref.uid },
    });
    const group = entry.info.group === '' ? '' : `.${entry.info.group}`;
    io.stdout.write(
      `${entry.info.singular}${group} "${entry.ref.name}" deleted (cascade=${policy.toLowerCase()}, ${going.length} object${going.length === 1 ? '' : 's'} to go)\n`,
    );
    const tty = io.stderr.isTTY === true;
    const remaining = await waitForObjectsGone(client, going, {
      timeoutMs,
      ...(wait.intervalMs === undefined ? {} : { intervalMs: wait.intervalMs }),
      onProgress: (left, total) => io.stderr.write(tty ? `\r${progressBar(left.length, total)}` : `${progressBar(left.length, total)}\n`),
    });
    if (tty) io.stderr.write('\n');
    if (remaining.length > 0) {
      const shown = remaining
        .slice(0, 5)
        .map((r) => describeRef(r, entry.ref.namespace))
        .join(', ');
      const more = remaining.length > 5 ? ` and ${remaining.length - 5} more` : '';
      throw new CommandFailure(
        `timed out after ${values.timeout} waiting for the cascade: ${remaining.length} object${remaining.length === 1 ? ' remains' : 's remain'} (${shown}${more}); see cascade explain`,
      );
    }
    const kept = preview.survivors.length;
    io.stdout.write(
      `cascade complete: ${going.length} object${going.length === 1 ? '' : 's'} deleted${kept > 0 ? `, ${kept} kept` : ''}\n`,
    );
  });
}
