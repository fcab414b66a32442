import { createAuditor } from '../audit/auditor.js';
import { AuditLogWriter } from '../audit/log-writer.js';
import type { AuditPolicy } from '../audit/policy.js';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { AdmissionChain } from '../registry/admission/chain.js';
import { defaultTolerationSeconds } from '../admission/default-toleration-seconds.js';
import { defaultIngressClass } from '../admission/default-ingress-class.js';
import { defaultStorageClass } from '../admission/default-storage-class.js';
import { podPriority } from '../admission/pod-priority.js';
import { namespaceLifecycle } from '../admission/namespace-lifecycle.js';
import { protectionRulesAdmission } from '../admission/protection-rules.js';
import { storageObjectInUseProtection } from '../admission/storage-object-in-use-protection.js';
import { createWebhookAdmission, loadServiceLookups, type WebhookAdmission } from '../admission/webhooks/webhook-admission.js';
import { resourceQuotaAdmission } from '../admission/resource-quota/plugin.js';
import { limitRanger } from '../admission/limit-ranger.js';
import { StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import { BUILTIN_DEFINITIONS } from '../kinds/definitions.js';
import { strategyWithCustomResourceDefinitions } from '../apiextensions/crd-strategy.js';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { Registry } from '../registry/registry.js';
import type { Backend } from '../storage/backend.js';
import type { ApiContext } from './api-context.js';
import { createApiHandler, type RequestLimits, type RequestListener } from './app.js';
import { createInFlightLimiter, DEFAULT_MAX_MUTATING_REQUESTS_IN_FLIGHT, DEFAULT_MAX_REQUESTS_IN_FLIGHT } from './limits/max-in-flight.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './limits/request-timeout.js';
import { createWatchLimiter } from './limits/watch-limit.js';
import { answerClientErrorsAsGo, MAX_HEADER_BYTES } from './header-limit.js';
import { serveConnectLikeOtherMethods } from './connect-method.js';
import { ownerReferencesPermissionEnforcement } from '../admission/owner-references-permission.js';
import { createRestMapper, type RestMapper } from '../discovery/rest-mapper.js';
import { ApfConfiguration } from './apf-configuration.js';
import { ensureKubernetesService, ensureSystemNamespaces, ensureSystemPriorityClasses } from './bootstrap.js';
import { CrdController } from '../apiextensions/crd-controller.js';
import { CONVERSION_TIMEOUT_MS, WebhookConverter } from '../apiextensions/conversion/webhook-converter.js';
import { WebhookClient } from '../admission/webhooks/webhook-client.js';
import { createInProcessClient } from './in-process-client.js';
import { LeaderElector, type LeaderElectionOptions } from '../controllers/leader-election.js';
import { ControllerManager, type ControllerManagerOptions } from '../controllers/manager.js';
import { componentProbes } from './component-probes.js';
import { bearerTokenAuthenticator } from '../auth/authn/bearer-token.js';
import { createRequestAuthenticator, withAuthenticatedGroup } from '../auth/authn/authenticate.js';
import { createServiceAccountTokenAuthenticator } from '../auth/serviceaccount/token-authenticator.js';
import { createTokenIssuer } from '../auth/serviceaccount/token-issuer.js';
import { generateServiceAccountKey } from '../pki/service-account-key.js';
import { API_AUDIENCES } from './handlers/reviews/authentication-review.js';
import { clientCertificateAuthenticator } from '../auth/authn/client-certificate.js';
import { RbacAuthorizer } from '../auth/rbac/authorizer.js';
import { ensureBootstrapPolicy } from '../auth/rbac/bootstrap/ensure.js';
import {
  CONTROLLER_IDENTITIES,
  CONTROLLER_MANAGER_IDENTITY,
  type ControllerName,
  RESTORE_CONTROLLER_IDENTITY,
} from '../auth/rbac/bootstrap/identities.js';
import { privilegedGroupsAuthorizer } from '../auth/rbac/privileged-groups.js';
import { unionAuthorizer } from '../auth/rbac/union.js';
import { INSECURE_ADMIN, type UserInfo } from '../api/user.js';
import { rbacEscalationAdmission } from '../admission/rbac-escalation.js';
import { validatingAdmissionPolicy } from '../admission/validating-admission-policy/plugin.js';
import type { ApiClient, ResourceRef } from '../client/interface.js';
import { getIfPresent } from '../client/get-if-present.js';
import { createSharedInformer } from '../cache/shared-informer.js';
import { NAMESPACE_INDEX, namespaceIndexFunc } from '../cache/store.js';
import { withInformerReads } from '../client/informer-reads.js';
import { createRequestSecurity } from './request-security.js';
import { type AggregatorOptions, createAggregator } from '../aggregator/index.js';
import { installProtectionRuleCrd } from '../protection/rule-crd.js';
import { Archive } from '../registry/archive/archive.js';
import { ArchivePruner } from '../registry/archive/pruner.js';
import type { RetentionPolicy } from '../registry/archive/retention.js';
import { archiveReadCheck, createCheck, serveArchiveApi } from './archive-api.js';
import { RestoreController } from '../controllers/restore/controller.js';
import { ProtectionRuleSet } from '../protection/rule-set.js';
import { PROTECTION_RULES } from '../protection/rule-types.js';

/** HTTPS, credentials and who may do what; without it the server is a plain-HTTP throw-away (--insecure-http). */
export interface ApiServerSecurity {
  /** The serving key pair, and the CA whose client certificates authenticate users (CN = user, O = groups). */
  readonly tls: { readonly cert: string; readonly key: string; readonly clientCa: string };
  /** The cluster CA's key pair, which the CSR signing controller issues certificates with (--cluster-signing-*-file). */
  readonly signingCa?: { readonly cert: string; readonly key: string };
  /** Bearer tokens: --token-auth-file plus the generated admin token. */
  readonly tokens: ReadonlyMap<string, UserInfo>;
  /** --anonymous-auth (default true): requests without credentials reach health and version as system:anonymous. */
  readonly anonymous?: boolean;
  /** The client certificate the aggregator presents to aggregated API servers. */
  readonly frontProxy?: { readonly cert: string; readonly key: string };
}

export interface ApiServerLimits {
  /** --max-requests-inflight (default 400; 0 = unlimited). */
  readonly maxRequestsInFlight?: number;
  /** --max-mutating-requests-inflight (default 200; 0 = unlimited). */
  readonly maxMutatingRequestsInFlight?: number;
  /** --request-timeout for requests other than watches (default 60 s). */
  readonly requestTimeoutMs?: number;
}

export interface ApiServerOptions {
  readonly backend: Backend;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Sees each request first and returns true for those it answered itself (the web UI's /ui/); the API gets the rest. */
  readonly frontHandler?: (req: IncomingMessage, res: ServerResponse) => boolean;
  readonly resources?: readonly ResourceInfo[];
  readonly clock?: () => Date;
  readonly bookmarkIntervalMs?: number;
  readonly minRequestTimeoutSeconds?: number;
  /** Controllers to run in the server process (kube-controller-manager's role); all on by default. */
  readonly controllers?: Omit<ControllerManagerOptions, 'clientFor' | 'systemClient' | 'log'>;
  /** How long readiness waits for the controllers' caches before serving without them (default 10 s). */
  readonly controllerSyncWaitMs?: number;
  /**
   * --leader-elect: run the controllers only while this process holds the controller manager's Lease, so several
   * servers on one etcd run them exactly once. Off by default (one server).
   */
  readonly leaderElection?: Omit<LeaderElectionOptions, 'client' | 'onStartedLeading' | 'onStoppedLeading' | 'log'>;
  /** Absent: plain HTTP, every request acting as cascade-admin (system:masters); impersonation still applies. */
  readonly security?: ApiServerSecurity;
  /** ECDSA P-256 key that signs service account tokens (TokenRequest); a fresh one for this process when absent. */
  readonly serviceAccountKey?: KeyObject;
  readonly limits?: ApiServerLimits;
  /** Availability re-check interval and probe timeout of aggregated APIs (Kubernetes: 30 s and 5 s). */
  readonly aggregator?: Pick<AggregatorOptions, 'recheckIntervalMs' | 'discoveryTimeoutMs'>;
  /**
   * Keep what leaves storage in an archive, served as archivedobjects and clusterarchivedobjects, and serve
   * Restores (issue 28). Absent: no archive, and neither resource is served.
   */
  readonly archive?: ArchiveOptions;
  /** How long a CRD conversion webhook may take (Kubernetes' fixed 30 s); tests shorten it. */
  readonly conversionWebhookTimeoutMs?: number;
  /** --audit-log-path and --audit-policy-file: requests logged as audit.k8s.io/v1 Events. Absent: no audit log. */
  readonly audit?: AuditOptions;
}

export interface AuditOptions {
  /** A file to append to, or `-` for stdout. */
  readonly logPath: string;
  readonly policy: AuditPolicy;
}

export interface ArchiveOptions extends RetentionPolicy {
  /** How often pruning runs (default 60 s). */
  readonly pruneIntervalMs?: number;
}

export interface ApiServer {
  readonly url: string;
  readonly port: number;
  readonly registry: Registry;
  /** The controllers running in this process (none while another process leads). */
  readonly controllers: ControllerManager;
  /** Present with --leader-elect. */
  readonly leaderElector: LeaderElector | undefined;
  /** Whether webhook admission already uses this version of a webhook configuration. */
  readonly webhookConfigurationObserved: WebhookAdmission['observes'];
  /** Stops accepting requests, ends open watches and closes the storage backend. */
  close(): Promise<void>;
}

const DEFAULT_PRUNE_INTERVAL_MS = 60_000;

/** A read's 404 as undefined; other failures propagate. */
function absentAsUndefined(err: unknown): undefined {
  if (err instanceof StatusError && err.code === 404) return undefined;
  throw err;
}

/** The composition root: storage backend → registry (+ admission) → authentication/authorization → HTTP API. */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const shutdown = new AbortController();
  const log = (message: string): void => console.error(message);
  const security = options.security;
  const rbac = new RbacAuthorizer({ onError: (err) => log(`rbac authorizer: ${String(err)}`) });
  const authorizer = unionAuthorizer(privilegedGroupsAuthorizer(), rbac);
  const clock = options.clock ?? (() => new Date());
  const registry = new Registry({
    backend: options.backend,
    ...(options.archive === undefined ? {} : { archive: new Archive(clock) }),
    resources: options.resources ?? BUILTIN_RESOURCES,
    clock: options.clock,
    strategyFor: strategyWithCustomResourceDefinitions,
    // Only a running collector removes the finalizer (R12.174).
    propagateGracePeriod: options.controllers?.propagateGracePeriod === true && options.controllers.garbageCollector !== false,
  });
  let mapperCache: { readonly generation: number; readonly mapper: RestMapper } | undefined;
  /** The REST mapper over what is served now, rebuilt only when the served resources change. */
  const restMapper = (): RestMapper => {
    if (mapperCache?.generation !== registry.generation)
      mapperCache = { generation: registry.generation, mapper: createRestMapper(registry.resources()) };
    return mapperCache.mapper;
  };
  // The server's own loopback client: never refused, like kube-apiserver's system:apiserver identity.
  const client = createInProcessClient(registry, BUILTIN_DEFINITIONS, { fieldManager: 'kube-apiserver' });
  const namespaceInformer = createSharedInformer(client, NAMESPACES, undefined, {
    onError: (err) => log(`namespace informer: ${String(err)}`),
  });
  // The quotas the ResourceQuota plugin charges, cached as kube-apiserver's plugin caches them.
  const quotaInformer = createSharedInformer(client, RESOURCE_QUOTAS, undefined, {
    indexers: { [NAMESPACE_INDEX]: namespaceIndexFunc },
    onError: (err) => log(`resource quota informer: ${String(err)}`),
  });
  const limitRangeInformer = createSharedInformer(client, LIMIT_RANGES, undefined, {
    indexers: { [NAMESPACE_INDEX]: namespaceIndexFunc },
    onError: (err) => log(`limit range informer: ${String(err)}`),
  });
  const limitRanges = limitRanger((namespace) => limitRangeInformer.store.byIndex(NAMESPACE_INDEX, namespace));
  // ProtectionRules are served as a built-in CRD; the rule set feeds admission and the rules' reference fields.
  const rules = new ProtectionRuleSet(client, registry.computedFields);
  // kube-apiserver's plugin order (AllOrderedPlugins), restricted to the plugins Cascade has, with Cascade's own
  // ProtectionRules and RBAC escalation checks last. Installed before anything below starts, so no write goes
  // unadmitted. ClusterIP allocation is no plugin: the Service storage does it (registry/resources).
  const priority = podPriority({
    get: (name) => getIfPresent(client, PRIORITY_CLASSES, undefined, name),
    list: async () => (await client.list(PRIORITY_CLASSES, undefined)).items,
  });
  const protectionRules = protectionRulesAdmission(rules, registry);
  const policies = validatingAdmissionPolicy({
    client,
    resources: () => registry.resources(),
    namespace: {
      cached: (name) => namespaceInformer.store.get(undefined, name),
      live: (name) => getIfPresent(client, NAMESPACES, undefined, name),
    },
    authorizer: () => authorizer,
    onError: (err) => log(`validating admission policy: ${String(err)}`),
  });
  const webhooks = createWebhookAdmission({
    client,
    namespaceLabels: async (name) => {
      const namespace = namespaceInformer.store.get(undefined, name) ?? (await getIfPresent(client, NAMESPACES, undefined, name));
      return namespace === undefined ? undefined : (namespace.metadata.labels ?? {});
    },
    served: () => registry.resources(),
    onError: (err) => log(`webhook configuration informer: ${String(err)}`),
  });
  registry.admitWith(
    new AdmissionChain(
      [
        namespaceLifecycle({
          cached: (name) => namespaceInformer.store.get(undefined, name),
          live: (name) => getIfPresent(client, NAMESPACES, undefined, name),
        }),
        limitRanges,
        priority,
        defaultTolerationSeconds,
        defaultStorageClass(async () => (await client.list(STORAGE_CLASSES, undefined)).items),
        storageObjectInUseProtection,
        defaultIngressClass(async () => (await client.list(INGRESS_CLASSES, undefined)).items),
        protectionRules,
        // Webhooks last of the mutating plugins (AllOrderedPlugins); Cascade's ProtectionRules only add finalizers.
        webhooks.mutating,
      ],
      [
        limitRanges,
        priority,
        // On by default in Cascade (off in kube-apiserver): blockOwnerDeletion only means something with it (R3.1).
        ownerReferencesPermissionEnforcement({
          authorizer: () => authorizer,
          restMappings: (groupKind, version) => restMapper().restMappings(groupKind, version),
        }),
        policies,
        protectionRules,
        rbacEscalationAdmission(
          () => authorizer,
          () => rbac,
        ),
        webhooks.validating,
        resourceQuotaAdmission({
          cached: (namespace) => quotaInformer.store.byIndex(NAMESPACE_INDEX, namespace),
          live: async (namespace) => (await client.list(RESOURCE_QUOTAS, namespace)).items,
          updateStatus: async (quota) => {
            await client.update(RESOURCE_QUOTAS, quota.metadata.namespace, quota, 'status');
          },
        }),
      ],
    ),
  );
  const serviceAccountKey = options.serviceAccountKey ?? generateServiceAccountKey();
  const tokenIssuer = createTokenIssuer(serviceAccountKey, createPublicKey(serviceAccountKey));
  const serviceAccountTokens = createServiceAccountTokenAuthenticator({
    keys: tokenIssuer.publicKeys,
    clock: options.clock ?? (() => new Date()),
    // Live reads, as kube-apiserver falls back to when its informers miss: a token is judged on what is stored now.
    lookup: (resource, namespace, name) => {
      const store = registry.lookup('', 'v1', resource);
      return store === undefined ? Promise.resolve(undefined) : store.get(namespace, name).catch(absentAsUndefined);
    },
  });
  const aggregator =
    security?.frontProxy === undefined
      ? undefined
      : createAggregator({ client, frontProxy: security.frontProxy, log, ...options.aggregator });
  const ctx: ApiContext = {
    registry,
    definitions: BUILTIN_DEFINITIONS,
    clock: options.clock ?? (() => new Date()),
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
    shutdown: shutdown.signal,
    authorizer,
    aggregator,
    authenticateToken: async (token, audiences) => {
      const user = security?.tokens.get(token);
      if (user !== undefined) {
        // The static tokens know no audience: they count as issued for the API server's own.
        const accepted = API_AUDIENCES.filter((a) => audiences.includes(a));
        return accepted.length === 0 ? undefined : { user: withAuthenticatedGroup(user), audiences: accepted };
      }
      const result = await serviceAccountTokens(token, audiences);
      return result === undefined || 'error' in result ? result : { ...result, user: withAuthenticatedGroup(result.user) };
    },
    serviceAccountTokens: tokenIssuer,
    // The closure reads the controllers this process runs at the time of the request (they change with leadership).
    componentProbes: componentProbes({ schedulerRunning: () => controllers.scheduler !== undefined, backend: options.backend }),
    ...(options.archive === undefined
      ? {}
      : { objectReadCheck: (info: ResourceInfo, user: UserInfo) => archiveReadCheck(authorizer, info, user) }),
  };
  if (options.archive !== undefined) serveArchiveApi(registry);
  const pruner =
    options.archive === undefined
      ? undefined
      : new ArchivePruner(options.backend, options.archive, clock, options.archive.pruneIntervalMs ?? DEFAULT_PRUNE_INTERVAL_MS, log);
  const clientAs = (user: UserInfo): ApiClient =>
    createInProcessClient(registry, BUILTIN_DEFINITIONS, {
      identity: { user, authorizer },
      aggregator,
      fieldManager: 'kube-controller-manager',
    });
  const managerClient = clientAs(CONTROLLER_MANAGER_IDENTITY);
  // Restores run where the controllers run: with leader election, a fresh one each time this process leads.
  const newRestores = (): RestoreController | undefined =>
    options.archive === undefined
      ? undefined
      : new RestoreController({ client: clientAs(RESTORE_CONTROLLER_IDENTITY), clientAs, canCreate: createCheck(authorizer), clock, log });
  const clientFor = (controller: ControllerName): ApiClient =>
    withInformerReads(clientAs(CONTROLLER_IDENTITIES[controller]), managerClient);
  // The apiextensions part of the server: it serves custom resources as their CRDs are established.
  // CRD conversion webhooks share the admission webhooks' HTTPS client code, with connections of their own.
  const conversionClient = new WebhookClient((namespace, name) => loadServiceLookups(client, namespace, name));
  const conversionTimeout = options.conversionWebhookTimeoutMs ?? CONVERSION_TIMEOUT_MS;
  const crds = new CrdController(client, registry, (crd) => new WebhookConverter(crd, conversionClient, conversionTimeout), log);
  // The cluster CA (the one client certificates are checked against, which also signed the serving certificate) is
  // what kube-controller-manager's --root-ca-file names; a plain-HTTP server has none to publish.
  const rootCa = security?.tls.clientCa;
  const newControllers = (): ControllerManager =>
    new ControllerManager({ clientFor, systemClient: client, rootCa, signingCa: security?.signingCa, ...options.controllers, log });
  // Without leader election the controllers always run here; with it, a fresh set runs each time this process leads.
  const idle = new ControllerManager({
    clientFor,
    garbageCollector: false,
    namespaceController: false,
    volumeProtection: false,
    protectionRules: false,
    serviceAccounts: false,
    clusterRoleAggregation: false,
    replicaSetController: false,
    replicationController: false,
    deploymentController: false,
    statefulSetController: false,
    daemonSetController: false,
    jobController: false,
    cronJobController: false,
    ttlAfterFinishedController: false,
    validatingAdmissionPolicyStatus: false,
    horizontalPodAutoscalerController: false,
    resourceQuotaController: false,
    disruptionController: false,
    endpointsController: false,
    endpointSliceController: false,
  });
  let controllers = options.leaderElection === undefined ? newControllers() : idle;
  let restores = options.leaderElection === undefined ? newRestores() : undefined;
  const elector =
    options.leaderElection === undefined
      ? undefined
      : new LeaderElector({
          ...options.leaderElection,
          client: managerClient,
          log,
          onStartedLeading: async () => {
            controllers = newControllers();
            restores = newRestores();
            await controllers.start();
            await restores?.start();
          },
          onStoppedLeading: async () => {
            const stopping = controllers;
            const stoppingRestores = restores;
            controllers = idle;
            restores = undefined;
            await stopping.stop();
            await stoppingRestores?.stop();
          },
        });
  const authenticate =
    security === undefined
      ? () => INSECURE_ADMIN
      : createRequestAuthenticator({
          // kube-apiserver's order: client certificates, then bearer tokens.
          authenticators: [
            clientCertificateAuthenticator(),
            bearerTokenAuthenticator(security.tokens, (token) => serviceAccountTokens(token, API_AUDIENCES)),
          ],
          anonymous: security.anonymous ?? true,
        });
  let ready = false;
  const limits: RequestLimits = {
    inFlight: createInFlightLimiter({
      maxRequestsInFlight: options.limits?.maxRequestsInFlight ?? DEFAULT_MAX_REQUESTS_IN_FLIGHT,
      maxMutatingRequestsInFlight: options.limits?.maxMutatingRequestsInFlight ?? DEFAULT_MAX_MUTATING_REQUESTS_IN_FLIGHT,
    }),
    watches: createWatchLimiter(),
    requestTimeoutMs: options.limits?.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  };
  const auditor =
    options.audit === undefined
      ? undefined
      : createAuditor(
          options.audit.policy,
          new AuditLogWriter(options.audit.logPath, (err) => log(`audit log ${options.audit?.logPath}: ${String(err)}`)),
        );
  const handler = createApiHandler(
    ctx,
    createRequestSecurity(authenticate, authorizer),
    limits,
    () => ready,
    () => controllers,
    options.backend,
    auditor,
  );
  const front = options.frontHandler;
  const listener: RequestListener = front === undefined ? handler : (req, res) => (front(req, res) ? undefined : handler(req, res));
  const server: Server =
    security === undefined
      ? createServer({ maxHeaderSize: MAX_HEADER_BYTES }, listener)
      : createTlsServer(
          {
            cert: security.tls.cert,
            key: security.tls.key,
            ca: security.tls.clientCa,
            requestCert: true,
            rejectUnauthorized: false,
            maxHeaderSize: MAX_HEADER_BYTES,
          },
          listener,
        );
  answerClientErrorsAsGo(server);
  serveConnectLikeOtherMethods(server, handler);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await ensureSystemNamespaces(registry);
  namespaceInformer.start();
  quotaInformer.start();
  limitRangeInformer.start();
  await Promise.all([namespaceInformer.whenSynced(), quotaInformer.whenSynced(), limitRangeInformer.whenSynced()]);
  await webhooks.start();
  await ensureKubernetesService(registry, host, (server.address() as AddressInfo).port);
  await ensureSystemPriorityClasses(registry);
  const apf = new ApfConfiguration(client, log);
  await apf.start();
  await ensureBootstrapPolicy(client);
  await rbac.start(client);
  await aggregator?.start();
  await crds.start();
  await policies.start();
  await installProtectionRuleCrd(client);
  await servedSoon(registry, PROTECTION_RULES, 5000);
  await rules.start();
  if (elector === undefined) {
    const started = controllers.start().then(() => restores?.start());
    await awaitControllersBounded(started, options.controllerSyncWaitMs ?? DEFAULT_CONTROLLER_SYNC_WAIT_MS, log);
  } else elector.start();
  pruner?.start();
  ready = true;
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `${security === undefined ? 'http' : 'https'}://${urlHost}:${port}`,
    port,
    registry,
    get controllers() {
      return controllers;
    },
    leaderElector: elector,
    webhookConfigurationObserved: webhooks.observes,
    async close() {
      ready = false;
      shutdown.abort();
      if (elector !== undefined) await elector.stop();
      else {
        await controllers.stop();
        await restores?.stop();
      }
      await apf.stop();
      await rules.stop();
      await pruner?.stop();
      await crds.stop();
      conversionClient.close();
      await policies.stop();
      await rbac.stop();
      await namespaceInformer.stop();
      await webhooks.stop();
      await quotaInformer.stop();
      await limitRangeInformer.stop();
      await aggregator?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await auditor?.close();
      await options.backend.close();
    },
  };
}

const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };
const LIMIT_RANGES: ResourceRef = { group: '', version: 'v1', resource: 'limitranges' };
const RESOURCE_QUOTAS: ResourceRef = { group: '', version: 'v1', resource: 'resourcequotas' };
const PRIORITY_CLASSES: ResourceRef = { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses' };
const INGRESS_CLASSES: ResourceRef = { group: 'networking.k8s.io', version: 'v1', resource: 'ingressclasses' };
const STORAGE_CLASSES: ResourceRef = { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses' };

const DEFAULT_CONTROLLER_SYNC_WAIT_MS = 10_000;

/**
 * Readiness waits for the embedded controllers' caches, so a ready server's controllers see every stored object — but
 * not forever: a controller whose informer cannot list (an undecodable stored object answers 500) keeps waiting for
 * it, as kube-controller-manager's WaitForCacheSync does, while the API server, a separate component in Kubernetes,
 * serves.
 */
async function awaitControllersBounded(started: Promise<unknown>, waitMs: number, log: (message: string) => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([
    started.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), waitMs);
    }),
  ]);
  clearTimeout(timer);
  if (inTime) return;
  log(`controllers: caches not synced after ${waitMs} ms (see the informer errors); serving the API, they start once their informers list`);
  started.catch((err: unknown) => log(`controllers: start failed: ${String(err)}`));
}

/** Waits for the CRD controller to serve a resource it was just asked to establish. */
async function servedSoon(registry: Registry, ref: { group: string; version: string; resource: string }, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (registry.lookup(ref.group, ref.version, ref.resource) === undefined) {
    if (Date.now() > deadline) throw new Error(`${ref.resource}.${ref.group} was not served within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
