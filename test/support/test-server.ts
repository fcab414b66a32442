import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateAdminToken } from '../../src/cli/admin-token.js';
import { writeKubeconfig } from '../../src/cli/kubeconfig.js';
import { SYSTEM_MASTERS, type UserInfo } from '../../src/api/user.js';
import { loadOrCreateServingPki, type ServingPki } from '../../src/pki/serving-pki.js';
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
  /**
   * One HTTP request, its path sent as given. On a secure server it carries the admin token unless `headers` has its own Authorization
   * (an empty one sends none).
   */
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; json: any; text: string }>;
  /** The generated CA, keys and admin token of a secure server. */
  readonly pki: ServingPki | undefined;
  readonly adminToken: string | undefined;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  /** Which in-process controllers run; the deletion state machine suites turn the garbage collector off (R2.30). */
  readonly controllers?: ApiServerOptions['controllers'];
  /** Serve HTTPS with generated certificates, the admin token and these extra bearer tokens (default: plain HTTP). */
  readonly secure?: { readonly tokens?: Readonly<Record<string, UserInfo>>; readonly anonymous?: boolean };
  readonly limits?: ApiServerOptions['limits'];
  readonly aggregator?: ApiServerOptions['aggregator'];
  /** Periodic BOOKMARK interval on watches (default 200 ms, so suites see bookmarks quickly; the CLI's is a minute). */
  readonly bookmarkIntervalMs?: number;
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
  const pki = options.secure === undefined ? undefined : loadOrCreateServingPki(dir, ['127.0.0.1']);
  const adminToken = options.secure === undefined ? undefined : await loadOrCreateAdminToken(dir);
  const tokens = new Map<string, UserInfo>(Object.entries(options.secure?.tokens ?? {}));
  if (adminToken !== undefined) tokens.set(adminToken, { name: 'cascade-admin', groups: [SYSTEM_MASTERS] });
  const server = await startApiServer({
    backend,
    port: 0,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 200,
    controllers: options.controllers,
    limits: options.limits,
    aggregator: options.aggregator,
    security:
      pki === undefined
        ? undefined
        : {
            tls: { cert: pki.serverCert, key: pki.serverKey, clientCa: pki.caCert },
            tokens,
            anonymous: options.secure?.anonymous,
            frontProxy: { cert: pki.frontProxyClientCert, key: pki.frontProxyClientKey },
          },
  });
  const kubeconfigPath = join(dir, 'kubeconfig');
  await writeKubeconfig(kubeconfigPath, server.url, { caCert: pki?.caCert, token: adminToken });
  // Each server gets its own discovery cache: ports are reused between test servers.
  const env = { ...process.env, KUBECONFIG: kubeconfigPath, KUBECACHEDIR: join(dir, 'cache'), HOME: dir };
  const kubectl = (args: readonly string[], options: { input?: string; timeoutMs?: number } = {}): Promise<KubectlResult> =>
    new Promise((resolve) => {
      const child = execFile(
        'kubectl',
        [...args],
        { env, timeout: options.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024 },
        (err, stdout, stderr) => {
          const code = err === null ? 0 : typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1;
          resolve({ code, stdout, stderr });
        },
      );
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
    pki,
    adminToken,
    request(method, path, body, headers = {}) {
      const sent: Record<string, string> = { ...headers };
      if (adminToken !== undefined && sent.Authorization === undefined) sent.Authorization = `Bearer ${adminToken}`;
      if (sent.Authorization === '') delete sent.Authorization;
      let payload: string | Uint8Array | undefined;
      if (body !== undefined) {
        payload = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
        sent['Content-Type'] ??= 'application/json';
        // node:http does not chunk DELETE bodies: without a length the server would read none.
        sent['Content-Length'] = String(Buffer.byteLength(payload));
      }
      return new Promise((resolve, reject) => {
        // The path goes out byte for byte: `new URL` would resolve "." and ".." segments first.
        const base = new URL(server.url);
        const send = pki === undefined ? httpRequest : httpsRequest;
        const target = { host: base.hostname, port: base.port, path, method, headers: sent, ca: pki?.caCert };
        const req = send(target, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, v);
            }
            resolve({ status: res.statusCode ?? 0, headers: responseHeaders, json, text });
          });
        });
        req.on('error', reject);
        req.end(payload);
      });
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
