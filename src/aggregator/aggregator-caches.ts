/**
 * The informer caches the aggregator reads: APIServices, and the Services, Endpoints and EndpointSlices that
 * locate their backends. Changes are reported per affected APIService name, so the availability controller can
 * re-check exactly those.
 */

import type { KubeObject } from '../api/types.js';
import type { InformerFactory } from '../cache/informer-factory.js';
import type { SharedInformer } from '../cache/shared-informer.js';
import { APISERVICES, type ApiServiceEntry, ENDPOINT_SLICES, ENDPOINTS, parseApiService, SERVICES } from './api-service.js';
import { SERVICE_NAME_LABEL, type ServiceLookups } from './endpoint-resolver.js';

const SLICES_BY_SERVICE = 'aggregator-service-name';

export interface AggregatorCaches {
  readonly lookups: ServiceLookups;
  apiServiceObject(name: string): KubeObject | undefined;
  apiService(name: string): ApiServiceEntry | undefined;
  apiServices(): ApiServiceEntry[];
  /** Calls `listener` with the APIService names a change concerns; returns the unsubscribe function. */
  onChange(listener: (apiServiceNames: readonly string[]) => void): () => void;
  whenSynced(): Promise<boolean>;
}

function sliceServiceKey(obj: KubeObject): string[] {
  const service = obj.metadata.labels?.[SERVICE_NAME_LABEL];
  return service === undefined ? [] : [`${obj.metadata.namespace ?? ''}/${service}`];
}

export function createAggregatorCaches(informers: InformerFactory): AggregatorCaches {
  const apiServices = informers.informerFor(APISERVICES);
  const services = informers.informerFor(SERVICES);
  const endpoints = informers.informerFor(ENDPOINTS);
  const slices = informers.informerFor(ENDPOINT_SLICES);
  slices.addIndexers({ [SLICES_BY_SERVICE]: sliceServiceKey });
  const listeners = new Set<(names: readonly string[]) => void>();
  const emit = (names: readonly string[]): void => {
    if (names.length === 0) return;
    for (const listener of listeners) listener(names);
  };

  const entries = (): ApiServiceEntry[] => apiServices.store.list().map(parseApiService);
  /** APIServices whose backend is the Service namespace/name. */
  const referencing = (namespace: string, name: string): string[] =>
    entries()
      .filter((e) => e.service !== undefined && e.service.namespace === namespace && e.service.name === name)
      .map((e) => e.name);

  apiServices.addEventHandler({
    onAdd: (obj) => emit([obj.metadata.name ?? '']),
    onUpdate: (_old, obj) => emit([obj.metadata.name ?? '']),
    onDelete: (obj) => emit([obj.metadata.name ?? '']),
  });
  const watchBackends = (informer: SharedInformer, serviceNameOf: (obj: KubeObject) => string | undefined): void => {
    const changed = (obj: KubeObject): void => {
      const name = serviceNameOf(obj);
      if (name !== undefined) emit(referencing(obj.metadata.namespace ?? '', name));
    };
    informer.addEventHandler({ onAdd: changed, onUpdate: (_old, obj) => changed(obj), onDelete: changed });
  };
  watchBackends(services, (obj) => obj.metadata.name);
  watchBackends(endpoints, (obj) => obj.metadata.name);
  watchBackends(slices, (obj) => obj.metadata.labels?.[SERVICE_NAME_LABEL]);

  return {
    lookups: {
      service: (namespace, name) => services.store.get(namespace, name),
      endpoints: (namespace, name) => endpoints.store.get(namespace, name),
      endpointSlices: (namespace, serviceName) => slices.store.byIndex(SLICES_BY_SERVICE, `${namespace}/${serviceName}`),
    },
    apiServiceObject: (name) => apiServices.store.get(undefined, name),
    apiService(name) {
      const obj = apiServices.store.get(undefined, name);
      return obj === undefined ? undefined : parseApiService(obj);
    },
    apiServices: entries,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async whenSynced() {
      const synced = await Promise.all([apiServices, services, endpoints, slices].map((i) => i.whenSynced()));
      return synced.every(Boolean);
    },
  };
}
