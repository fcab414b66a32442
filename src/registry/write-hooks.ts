import type { KubeObject } from '../api/types.js';

/** Settles what `beginCreate` began: keep it (the object was stored) or undo it (the create failed or was a dry run). */
export type FinishCreate = (stored: boolean) => Promise<void>;

/**
 * Steps a resource's REST storage adds around the generic store's writes, as Kubernetes' storage wraps its
 * genericregistry.Store (BeginCreate, AfterDelete). Unlike the strategy they may do I/O, and what they do follows
 * the write's outcome; admission plugins never write storage.
 */
export interface WriteHooks {
  /**
   * Runs after the mutating admission plugins and before the object's validation; may fill the object (an
   * allocated address). The store calls the returned function once the create is settled, on every path.
   */
  beginCreate?(obj: KubeObject, dryRun: boolean): Promise<FinishCreate>;
  /** Runs once the object has left storage, whichever path removed it (DELETE, last finalizer dropped by an update). */
  afterRemove?(obj: KubeObject): Promise<void>;
}
