import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeKubeconfig } from '../../src/cli/kubeconfig.js';
import { type ApiServer, type ApiServerOptions, startApiServer } from '../../src/server/api-server.js';
import { createMemoryBackend } from '../../src/storage/memory/backend.js';
import { createSqliteBackend } from '../../src/storage/sqlite/backend.js';
import { createEtcdBackend } from '../../src/storage/etcd/backend.js';
import { startEtcd } from './etcd-server.js';

export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface TestServer {
  readonly server: ApiServer;
  readonly url: string;
  readonly kubeconfigPath: string;
  /** Runs the real kubectl against this server (asynchronously, so the in-process server keeps serving). */
  kubectl(args: readonly string[], options?: { input?: string; timeoutMs?: number }): Promise<KubectlResult>;
  /** Like kubectl, but throws with the output when the exit code is not 0. */
  kubectlOk(args: readonly string[], options?: { input?: string }): Promise<string>;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; json: any; text: string }>;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  /** Which in-process controllers run; the deletion state machine suites turn the garbage collector off (R2.30). */
  readonly controllers?: ApiServerOptions['controllers'];
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'cascade-test-'));
  // CASCADE_TEST_STORAGE=sqlite|etcd runs the same suites on a durable backend (issue 7: every suite on every backend).
  const storage = process.env.CASCADE_TEST_STORAGE;
  const etcd = storage === 'etcd' ? await startEtcd() : undefined;
  const backend =
    etcd !== undefined
      ? createEtcdBackend({ endpoints: [etcd.endpoint] })
      : storage === 'sqlite'
        ? createSqliteBackend({ path: join(dir, 'cascade.db') })
        : createMemoryBackend();
  const server = await startApiServer({ backend, port: 0, bookmarkIntervalMs: 200, controllers: options.controllers });
  const kubeconfigPath = join(dir, 'kubeconfig');
  await writeKubeconfig(kubeconfigPath, server.url);
  // Each server gets its own discovery cache: ports are reused between test servers.
  const env = { ...process.env, KUBECONFIG: kubeconfigPath, KUBECACHEDIR: join(dir, 'cache'), HOME: dir };
  const kubectl = (args: readonly string[], options: { input?: string; timeoutMs?: number } = {}): Promise<KubectlResult> =>
    new Promise((resolve) => {
      const child = execFile('kubectl', [...args], { env, timeout: options.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1;
        resolve({ code, stdout, stderr });
      });
      if (options.input !== undefined) child.stdin?.end(options.input);
      else child.stdin?.end();
    });
  return {
    server,
    url: server.url,
    kubeconfigPath,
    kubectl,
    async kubectlOk(args, options) {
      const r = await kubectl(args, options);
      if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
      return r.stdout;
    },
    async request(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' || body instanceof Uint8Array ? (body as string) : JSON.stringify(body);
        (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
      }
      const res = await fetch(`${server.url}${path}`, init);
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, json, text };
    },
    async stop() {
      await server.close();
      await etcd?.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
