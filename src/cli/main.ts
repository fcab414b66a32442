#!/usr/bin/env node
import { CONNECTION_FLAGS_HELP, isToolCommand, runToolCommandFromKubeconfig, TOOL_COMMANDS_HELP } from './tool-commands.js';
import { SERVE_USAGE, serve } from './serve.js';
import { formatError, UsageError } from '../tools/command-io.js';
import { startUiCommand } from './ui.js';
import { versionLine } from './version.js';

const USAGE = `Cascade: a Kubernetes-compatible API server focused on the object lifecycle.

Usage: cascade <command> [flags]

Commands:
  serve    start the API server and write a kubeconfig for it
  ui       serve the web UI (ownership graph, explain, delete preview) on loopback
  version  print Cascade's version and the Kubernetes version it serves (also --version)
${TOOL_COMMANDS_HELP}
Run "cascade <command> --help" for a command's flags.

${SERVE_USAGE}
${CONNECTION_FLAGS_HELP}`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (isToolCommand(command)) {
    process.exitCode = await runToolCommandFromKubeconfig(command ?? '', rest, { stdout: process.stdout, stderr: process.stderr });
    return;
  }
  switch (command) {
    case 'serve':
      await serve(rest);
      return;
    case 'ui':
      await ui(rest);
      return;
    case '--version':
    case 'version':
      process.stdout.write(versionLine());
      return;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return;
    default:
      process.stderr.write(`cascade: unknown command "${command}"\n\n${USAGE}`);
      process.exitCode = 2;
  }
}

async function ui(argv: string[]): Promise<void> {
  try {
    const server = await startUiCommand(argv, { stdout: process.stdout, stderr: process.stderr });
    if (server === undefined) return;
    const stop = (): void => {
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (err) {
    process.stderr.write(`${formatError(err)}\n`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`cascade: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
