import { type ChildProcess, spawn } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';

/** The status of GET url; the certificate is not checked: only readiness is measured. */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const get = url.startsWith('https:') ? httpsGet : httpGet;
    const req = get(url, { rejectUnauthorized: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
}

export interface StartedProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Milliseconds from spawn until /readyz answered 200. */
  readonly readyMs: number;
  stop(): Promise<void>;
}

/** Spawns a server process, reads the http(s) URL it prints, and polls /readyz until it answers 200. */
export async function startProcess(args: readonly string[], urlTimeoutMs = 10_000): Promise<StartedProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, [...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL printed by ${args.join(' ')}`)), urlTimeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(https?:\/\/[0-9.]+:\d+)/.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
  for (;;) {
    try {
      if ((await statusOf(`${url}/readyz`)) === 200) break;
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
