import type { ApiClient } from '../client/interface.js';
import { createHttpClient } from '../client/http-client.js';
import { loadKubeconfig } from '../client/kubeconfig.js';
import { DELETE_USAGE, deleteCommand } from './commands/delete.js';
import { EXPLAIN_USAGE, explainCommand, type ToolDefaults } from './commands/explain.js';
import { TREE_USAGE, treeCommand } from './commands/tree.js';
import { ARCHIVE_USAGE, archiveCommand } from './commands/archive.js';
import { RESTORE_USAGE, restoreCommand } from './commands/restore.js';
import { type CommandIo, formatError, UsageError } from '../tools/command-io.js';

type ToolCommand = (client: ApiClient, argv: readonly string[], io: CommandIo, defaults?: ToolDefaults) => Promise<number>;

const COMMANDS: Readonly<Record<string, { readonly run: ToolCommand; readonly usage: string }>> = {
  explain: { run: explainCommand, usage: EXPLAIN_USAGE },
  tree: { run: treeCommand, usage: TREE_USAGE },
  delete: { run: deleteCommand, usage: DELETE_USAGE },
  restore: { run: restoreCommand, usage: RESTORE_USAGE },
  archive: { run: archiveCommand, usage: ARCHIVE_USAGE },
};

export const TOOL_COMMANDS_HELP = `  explain  say why an object or namespace is not going away
  tree     show the ownership tree below (or above, --owners) an object
  delete   delete with a cascade, or --preview what the garbage collector would delete and keep
  restore  recreate an archived object (and --with-dependents what its removal took with it)
  archive  list the archived objects that can be restored
`;

export const CONNECTION_FLAGS_HELP = `Connection flags (all tool commands):
      --kubeconfig string   kubeconfig file (default $KUBECONFIG, else ~/.kube/config)
      --context string      kubeconfig context (default its current-context)
`;

export function isToolCommand(name: string | undefined): boolean {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}

/** Runs a tool command against any ApiClient (what the CLI does after connecting; tests use the in-process one). */
export async function runToolCommandWithClient(
  name: string,
  client: ApiClient,
  argv: readonly string[],
  io: CommandIo,
  defaults?: ToolDefaults,
): Promise<number> {
  const command = COMMANDS[name];
  if (command === undefined) throw new UsageError(`unknown command "${name}"`);
  return command.run(client, argv, io, defaults);
}

interface ConnectionFlags {
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly rest: string[];
}

/** Takes kubectl's --kubeconfig and --context out of the arguments (they name the connection, not the command). */
export function splitConnectionFlags(argv: readonly string[]): ConnectionFlags {
  const rest: string[] = [];
  const found: { kubeconfig?: string; context?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const flag = ['kubeconfig', 'context'].find((f) => arg === `--${f}` || arg.startsWith(`--${f}=`)) as
      | 'kubeconfig'
      | 'context'
      | undefined;
    if (flag === undefined) {
      rest.push(arg);
      continue;
    }
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
    if (value === undefined || value === '') throw new UsageError(`flag needs an argument: --${flag}`);
    found[flag] = value;
  }
  return { ...found, rest };
}

/** The CLI path: connect through the kubeconfig kubectl would use, run the command, close the connection. */
export async function runToolCommandFromKubeconfig(name: string, argv: readonly string[], io: CommandIo): Promise<number> {
  const command = COMMANDS[name];
  if (command === undefined) {
    io.stderr.write(`error: unknown command "${name}"\n`);
    return 2;
  }
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout.write(`${command.usage}\n${CONNECTION_FLAGS_HELP}`);
    return 0;
  }
  let flags: ConnectionFlags;
  let client: ReturnType<typeof createHttpClient>;
  let namespace: string;
  try {
    flags = splitConnectionFlags(argv);
    const selection = await loadKubeconfig({
      ...(flags.kubeconfig === undefined ? {} : { path: flags.kubeconfig }),
      ...(flags.context === undefined ? {} : { context: flags.context }),
    });
    client = createHttpClient({ ...selection.connection, userAgent: `cascade-${name}` });
    namespace = selection.namespace;
  } catch (err) {
    io.stderr.write(`${formatError(err)}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
  try {
    return await command.run(client, flags.rest, io, { namespace });
  } finally {
    client.close();
  }
}
