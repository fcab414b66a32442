import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';

const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };
const CONFIG_MAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps' };

/** kube-controller-manager's root-ca-cert-publisher: the ConfigMap's name, its one key and its annotation. */
export const ROOT_CA_CONFIG_MAP = 'kube-root-ca.crt';
export const ROOT_CA_KEY = 'ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

/**
 * Keeps a `kube-root-ca.crt` ConfigMap holding the cluster CA in every active namespace: created with the namespace,
 * created again when deleted, and put back when its data or description annotation is changed (other annotations
 * and labels a user adds are kept), as kube-controller-manager's publisher does.
 */
export class RootCaPublisher {
  private readonly client: ApiClient;
  private readonly rootCa: string;
  private readonly namespaces: SharedInformer;
  private readonly configMaps: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly log: (message: string) => void;
  private worker: Promise<void> | undefined;

  constructor(client: ApiClient, rootCa: string, log: (message: string) => void = () => {}) {
    this.client = client;
    this.rootCa = rootCa;
    this.log = log;
    this.namespaces = createSharedInformer(client, NAMESPACES, undefined);
    // Only the published ConfigMaps are watched and cached, not every ConfigMap of the cluster.
    this.configMaps = createSharedInformer(client, CONFIG_MAPS, undefined, { fieldSelector: `metadata.name=${ROOT_CA_CONFIG_MAP}` });
    this.namespaces.addEventHandler({
      onAdd: (ns) => this.queue.add(ns.metadata.name ?? ''),
      onUpdate: (_old, ns) => this.queue.add(ns.metadata.name ?? ''),
    });
    const requeue = (cm: KubeObject): void => this.queue.add(cm.metadata.namespace ?? '');
    this.configMaps.addEventHandler({ onUpdate: (_old, cm) => requeue(cm), onDelete: requeue });
  }

  async start(): Promise<void> {
    this.namespaces.start();
    this.configMaps.start();
    await Promise.all([this.namespaces.whenSynced(), this.configMaps.whenSynced()]);
    this.worker = this.run();
  }

  private async run(): Promise<void> {
    for (;;) {
      const namespace = await this.queue.get();
      if (namespace === undefined) return;
      try {
        await this.sync(namespace);
        this.queue.forget(namespace);
      } catch (err) {
        this.log(`root-ca-cert-publisher: ${namespace}: ${err instanceof Error ? err.message : String(err)}`);
        // Retried with the queue's per-item back-off, as the Kubernetes controller retries a failed sync.
        this.queue.addRateLimited(namespace);
      } finally {
        this.queue.done(namespace);
      }
    }
  }

  private async sync(namespace: string): Promise<void> {
    const ns = this.namespaces.store.get(undefined, namespace);
    const phase = ns !== undefined && isObject(ns.status) ? ns.status.phase : undefined;
    if (ns === undefined || ns.metadata.deletionTimestamp !== undefined || phase === 'Terminating') return;
    const current = this.configMaps.store.get(namespace, ROOT_CA_CONFIG_MAP);
    try {
      if (current === undefined) {
        await this.client.create(CONFIG_MAPS, namespace, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: ROOT_CA_CONFIG_MAP, namespace, annotations: { [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION } },
          data: { [ROOT_CA_KEY]: this.rootCa },
        });
        return;
      }
      if (this.isCurrent(current)) return;
      const updated: KubeObject = {
        ...current,
        metadata: {
          ...current.metadata,
          annotations: { ...(current.metadata.annotations ?? {}), [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION },
        },
        data: { [ROOT_CA_KEY]: this.rootCa },
      };
      delete (updated as Record<string, unknown>).binaryData;
      await this.client.update(CONFIG_MAPS, namespace, updated);
    } catch (err) {
      // Already created (the cache lagged), changed meanwhile (its update event queues another pass), or the
      // namespace began terminating or vanished: nothing more to do now.
      if (err instanceof StatusError && [409, 403, 404].includes(err.code)) return;
      throw err;
    }
  }

  private isCurrent(cm: KubeObject): boolean {
    const data = isObject(cm.data) ? cm.data : {};
    const keys = Object.keys(data);
    return (
      keys.length === 1 &&
      data[ROOT_CA_KEY] === this.rootCa &&
      cm.binaryData === undefined &&
      cm.metadata.annotations?.[DESCRIPTION_ANNOTATION] === ROOT_CA_DESCRIPTION
    );
  }

  async stop(): Promise<void> {
    await Promise.all([this.namespaces.stop(), this.configMaps.stop()]);
    this.queue.shutDown();
    await this.worker;
  }
}
