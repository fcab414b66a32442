import { type ParseArgsConfig, parseArgs } from 'node:util';
import { StatusError } from '../api/errors.js';

/** Where a command writes: process streams in the CLI, buffers in tests. */
export interface OutputStream {
  write(chunk: string): unknown;
  /** A terminal gets a redrawn progress bar; anything else gets one line per change. */
  readonly isTTY?: boolean;
}

export interface CommandIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
}

/** Bad flags or arguments: exit code 2, as for kubectl's usage errors. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A command's flags and positional arguments; anything parseArgs refuses is a UsageError (exit code 2). */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/** A command that ran but did not reach its goal (e.g. a cascade that timed out): exit code 1. */
export class CommandFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandFailure';
  }
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

function connectionErrorCode(err: unknown): string | undefined {
  for (let current: unknown = err, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return code;
  }
  return undefined;
}

/** One line for stderr, in kubectl's wording where kubectl has one. */
export function formatError(err: unknown): string {
  if (err instanceof StatusError) return `Error from server (${err.reason}): ${err.message}`;
  // A bare socket error says nothing about what it was for; a client's wrapped error already names the server.
  if (err instanceof Error && connectionErrorCode(err) !== undefined && (err as { code?: unknown }).code !== undefined)
    return `error: unable to connect to the server: ${err.message}`;
  const message = err instanceof Error ? err.message : String(err);
  return `error: ${message.split('\n')[0] ?? message}`;
}

/** Runs a command body; any failure becomes one line on stderr and the exit code (2 for usage errors, else 1). */
export async function runCommand(io: CommandIo, body: () => Promise<void>): Promise<number> {
  try {
    await body();
    return 0;
  } catch (err) {
    io.stderr.write(`${formatError(err)}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}
