import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { namespaceLifecycle } from '../admission/namespace-lifecycle.js';
import type { ResourceInfo } from '../api/resource-info.js';
import { BUILTIN_DEFINITIONS } from '../openapi/definitions/index.js';
import { BUILTIN_RESOURCES } from '../registry/builtin-resources.js';
import { Registry } from '../registry/registry.js';
import type { Backend } from '../storage/backend.js';
import type { ApiContext } from './api-context.js';
import { createApiHandler } from './app.js';
import { ensureSystemNamespaces } from './bootstrap.js';
import { CrdController } from '../apiextensions/crd-controller.js';
import { createInProcessClient } from '../client/in-process.js';
import { ControllerManager, type ControllerManagerOptions } from '../controllers/manager.js';

export interface ApiServerOptions {
  readonly backend: Backend;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly resources?: readonly ResourceInfo[];
  readonly clock?: () => Date;
  readonly bookmarkIntervalMs?: number;
  readonly minRequestTimeoutSeconds?: number;
  /** Controllers to run in the server process (kube-controller-manager's role); all on by default. */
  readonly controllers?: Omit<ControllerManagerOptions, 'client' | 'log'>;
}

export interface ApiServer {
  readonly url: string;
  readonly port: number;
  readonly registry: Registry;
  readonly controllers: ControllerManager;
  /** Stops accepting requests, ends open watches and closes the storage backend. */
  close(): Promise<void>;
}

/** The composition root: storage backend → registry (+ admission) → HTTP API. */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const shutdown = new AbortController();
  let registryRef: Registry | undefined;
  const registry = new Registry({
    backend: options.backend,
    resources: options.resources ?? BUILTIN_RESOURCES,
    clock: options.clock,
    admission: namespaceLifecycle(() => registryRef as Registry),
  });
  registryRef = registry;
  const ctx: ApiContext = {
    registry,
    definitions: BUILTIN_DEFINITIONS,
    clock: options.clock ?? (() => new Date()),
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
    shutdown: shutdown.signal,
  };
  const client = createInProcessClient(registry, BUILTIN_DEFINITIONS);
  // The apiextensions part of the server: it serves custom resources as their CRDs are established.
  const crds = new CrdController(client, registry, (message) => console.error(message));
  const controllers = new ControllerManager({
    client,
    ...options.controllers,
    log: (message) => console.error(message),
  });
  let ready = false;
  const server: Server = createServer(createApiHandler(ctx, () => ready, controllers));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await ensureSystemNamespaces(registry);
  await crds.start();
  await controllers.start();
  ready = true;
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    registry,
    controllers,
    async close() {
      ready = false;
      shutdown.abort();
      await controllers.stop();
      await crds.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await options.backend.close();
    },
  };
}
