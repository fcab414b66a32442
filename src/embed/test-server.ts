import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CustomResourceDefinition, conditionOf } from '../api/crd-types.js';
import { kubeconfigFor } from '../cli/kubeconfig.js';
import { createHttpClient, type HttpApiClient } from '../client/http-client.js';
import { createInProcessClient } from '../server/in-process-client.js';
import type { ApiClient, ResourceRef } from '../client/interface.js';
import { BUILTIN_DEFINITIONS } from '../kinds/definitions.js';
import { SYSTEM_MASTERS, type UserInfo } from '../api/user.js';
import type { ServingPki } from '../pki/serving-pki.js';
import { type ApiServer, type ApiServerLimits, type ApiServerOptions, startApiServer } from '../server/api-server.js';
import type { Backend } from '../storage/backend.js';
import { createMemoryBackend } from '../storage/memory/backend.js';
import { type CrdFromFile, readCrdFiles } from './crd-files.js';
import { waitFor } from './wait-for.js';
import { installWebhookConfigurations, type TestServerWebhooks, type WebhookServing, webhookServing } from './webhook-install.js';

export interface TestServerSecurity {
  /** Bearer tokens besides the admin token, and the users they authenticate as (RBAC then decides what they may do). */
  readonly tokens?: Readonly<Record<string, UserInfo>>;
  /** Let requests without credentials in as system:anonymous, as kube-apiserver's --anonymous-auth (default false). */
  readonly anonymous?: boolean;
}

export interface TestServerOptions {
  /** CRD manifests to install before the server is handed over: files, or directories of .yaml/.yml/.json files. */
  readonly crdPaths?: readonly string[];
  /**
   * Where objects are kept: 'memory' (default), 'sqlite' (a database in the server's temporary directory) or
   * 'etcd' (the etcd named by `etcd`, which you run).
   */
  readonly storage?: TestServerStorage;
  /**
   * The etcd of storage 'etcd': client URLs (https:// ones verified with `tls.ca`, and `tls.cert`/`tls.key` for
   * etcd's --client-cert-auth, PEM), a key prefix (default /registry) to let servers share one etcd, and the
   * client's deadline, keepalive and HTTP/2 implementation (see createEtcdBackend; short ones make tests quick).
   */
  readonly etcd?: TestServerEtcd;
  /** The in-process controllers, each on by default as in a real cluster, and their settings. */
  readonly controllers?: ApiServerOptions['controllers'];
  /**
   * Simulated nodes (`cascade serve --simulate-nodes`): this many kwok-style Nodes, the scheduler, simulated kubelets
   * and pod GC; 0 runs them for Nodes annotated `cascade.dev/simulated: "true"` only. Default: none of it.
   */
  readonly simulateNodes?: number;
  /** Address to listen on (default 127.0.0.1); the port is always picked free. */
  readonly host?: string;
  /**
   * Serve HTTPS with a generated CA and require authentication: the admin token (in the kubeconfig), `tokens`, or
   * client certificates of the CA. Default: plain HTTP, every request acting as the admin (system:masters).
   */
  readonly secure?: boolean | TestServerSecurity;
  /** In-flight and request-timeout limits, as kube-apiserver's flags of the same names. */
  readonly limits?: ApiServerLimits;
  /** How often a watch that asked for bookmarks gets a BOOKMARK (default 60 s, as kube-apiserver). */
  readonly bookmarkIntervalMs?: number;
  /** Availability re-check interval and probe timeout of aggregated APIs (default 30 s and 5 s, as Kubernetes). */
  readonly aggregator?: ApiServerOptions['aggregator'];
  /** An audit log (--audit-log-path and --audit-policy-file); none by default. */
  readonly audit?: ApiServerOptions['audit'];
  /**
   * A CA and serving certificate for the test's own admission webhook server (TestServer.webhookServing), and
   * webhook configurations installed pointing at it, as envtest's WebhookInstallOptions.
   */
  readonly webhooks?: TestServerWebhooks;
  /**
   * Archive removed objects and serve archivedobjects and Restores, with this retention (as `cascade serve
   * --archive-retention --archive-max-bytes`, which archives by default). Default: off.
   */
  readonly archive?: ApiServerOptions['archive'];
  /** How long a CRD conversion webhook call may take (default 30 s, as Kubernetes). */
  readonly conversionWebhookTimeoutMs?: number;
}

export type TestServerStorage = 'memory' | 'sqlite' | 'etcd';

export interface TestServerEtcd {
  readonly endpoints: readonly string[];
  readonly prefix?: string;
  readonly tls?: { readonly ca?: Buffer; readonly cert?: Buffer; readonly key?: Buffer };
  readonly callTimeoutMs?: number;
  readonly dialTimeoutMs?: number;
  readonly keepaliveTimeMs?: number;
  readonly keepaliveTimeoutMs?: number;
  readonly transport?: 'fast' | 'node-http2';
}

export interface TestServer {
  /** http://127.0.0.1:<port>, or https:// for a secure server. */
  readonly url: string;
  /** A kubeconfig for this server (YAML), as kubectl and @kubernetes/client-node read it. */
  readonly kubeconfig: string;
  /** The same kubeconfig on disk, in a temporary directory removed by stop(). */
  readonly kubeconfigPath: string;
  /** Calls the server's registry directly: same validation, admission and errors as HTTP, without a socket. */
  readonly client: ApiClient;
  /** An ApiClient over HTTP to this server, as the admin (one per server, closed by stop()). */
  httpClient(): HttpApiClient;
  /** PEM of the generated CA that signed the serving certificate (secure servers only). */
  readonly caCert: string | undefined;
  /** The admin's bearer token, the one in the kubeconfig (secure servers only). */
  readonly adminToken: string | undefined;
  /** Where the test's webhook server listens and the certificate it serves (with the `webhooks` option only). */
  readonly webhookServing: WebhookServing | undefined;
  /** Stops the controllers and the server, closes clients and removes the temporary directory. */
  stop(): Promise<void>;
}

/**
 * What Cascade's own suites reach besides the public handle: the server's internals and the whole generated PKI
 * (CA key included, to issue client certificates). Not exported from the package.
 */
export interface TestServerInternals {
  readonly testServer: TestServer;
  readonly apiServer: ApiServer;
  readonly pki: ServingPki | undefined;
}

const CRDS: ResourceRef = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };
const CRD_READY_TIMEOUT_MS = 10_000;
const STORAGE_BACKENDS: readonly string[] = ['memory', 'sqlite', 'etcd'];
const ADMIN: UserInfo = { name: 'cascade-admin', groups: [SYSTEM_MASTERS] };

async function installCrds(server: ApiServer, client: ApiClient, crds: readonly CrdFromFile[]): Promise<void> {
  for (const { path, crd } of crds) {
    try {
      await client.create(CRDS, undefined, crd);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new Error(`installing CustomResourceDefinition ${crd.metadata?.name ?? '(unnamed)'} from ${path}: ${message}`, { cause: err });
    }
  }
  await Promise.all(crds.map(({ path, crd }) => awaitServed(server, client, crd as CustomResourceDefinition, path)));
}

/** Established, and every served version answering requests: what envtest waits for before a test starts. */
async function awaitServed(server: ApiServer, client: ApiClient, crd: CustomResourceDefinition, path: string): Promise<void> {
  const name = crd.metadata.name ?? '';
  let last: CustomResourceDefinition | undefined;
  try {
    await waitFor(
      async () => {
        last = (await client.get(CRDS, undefined, name)) as CustomResourceDefinition;
        if (conditionOf(last, 'Established')?.status !== 'True') return false;
        const plural = last.status?.acceptedNames?.plural ?? crd.spec.names.plural;
        return crd.spec.versions.filter((v) => v.served).every((v) => server.registry.lookup(crd.spec.group, v.name, plural) !== undefined);
      },
      { timeoutMs: CRD_READY_TIMEOUT_MS, intervalMs: 2, what: `CustomResourceDefinition ${name} to be established` },
    );
  } catch (err) {
    const conditions = (last?.status?.conditions ?? []).map(
      (c) => `${c.type}=${c.status}${c.message === undefined ? '' : ` (${c.message})`}`,
    );
    const state = conditions.length === 0 ? 'no conditions yet' : conditions.join(', ');
    throw new Error(`CustomResourceDefinition ${name} from ${path} was not served within ${CRD_READY_TIMEOUT_MS} ms: ${state}`, {
      cause: err,
    });
  }
}

/**
 * The storage asked for. SQLite and etcd are loaded only when chosen: most embedders use memory, and the native
 * SQLite binding and the etcd client would add to every server's start.
 */
async function backendFor(options: TestServerOptions, dir: string): Promise<Backend> {
  const storage = options.storage ?? 'memory';
  if (!STORAGE_BACKENDS.includes(storage)) throw new Error(`storage must be one of ${STORAGE_BACKENDS.join(', ')}, got ${String(storage)}`);
  if ((storage === 'etcd') !== (options.etcd !== undefined)) throw new Error("etcd endpoints go with storage 'etcd', and only with it");
  if (storage === 'etcd') {
    const { createEtcdBackend } = await import('../storage/etcd/backend.js');
    const etcd = options.etcd as TestServerEtcd;
    if (etcd.tls !== undefined) {
      const { checkTlsMaterial } = await import('../storage/etcd/tls-material.js');
      checkTlsMaterial(etcd.tls, { ca: 'etcd.tls.ca', cert: 'etcd.tls.cert', key: 'etcd.tls.key' });
    }
    return createEtcdBackend({ ...etcd, endpoints: [...etcd.endpoints] });
  }
  if (storage === 'sqlite') return (await import('../storage/sqlite/backend.js')).createSqliteBackend({ path: join(dir, 'cascade.db') });
  return createMemoryBackend();
}

/**
 * Starts a Cascade API server in this process on a free loopback port, with the garbage collector and namespace
 * controller running, and resolves once it serves requests and every CRD from `crdPaths` is established.
 * Servers are independent: run as many side by side as the tests need.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  return (await startTestServerWithInternals(options)).testServer;
}

/** startTestServer, also handing over what only Cascade's own suites use (see TestServerInternals). */
export async function startTestServerWithInternals(options: TestServerOptions = {}): Promise<TestServerInternals> {
  // Read the CRDs first: a wrong path fails before anything is started.
  const crds = await readCrdFiles(options.crdPaths ?? []);
  const dir = await mkdtemp(join(tmpdir(), 'cascade-embed-'));
  let backend: Backend | undefined;
  let server: ApiServer | undefined;
  let http: HttpApiClient | undefined;
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      http?.close();
      // The server closes its backend; one that never got a server is closed here.
      await (server ?? backend)?.close();
      await rm(dir, { recursive: true, force: true });
    })();
    return stopped;
  };
  try {
    backend = await backendFor(options, dir);
    const secure = options.secure === true ? {} : options.secure === false ? undefined : options.secure;
    // Loaded on demand, as `cascade serve` does: the DER libraries are start-up time a plain-HTTP server does not need.
    const pki =
      secure === undefined ? undefined : (await import('../pki/serving-pki.js')).loadOrCreateServingPki(dir, [options.host ?? '127.0.0.1']);
    const adminToken = secure === undefined ? undefined : await (await import('../cli/admin-token.js')).loadOrCreateAdminToken(dir);
    const tokens = new Map<string, UserInfo>(Object.entries(secure?.tokens ?? {}));
    if (adminToken !== undefined) tokens.set(adminToken, ADMIN);
    server = await startApiServer({
      backend,
      host: options.host,
      port: 0,
      bookmarkIntervalMs: options.bookmarkIntervalMs,
      controllers:
        options.simulateNodes === undefined ? options.controllers : { ...options.controllers, simulateNodes: options.simulateNodes },
      limits: options.limits,
      aggregator: options.aggregator,
      archive: options.archive,
      conversionWebhookTimeoutMs: options.conversionWebhookTimeoutMs,
      audit: options.audit,
      security:
        pki === undefined
          ? undefined
          : {
              tls: { cert: pki.serverCert, key: pki.serverKey, clientCa: pki.caCert },
              signingCa: { cert: pki.caCert, key: pki.caKey },
              tokens,
              anonymous: secure?.anonymous,
              frontProxy: { cert: pki.frontProxyClientCert, key: pki.frontProxyClientKey },
            },
    });
    const url = server.url;
    const kubeconfig = kubeconfigFor(url, { caCert: pki?.caCert, token: adminToken });
    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });
    const client = createInProcessClient(server.registry, BUILTIN_DEFINITIONS);
    if (crds.length > 0) await installCrds(server, client, crds);
    const webhooks = options.webhooks === undefined ? undefined : await webhookServing(options.webhooks);
    if (webhooks !== undefined) await installWebhookConfigurations(server, client, options.webhooks?.configurations ?? [], webhooks);
    const testServer: TestServer = {
      url,
      kubeconfig,
      kubeconfigPath,
      client,
      httpClient() {
        if (stopped !== undefined) throw new Error('the test server has been stopped');
        http ??= createHttpClient({ server: url, ca: pki?.caCert, token: adminToken });
        return http;
      },
      caCert: pki?.caCert,
      adminToken,
      webhookServing: webhooks,
      stop,
    };
    return { testServer, apiServer: server, pki };
  } catch (err) {
    await stop();
    throw err;
  }
}
