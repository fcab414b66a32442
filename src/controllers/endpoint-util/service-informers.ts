import type { KubeObject } from '../../api/types.js';
import { objectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import { NAMESPACE_INDEX, namespaceIndexFunc } from '../../cache/store.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { selectorMatches, servicesForPod, servicesForPodUpdate } from './pods.js';

const SERVICES: ResourceRef = { group: '', version: 'v1', resource: 'services' };
const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };

/**
 * The Service and pod informers both endpoint controllers keep, with the handlers that turn Service and pod
 * changes into Service keys to sync: a pod wakes the Services selecting it (before and after a relabel).
 */
export class ServicePodInformers {
  readonly services: SharedInformer;
  readonly pods: SharedInformer;

  constructor(client: ApiClient, enqueue: (serviceKey: string) => void, onError: (err: unknown) => void) {
    const indexers = { [NAMESPACE_INDEX]: namespaceIndexFunc };
    this.services = createSharedInformer(client, SERVICES, undefined, { indexers, onError });
    this.pods = createSharedInformer(client, PODS, undefined, { indexers, onError });
    const wake = (services: readonly KubeObject[]): void => {
      for (const service of services) enqueue(objectKey(service));
    };
    this.services.addEventHandler({
      onAdd: (service) => enqueue(objectKey(service)),
      onUpdate: (_old, service) => enqueue(objectKey(service)),
      onDelete: (service) => enqueue(objectKey(service)),
    });
    this.pods.addEventHandler({
      onAdd: (pod) => wake(servicesForPod(this.servicesIn(pod), pod)),
      onUpdate: (old, pod) => wake(servicesForPodUpdate(this.servicesIn(pod), old, pod)),
      onDelete: (pod) => wake(servicesForPod(this.servicesIn(pod), pod)),
    });
  }

  private servicesIn(pod: KubeObject): KubeObject[] {
    return this.services.store.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '');
  }

  /** The pods a managed Service's selector matches, in its namespace. */
  podsFor(service: KubeObject, selector: Readonly<Record<string, string>>): KubeObject[] {
    return this.pods.store
      .byIndex(NAMESPACE_INDEX, service.metadata.namespace ?? '')
      .filter((pod) => selectorMatches(selector, pod.metadata.labels));
  }

  start(): void {
    this.services.start();
    this.pods.start();
  }

  whenSynced(): Promise<boolean[]> {
    return Promise.all([this.services.whenSynced(), this.pods.whenSynced()]);
  }

  async stop(): Promise<void> {
    await Promise.all([this.services.stop(), this.pods.stop()]);
  }
}
