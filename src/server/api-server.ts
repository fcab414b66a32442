import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chainAdmission } from '../admission/chain.js';
import { serviceClusterIpAllocation } from '../admission/service-cluster-ip.js';
import { namespaceLifecycle } from '../admission/namespace-lifecycle.js';
import { protectionRulesAdmission } from '../admission/protection-rules.js';
import { storageObjectInUseProtection } from '../admission/storage-object-in-use-protection.js';
import type { ResourceInfo } from '../api/resource-info.js';
import { BUILTIN_DEFINITIONS } from '../openapi/definitions/index.js';
import { BUILTIN_RESOURCES } from '../registry/builtin-resources.js';
import { Registry } from '../registry/registry.js';
import type { Backend } from '../storage/backend.js';
import type { ApiContext } from './api-context.js';
import { createApiHandler } from './app.js';
import { ensureKubernetesService, ensureSystemNamespaces } from './bootstrap.js';
import { CrdController } from '../apiextensions/crd-controller.js';
import { createInProcessClient } from '../client/in-process.js';
import { LeaderElector, type LeaderElectionOptions } from '../controllers/leader-election.js';
import { ControllerManager, type ControllerManagerOptions } from '../controllers/manager.js';
import { installProtectionRuleCrd } from '../protection/rule-crd.js';
import { ProtectionRuleSet } from '../protection/rule-set.js';
import { PROTECTION_RULES } from '../protection/rule-types.js';

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
  /**
   * --leader-elect: run the controllers only while this process holds the controller manager's Lease, so several
   * servers on one etcd run them exactly once. Off by default (one server).
   */
  readonly leaderElection?: Omit<LeaderElectionOptions, 'client' | 'onStartedLeading' | 'onStoppedLeading' | 'log'>;
}

export interface ApiServer {
  readonly url: string;
  readonly port: number;
  readonly registry: Registry;
  /** The controllers running in this process (none while another process leads). */
  readonly controllers: ControllerManager;
  /** Present with --leader-elect. */
  readonly leaderElector: LeaderElector | undefined;
  /** Stops accepting requests, ends open watches and closes the storage backend. */
  close(): Promise<void>;
}

/** The composition root: storage backend → registry (+ admission) → HTTP API. */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const shutdown = new AbortController();
  let registryRef: Registry | undefined;
  let rulesRef: ProtectionRuleSet | undefined;
  // Kubernetes' order: NamespaceLifecycle first, then the mutating plugins.
  const registry = new Registry({
    backend: options.backend,
    resources: options.resources ?? BUILTIN_RESOURCES,
    clock: options.clock,
    admission: chainAdmission(
      namespaceLifecycle(() => registryRef as Registry),
      serviceClusterIpAllocation(() => options.backend),
      storageObjectInUseProtection,
      protectionRulesAdmission(
        () => rulesRef as ProtectionRuleSet,
        () => registryRef as Registry,
      ),
    ),
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
  // ProtectionRules are served as a built-in CRD; the rule set feeds admission and the rules' reference fields.
  const rules = new ProtectionRuleSet(client, registry.computedFields);
  rulesRef = rules;
  const log = (message: string): void => console.error(message);
  const newControllers = (): ControllerManager => new ControllerManager({ client, ...options.controllers, log });
  // Without leader election the controllers always run here; with it, a fresh set runs each time this process leads.
  const idle = new ControllerManager({
    client,
    garbageCollector: false,
    namespaceController: false,
    volumeProtection: false,
    protectionRules: false,
    serviceAccounts: false,
  });
  let controllers = options.leaderElection === undefined ? newControllers() : idle;
  const elector =
    options.leaderElection === undefined
      ? undefined
      : new LeaderElector({
          ...options.leaderElection,
          client,
          log,
          onStartedLeading: async () => {
            controllers = newControllers();
            await controllers.start();
          },
          onStoppedLeading: async () => {
            const stopping = controllers;
            controllers = idle;
            await stopping.stop();
          },
        });
  let ready = false;
  const server: Server = createServer(createApiHandler(ctx, () => ready, () => controllers));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await ensureSystemNamespaces(registry);
  await ensureKubernetesService(registry, host, (server.address() as AddressInfo).port);
  await crds.start();
  await installProtectionRuleCrd(client);
  await servedSoon(registry, PROTECTION_RULES, 5000);
  await rules.start();
  if (elector === undefined) await controllers.start();
  else elector.start();
  ready = true;
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    registry,
    get controllers() {
      return controllers;
    },
    leaderElector: elector,
    async close() {
      ready = false;
      shutdown.abort();
      if (elector !== undefined) await elector.stop();
      else await controllers.stop();
      await rules.stop();
      await crds.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await options.backend.close();
    },
  };
}

/** Waits for the CRD controller to serve a resource it was just asked to establish. */
async function servedSoon(registry: Registry, ref: { group: string; version: string; resource: string }, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (registry.lookup(ref.group, ref.version, ref.resource) === undefined) {
    if (Date.now() > deadline) throw new Error(`${ref.resource}.${ref.group} was not served within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
