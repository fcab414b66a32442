import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { waitFor } from '../../src/embed/index.js';
import type { TestServer } from './test-server.js';

/** A long-running kubectl (e.g. `get -w`) whose output is collected as it arrives. */
export interface KubectlProcess {
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches `pattern`; fails after `timeoutMs` with the output so far. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Kills the process and resolves when it has exited. */
  stop(): Promise<void>;
}

/** Starts kubectl against the test server with the same kubeconfig and discovery cache that `ts.kubectl` uses. */
export function startKubectl(ts: TestServer, args: readonly string[]): KubectlProcess {
  const dir = dirname(ts.kubeconfigPath);
  const env = { ...process.env, KUBECONFIG: ts.kubeconfigPath, KUBECACHEDIR: join(dir, 'cache'), HOME: dir };
  const child: ChildProcess = spawn('kubectl', [...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    stdout: () => out,
    stderr: () => err,
    async waitForStdout(pattern, timeoutMs = 5000) {
      await waitFor(() => (pattern.test(out) ? true : undefined), {
        timeoutMs,
        what: `kubectl ${args.join(' ')} to print ${pattern}\nstdout: ${out}\nstderr: ${err}`,
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
