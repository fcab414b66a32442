/**
 * The API aggregator: APIServices backed by a Service are served by proxying to that Service's endpoints, kept
 * up to date by the availability controller, and merged into discovery. This object is the whole integration
 * surface for the server: routing (serves/proxy), discovery (remoteGroupVersions, resources, discoveryFailures),
 * diagnostics (describeFailure) and change notification (onChange).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceInfo } from '../api/resource-info.js';
import type { UserInfo } from '../api/user.js';
import { createInformerFactory, type InformerFactory } from '../cache/informer-factory.js';
import type { DiscoveryFailure } from '../client/http-discovery.js';
import type { ApiClient } from '../client/interface.js';
import { compareKubeAwareVersions } from '../discovery/kube-version.js';
import type { APIResourceList } from '../discovery/types.js';
import type { AggregatedBackends } from './aggregated-client.js';
import { type AggregatorCaches, createAggregatorCaches } from './aggregator-caches.js';
import { type ApiServiceEntry, groupVersionOf, isAvailable } from './api-service.js';
import { AvailabilityController } from './availability-controller.js';
import { BackendAgents, type BackendTarget, type FrontProxyCredentials, targetFor } from './backend-transport.js';
import { DiscoveryDocuments } from './discovery-documents.js';
import type { RemoteGroupVersion } from './discovery-merge.js';
import { hostPort, resolveEndpoint } from './endpoint-resolver.js';
import type { RequestUrl } from '../api/request-url.js';
import { proxyRequest } from './proxy.js';
import { resourceInfosOf } from './resource-infos.js';

export interface AggregatorOptions {
  /** Reads APIServices, Services, Endpoints and EndpointSlices; writes APIService status (the in-process client). */
  readonly client: ApiClient;
  /** The client certificate presented to every backend (requestheader authentication). */
  readonly frontProxy: FrontProxyCredentials;
  /** Re-check of every APIService; Kubernetes: 30 s. Failed checks are retried sooner, backing off up to this. */
  readonly recheckIntervalMs?: number;
  /** Timeout of the availability probe; Kubernetes: 5 s. */
  readonly discoveryTimeoutMs?: number;
  /** A shared informer factory; by default the aggregator runs its own over `client`. */
  readonly informers?: InformerFactory;
  readonly now?: () => Date;
  readonly log?: (message: string) => void;
}

export interface Aggregator extends AggregatedBackends {
  /** Starts the caches, waits for them to sync, then runs the availability controller. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** True when /apis/<group>/<version> and everything under it belong to a remote APIService: route them to proxy(). */
  serves(group: string, version: string): boolean;
  /** Forwards the request to the group-version's backend as `user`, or answers the aggregator's 503. */
  proxy(req: IncomingMessage, res: ServerResponse, url: RequestUrl, user: UserInfo, group: string, version: string): Promise<void>;
  /** Every remote APIService as discovery lists it (resources undefined while unavailable). */
  remoteGroupVersions(): RemoteGroupVersion[];
  /** The aggregated resources currently discoverable, each group's preferred version first. */
  resources(): ResourceInfo[];
  /** Group-versions listed but not discoverable now, as client-go reports Stale ones (R8.13). */
  discoveryFailures(): DiscoveryFailure[];
  /**
   * Why a group-version is not discoverable, naming its APIService, condition reason and endpoint; undefined when
   * it is discoverable or not aggregated.
   */
  describeFailure(group: string, version: string): string | undefined;
  /** Calls `listener` when remoteGroupVersions() changes (availability or a backend's resources). */
  onChange(listener: () => void): () => void;
}

const DEFAULT_RECHECK_MS = 30_000;
const DEFAULT_DISCOVERY_TIMEOUT_MS = 5_000;

function byPreference(a: ApiServiceEntry, b: ApiServiceEntry): number {
  if (a.group !== b.group) return a.group < b.group ? -1 : 1;
  if (a.versionPriority !== b.versionPriority) return b.versionPriority - a.versionPriority;
  return compareKubeAwareVersions(b.version, a.version);
}

export function createAggregator(options: AggregatorOptions): Aggregator {
  const ownInformers = options.informers === undefined ? createInformerFactory(options.client) : undefined;
  const informers = options.informers ?? (ownInformers as InformerFactory);
  const caches: AggregatorCaches = createAggregatorCaches(informers);
  const documents = new DiscoveryDocuments();
  const agents = new BackendAgents(options.frontProxy);
  const controller = new AvailabilityController({
    client: options.client,
    caches,
    documents,
    credentials: options.frontProxy,
    recheckIntervalMs: options.recheckIntervalMs ?? DEFAULT_RECHECK_MS,
    discoveryTimeoutMs: options.discoveryTimeoutMs ?? DEFAULT_DISCOVERY_TIMEOUT_MS,
    now: options.now,
    log: options.log,
  });
  const listeners = new Set<() => void>();

  const remoteEntries = (): ApiServiceEntry[] =>
    caches
      .apiServices()
      .filter((e) => e.service !== undefined)
      .sort(byPreference);
  const remoteEntry = (group: string, version: string): ApiServiceEntry | undefined => {
    const entry = caches.apiService(`${version}.${group}`);
    return entry !== undefined && entry.service !== undefined && entry.group === group && entry.version === version ? entry : undefined;
  };
  const documentOf = (entry: ApiServiceEntry): APIResourceList | undefined => (isAvailable(entry) ? documents.get(entry.name) : undefined);

  const remoteGroupVersions = (): RemoteGroupVersion[] =>
    remoteEntries().map((e) => ({
      group: e.group,
      version: e.version,
      groupPriorityMinimum: e.groupPriorityMinimum,
      versionPriority: e.versionPriority,
      resources: documentOf(e),
    }));

  let signature = '';
  const maybeChanged = (): void => {
    const next = JSON.stringify(remoteGroupVersions());
    if (next === signature) return;
    signature = next;
    for (const listener of listeners) listener();
  };
  caches.onChange((names) => {
    // A deleted APIService's pooled connections go with it.
    for (const name of names) if (caches.apiService(name) === undefined) agents.forget(name);
    maybeChanged();
  });
  documents.onChange(maybeChanged);

  const backendFor = (group: string, version: string): BackendTarget | undefined => {
    const entry = remoteEntry(group, version);
    if (entry?.service === undefined || !isAvailable(entry)) return undefined;
    const resolved = resolveEndpoint(entry.service, caches.lookups);
    if (!resolved.ok) return undefined;
    return targetFor(entry, resolved.endpoint, agents.agentFor(entry));
  };

  const describeFailure = (group: string, version: string): string | undefined => {
    const entry = remoteEntry(group, version);
    if (entry?.service === undefined || documentOf(entry) !== undefined) return undefined;
    const resolved = resolveEndpoint(entry.service, caches.lookups);
    const endpoint = resolved.ok ? `; endpoint ${hostPort(resolved.endpoint)}` : '';
    const condition = entry.available;
    if (condition === undefined) return `APIService "${entry.name}" has not been checked yet${endpoint}`;
    if (condition.status === 'True')
      return `APIService "${entry.name}" is available but its discovery document could not be read${endpoint}`;
    return `APIService "${entry.name}" is unavailable (${condition.reason ?? condition.status}): ${condition.message ?? ''}${endpoint}`;
  };

  return {
    async start() {
      ownInformers?.start();
      await caches.whenSynced();
      signature = JSON.stringify(remoteGroupVersions());
      controller.start();
    },
    async stop() {
      await controller.stop();
      await ownInformers?.stop();
      agents.close();
    },
    serves: (group, version) => remoteEntry(group, version) !== undefined,
    proxy: (req, res, url, user, group, version) => proxyRequest(req, res, url, user, backendFor(group, version)),
    backendFor,
    remoteGroupVersions,
    resources() {
      return remoteEntries().flatMap((e) => {
        const list = documentOf(e);
        return list === undefined ? [] : resourceInfosOf(e.group, e.version, list);
      });
    },
    discoveryFailures() {
      return remoteEntries()
        .filter((e) => documentOf(e) === undefined)
        .map((e) => {
          const gv = groupVersionOf(e);
          // Beyond client-go's words: name the APIService, its condition and endpoint, so the reader knows what to fix.
          const why = describeFailure(e.group, e.version);
          return { groupVersion: gv, error: new Error(`stale GroupVersion discovery: ${gv}${why === undefined ? '' : ` (${why})`}`) };
        });
    },
    describeFailure,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
