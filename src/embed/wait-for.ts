export interface WaitForOptions {
  /** Give up after this long (default 5000 ms). */
  readonly timeoutMs?: number;
  /** Pause between checks (default 10 ms). */
  readonly intervalMs?: number;
  /** Named in the timeout error: "timed out after 5000 ms waiting for <what>". */
  readonly what?: string;
}

/**
 * Polls `check` until it returns something other than undefined or false, and resolves with that value. A check
 * that throws counts as not yet; on timeout the last thrown error is included in the rejection.
 */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: WaitForOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const intervalMs = options.intervalMs ?? 10;
  const deadline = performance.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (performance.now() >= deadline) {
      const cause = lastError === undefined ? '' : `: ${lastError instanceof Error ? lastError.message : String(lastError)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${options.what ?? 'the condition'}${cause}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
