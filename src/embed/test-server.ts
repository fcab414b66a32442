import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CustomResourceDefinition, conditionOf } from '../api/crd-types.js';
import { kubeconfigFor } from '../cli/kubeconfig.js';
import { createHttpClient, type HttpApiClient } from '../client/http-client.js';
import { createInProcessClient } from '../server/in-process-client.js';
import type { ApiClient, ResourceRef } from '../client/interface.js';
import { BUILTIN_DEFINITIONS } from '../kinds/definitions.js';
import { type ApiServer, startApiServer } from '../server/api-server.js';
import { createMemoryBackend } from '../storage/memory/backend.js';
import { type CrdFromFile, readCrdFiles } from './crd-files.js';
import { waitFor } from './wait-for.js';

export interface TestServerOptions {
  /** CRD manifests to install before the server is handed over: files, or directories of .yaml/.yml/.json files. */
  readonly crdPaths?: readonly string[];
  /** Only 'memory' today. */
  readonly storage?: 'memory';
  /** The in-process controllers; both run by default, as in a real cluster. */
  readonly controllers?: { readonly garbageCollector?: boolean; readonly namespaceController?: boolean };
  /** Address to listen on (default 127.0.0.1); the port is always picked free. */
  readonly host?: string;
}

export interface TestServer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** A kubeconfig for this server (YAML), as kubectl and @kubernetes/client-node read it. */
  readonly kubeconfig: string;
  /** The same kubeconfig on disk, in a temporary directory removed by stop(). */
  readonly kubeconfigPath: string;
  /** Calls the server's registry directly: same validation, admission and errors as HTTP, without a socket. */
  readonly client: ApiClient;
  /** An ApiClient over HTTP to this server (one per server, closed by stop()). */
  httpClient(): HttpApiClient;
  /** Stops the controllers and the server, closes clients and removes the temporary directory. */
  stop(): Promise<void>;
}

const CRDS: ResourceRef = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };
const CRD_READY_TIMEOUT_MS = 10_000;
const STORAGE_BACKENDS: readonly string[] = ['memory'];

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
 * Starts a Cascade API server in this process on a free loopback port, with the garbage collector and namespace
 * controller running, and resolves once it serves requests and every CRD from `crdPaths` is established.
 * Servers are independent: run as many side by side as the tests need.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const storage = options.storage ?? 'memory';
  if (!STORAGE_BACKENDS.includes(storage)) throw new Error(`storage must be one of ${STORAGE_BACKENDS.join(', ')}, got ${String(storage)}`);
  // Read the CRDs first: a wrong path fails before anything is started.
  const crds = await readCrdFiles(options.crdPaths ?? []);
  const server = await startApiServer({
    backend: createMemoryBackend(),
    host: options.host,
    port: 0,
    controllers: { garbageCollector: options.controllers?.garbageCollector, namespaceController: options.controllers?.namespaceController },
  });
  let dir: string | undefined;
  let http: HttpApiClient | undefined;
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      http?.close();
      await server.close();
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    })();
    return stopped;
  };
  try {
    dir = await mkdtemp(join(tmpdir(), 'cascade-embed-'));
    const kubeconfig = kubeconfigFor(server.url);
    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });
    const client = createInProcessClient(server.registry, BUILTIN_DEFINITIONS);
    if (crds.length > 0) await installCrds(server, client, crds);
    return {
      url: server.url,
      kubeconfig,
      kubeconfigPath,
      client,
      httpClient() {
        if (stopped !== undefined) throw new Error('the test server has been stopped');
        http ??= createHttpClient({ server: server.url });
        return http;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
