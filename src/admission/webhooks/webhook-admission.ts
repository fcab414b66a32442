import { ENDPOINT_SLICES, ENDPOINTS, SERVICES } from '../../aggregator/api-service.js';
import { SERVICE_NAME_LABEL, type ServiceLookups } from '../../aggregator/endpoint-resolver.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import { createSharedInformer } from '../../cache/shared-informer.js';
import { getIfPresent } from '../../client/get-if-present.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { MUTATING_WEBHOOK_CONFIGURATION } from '../../kinds/admissionregistration-v1/mutating-webhook-configuration.js';
import { VALIDATING_WEBHOOK_CONFIGURATION } from '../../kinds/admissionregistration-v1/validating-webhook-configuration.js';
import type { MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from '../../registry/admission/plugin.js';
import { mutatingAdmissionWebhook } from './mutating-webhook-plugin.js';
import { validatingAdmissionWebhook } from './validating-webhook-plugin.js';
import { WebhookClient } from './webhook-client.js';
import { informerWebhookSource } from './webhook-configurations.js';
import type { MatchContext } from './webhook-matching.js';

/**
 * The two webhook admission plugins with what they share: one informer per configuration kind, the HTTPS client
 * (connections kept alive per CA bundle) and the namespace labels and served resources matching needs.
 */

export interface WebhookAdmissionOptions {
  /** The server's loopback client: reads configurations, namespaces and services. */
  readonly client: ApiClient;
  readonly namespaceLabels: MatchContext['namespaceLabels'];
  readonly served: () => readonly ResourceInfo[];
  readonly onError: (err: unknown) => void;
}

export interface WebhookAdmission {
  readonly mutating: MutatingAdmissionPlugin;
  readonly validating: ValidatingAdmissionPlugin;
  /** Whether admission already uses this version of a configuration (its informer has seen it). */
  observes(kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration', name: string, resourceVersion: string): boolean;
  /** Starts the configuration informers and resolves once both have synced. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The service, its Endpoints and EndpointSlices, read when a service-backed webhook is called. */
export async function loadServiceLookups(client: ApiClient, namespace: string, name: string): Promise<ServiceLookups> {
  const [service, endpoints, slices] = await Promise.all([
    getIfPresent(client, SERVICES, namespace, name),
    getIfPresent(client, ENDPOINTS, namespace, name),
    client.list(ENDPOINT_SLICES, namespace, { labelSelector: `${SERVICE_NAME_LABEL}=${name}` }),
  ]);
  return {
    service: () => service,
    endpoints: () => endpoints,
    endpointSlices: () => slices.items,
  };
}

const refOf = (info: ResourceInfo): ResourceRef => ({ group: info.group, version: info.version, resource: info.plural });

export function createWebhookAdmission(options: WebhookAdmissionOptions): WebhookAdmission {
  const informerOptions = { onError: options.onError };
  const mutatingInformer = createSharedInformer(options.client, refOf(MUTATING_WEBHOOK_CONFIGURATION.resource), undefined, informerOptions);
  const validatingInformer = createSharedInformer(
    options.client,
    refOf(VALIDATING_WEBHOOK_CONFIGURATION.resource),
    undefined,
    informerOptions,
  );
  const client = new WebhookClient((namespace, name) => loadServiceLookups(options.client, namespace, name));
  const pluginOptions = { client, match: { namespaceLabels: options.namespaceLabels, served: options.served } };
  return {
    mutating: mutatingAdmissionWebhook(informerWebhookSource(mutatingInformer), pluginOptions),
    validating: validatingAdmissionWebhook(informerWebhookSource(validatingInformer), pluginOptions),
    observes: (kind, name, resourceVersion) => {
      const informer = kind === 'MutatingWebhookConfiguration' ? mutatingInformer : validatingInformer;
      return informer.store.get(undefined, name)?.metadata.resourceVersion === resourceVersion;
    },
    async start() {
      mutatingInformer.start();
      validatingInformer.start();
      await Promise.all([mutatingInformer.whenSynced(), validatingInformer.whenSynced()]);
    },
    async stop() {
      await Promise.all([mutatingInformer.stop(), validatingInformer.stop()]);
      client.close();
    },
  };
}
