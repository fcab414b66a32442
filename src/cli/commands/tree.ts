import type { ApiClient } from '../../client/interface.js';
import { type CommandIo, parseCommandArgs, runCommand } from '../../tools/command-io.js';
import { parseOutputFormat, writeDocument } from '../../tools/output-format.js';
import { renderTree } from '../../tools/render-tree.js';
import { loadTarget } from '../../tools/target.js';
import { buildTree } from '../../tools/tree.js';
import type { ToolDefaults } from './explain.js';

export const TREE_USAGE = `Usage: cascade tree TYPE/NAME [--owners] [-n NAMESPACE] [-o json|yaml]

Shows the ownership tree below an object (or, with --owners, above it) across every resource type the
server serves, cluster-scoped owners and custom resources included, with each node's deletion state.

Flags:
      --owners             show the owners of the object, recursively, instead of its dependents
  -n, --namespace string   namespace of the object (default: the kubeconfig context's, else "default")
  -o, --output string      json or yaml for machines (default: a tree for people)
`;

const FLAGS = {
  namespace: { type: 'string', short: 'n' },
  output: { type: 'string', short: 'o' },
  owners: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `cascade tree`: returns the exit code. */
export async function treeCommand(
  client: ApiClient,
  argv: readonly string[],
  io: CommandIo,
  defaults: ToolDefaults = { namespace: 'default' },
): Promise<number> {
  return runCommand(io, async () => {
    const { values, positionals } = parseCommandArgs(argv, FLAGS);
    if (values.help === true) {
      io.stdout.write(TREE_USAGE);
      return;
    }
    const format = parseOutputFormat(values.output);
    const { entry, snapshot } = await loadTarget(client, positionals, values.namespace ?? defaults.namespace, (w) =>
      io.stderr.write(`Warning: ${w}\n`),
    );
    writeDocument(io.stdout, format, await buildTree(snapshot, entry, values.owners === true ? 'owners' : 'dependents'), renderTree);
  });
}
