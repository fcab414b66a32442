import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { createQueue, type Queue } from '../../workqueue/queue.js';

const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };
const SERVICE_ACCOUNTS: ResourceRef = { group: '', version: 'v1', resource: 'serviceaccounts' };
const DEFAULT_SERVICE_ACCOUNT = 'default';

/**
 * The service account controller's one job that users notice: every active namespace has a `default`
 * ServiceAccount, created when the namespace appears and again if it is deleted.
 */
export class ServiceAccountController {
  private readonly client: ApiClient;
  private readonly namespaces: SharedInformer;
  private readonly accounts: SharedInformer;
  private readonly queue: Queue<string> = createQueue<string>();
  private readonly log: (message: string) => void;
  private worker: Promise<void> | undefined;

  constructor(client: ApiClient, log: (message: string) => void = () => {}) {
    this.client = client;
    this.log = log;
    this.namespaces = createSharedInformer(client, NAMESPACES, undefined);
    this.accounts = createSharedInformer(client, SERVICE_ACCOUNTS, undefined);
    this.namespaces.addEventHandler({
      onAdd: (ns) => this.queue.add(ns.metadata.name ?? ''),
      onUpdate: (_old, ns) => this.queue.add(ns.metadata.name ?? ''),
    });
    this.accounts.addEventHandler({
      onDelete: (sa) => {
        if (sa.metadata.name === DEFAULT_SERVICE_ACCOUNT) this.queue.add(sa.metadata.namespace ?? '');
      },
    });
  }

  async start(): Promise<void> {
    this.namespaces.start();
    this.accounts.start();
    await Promise.all([this.namespaces.whenSynced(), this.accounts.whenSynced()]);
    this.worker = this.run();
  }

  private async run(): Promise<void> {
    for (;;) {
      const namespace = await this.queue.get();
      if (namespace === undefined) return;
      try {
        await this.ensureDefault(namespace);
      } catch (err) {
        this.log(`serviceaccount controller: ${namespace}: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        this.queue.done(namespace);
      }
    }
  }

  private async ensureDefault(namespace: string): Promise<void> {
    const ns: KubeObject | undefined = this.namespaces.store.get(undefined, namespace);
    const phase = ns !== undefined && isObject(ns.status) ? ns.status.phase : undefined;
    if (ns === undefined || ns.metadata.deletionTimestamp !== undefined || phase === 'Terminating') return;
    if (this.accounts.store.get(namespace, DEFAULT_SERVICE_ACCOUNT) !== undefined) return;
    try {
      await this.client.create(SERVICE_ACCOUNTS, namespace, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace },
      });
    } catch (err) {
      // Already there (the cache lagged), or the namespace began terminating meanwhile: nothing to do.
      if (err instanceof StatusError && (err.code === 409 || err.code === 403 || err.code === 404)) return;
      throw err;
    }
  }

  async stop(): Promise<void> {
    await Promise.all([this.namespaces.stop(), this.accounts.stop()]);
    this.queue.shutDown();
    await this.worker;
  }
}
