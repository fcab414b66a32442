import type { ApiClient } from '../../client/interface.js';
import { type CommandIo, parseCommandArgs, runCommand } from '../../tools/command-io.js';
import { explain } from '../../tools/explain.js';
import { parseOutputFormat, writeDocument } from '../../tools/output-format.js';
import { renderExplanation } from '../../tools/render-explain.js';
import { loadTarget } from '../../tools/target.js';

export const EXPLAIN_USAGE = `Usage: cascade explain TYPE/NAME [-n NAMESPACE] [-o json|yaml]

Says why an object or namespace is not going away: each finalizer and the component expected to remove it,
the blocking dependents a foreground deletion waits for (recursively), a namespace's remaining content,
unavailable aggregated APIs and invalid owner references. Exits 0 when the object is not being deleted.

Flags:
  -n, --namespace string   namespace of the object (default: the kubeconfig context's, else "default")
  -o, --output string      json or yaml for machines (default: a report for people)
`;

/** Defaults the CLI derives from the kubeconfig. */
export interface ToolDefaults {
  readonly namespace: string;
}

const FLAGS = {
  namespace: { type: 'string', short: 'n' },
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `cascade explain`: returns the exit code; writes the report to stdout and any failure as one line to stderr. */
export async function explainCommand(
  client: ApiClient,
  argv: readonly string[],
  io: CommandIo,
  defaults: ToolDefaults = { namespace: 'default' },
): Promise<number> {
  return runCommand(io, async () => {
    const { values, positionals } = parseCommandArgs(argv, FLAGS);
    if (values.help === true) {
      io.stdout.write(EXPLAIN_USAGE);
      return;
    }
    const format = parseOutputFormat(values.output);
    const { entry, snapshot } = await loadTarget(client, positionals, values.namespace ?? defaults.namespace, (w) =>
      io.stderr.write(`Warning: ${w}\n`),
    );
    writeDocument(io.stdout, format, await explain(snapshot, entry), renderExplanation);
  });
}
