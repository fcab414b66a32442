import type { ApiClient } from '../client/interface.js';
import { GarbageCollector } from './garbage-collector/controller.js';
import { NamespaceController } from './namespace/controller.js';

export interface ControllerManagerOptions {
  readonly client: ApiClient;
  /** --enable-garbage-collector (default true). */
  readonly garbageCollector?: boolean;
  /** --concurrent-gc-syncs (default 20). */
  readonly gcWorkers?: number;
  /** --strict-block-owner-deletion (default false: Kubernetes' behaviour, debt D1). */
  readonly strictBlockOwnerDeletion?: boolean;
  /** Run the namespace controller (default true). */
  readonly namespaceController?: boolean;
  /** --concurrent-namespace-syncs (default 10). */
  readonly namespaceWorkers?: number;
  readonly log?: (message: string) => void;
}

/** The controllers running next to the API server (kube-controller-manager's role), each using only the client. */
export class ControllerManager {
  readonly garbageCollector: GarbageCollector | undefined;
  readonly namespaceController: NamespaceController | undefined;

  constructor(options: ControllerManagerOptions) {
    this.garbageCollector =
      options.garbageCollector === false
        ? undefined
        : new GarbageCollector({
            client: options.client,
            workers: options.gcWorkers,
            strictBlockOwnerDeletion: options.strictBlockOwnerDeletion,
            log: options.log,
          });
    this.namespaceController =
      options.namespaceController === false ? undefined : new NamespaceController({ client: options.client, workers: options.namespaceWorkers, log: options.log });
  }

  async start(): Promise<void> {
    await Promise.all([this.garbageCollector?.start(), this.namespaceController?.start()]);
  }

  async stop(): Promise<void> {
    await Promise.all([this.garbageCollector?.stop(), this.namespaceController?.stop()]);
  }
}
