#!/usr/bin/env node
import { CONNECTION_FLAGS_HELP, isToolCommand, runToolCommandFromKubeconfig, TOOL_COMMANDS_HELP } from './tool-commands.js';

/** kubectl finds plugins by executable name: `kubectl cascade explain …` runs `kubectl-cascade explain …`. */
const USAGE = `Cascade's deletion tools as a kubectl plugin.

Usage: kubectl cascade <command> TYPE/NAME [flags]

Commands:
${TOOL_COMMANDS_HELP}
Run "kubectl cascade <command> --help" for a command's flags.

${CONNECTION_FLAGS_HELP}`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (isToolCommand(command)) {
    process.exitCode = await runToolCommandFromKubeconfig(command ?? '', rest, { stdout: process.stdout, stderr: process.stderr });
    return;
  }
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  process.stderr.write(`error: unknown command "${command}" for "kubectl cascade"\n\n${USAGE}`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
