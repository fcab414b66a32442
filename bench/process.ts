import { type ChildProcess, spawn } from 'node:child_process';

export interface StartedProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Milliseconds from spawn until /readyz answered 200. */
  readonly readyMs: number;
  stop(): Promise<void>;
}

/** Spawns a server process, reads the http URL it prints, and polls /readyz until it answers 200. */
export async function startProcess(args: readonly string[]): Promise<StartedProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, [...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL printed by ${args.join(' ')}`)), 10_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/[0-9.]+:\d+)/.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
  for (;;) {
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
  }
  const readyMs = performance.now() - started;
  return {
    child,
    url,
    readyMs,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
