import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { dirname, join } from 'node:path';
import {
  type TestServer as EmbeddedTestServer,
  type TestServerOptions as EmbeddedTestServerOptions,
  type TestServerInternals,
  startTestServerWithInternals,
} from '../../src/embed/test-server.js';
import type { ServingPki } from '../../src/pki/serving-pki.js';
import type { ApiServer } from '../../src/server/api-server.js';
import { startEtcd } from './etcd-server.js';

export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The package's test server (src/embed, what users embed) plus what the e2e suites drive it with: the real kubectl,
 * raw HTTP requests and the server's internals.
 */
export interface TestServer extends EmbeddedTestServer {
  readonly server: ApiServer;
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
  /** The whole generated PKI of a secure server (CA key included, to issue client certificates). */
  readonly pki: ServingPki | undefined;
}

/**
 * The package's options but storage, which CASCADE_TEST_STORAGE picks for the whole run, unless `etcd` names the
 * etcd (a cluster the test runs, say) to use instead.
 */
export type TestServerOptions = Omit<EmbeddedTestServerOptions, 'storage'>;

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  // CASCADE_TEST_STORAGE=sqlite|etcd runs the same suites on a durable backend (issue 7: every suite on every backend).
  const storage = process.env.CASCADE_TEST_STORAGE;
  const etcd = storage === 'etcd' && options.etcd === undefined ? await startEtcd() : undefined;
  let started: TestServerInternals;
  try {
    started = await startTestServerWithInternals({
      ...options,
      // Short, so suites see bookmarks quickly; the package's default is kube-apiserver's minute.
      bookmarkIntervalMs: options.bookmarkIntervalMs ?? 200,
      storage: etcd !== undefined || options.etcd !== undefined ? 'etcd' : storage === 'sqlite' ? 'sqlite' : 'memory',
      etcd: options.etcd ?? (etcd === undefined ? undefined : { endpoints: [etcd.endpoint] }),
    });
  } catch (err) {
    await etcd?.stop();
    throw err;
  }
  const { testServer, apiServer: server, pki } = started;
  const { adminToken, kubeconfigPath } = testServer;
  const dir = dirname(kubeconfigPath);
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
    ...testServer,
    server,
    kubectl,
    async kubectlOk(args, options) {
      const r = await kubectl(args, options);
      if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
      return r.stdout;
    },
    pki,
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
      await testServer.stop();
      await etcd?.stop();
    },
  };
}

/**
 * For suites that build Deployment → ReplicaSet → Pod chains by hand to exercise the server or the garbage
 * collector: with the workload controllers on, their ReplicaSets would grow pods of their own (a real cluster's
 * behaviour, which those suites do not test).
 */
export const WITHOUT_WORKLOAD_CONTROLLERS = {
  replicaSetController: false,
  replicationController: false,
  deploymentController: false,
} as const;
