#!/usr/bin/env node
import { SERVE_USAGE, serve } from './serve.js';

const USAGE = `Cascade: a Kubernetes-compatible API server focused on the object lifecycle.

Usage: cascade <command> [flags]

Commands:
  serve    start the API server and write a kubeconfig for it

${SERVE_USAGE}`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      await serve(rest);
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

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`cascade: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
