import type { KubeObject } from '../api/types.js';

/** Settles what `beginCreate` or `beginUpdate` began: keep it (the object was written) or undo it (the write failed). */
export type FinishWrite = (stored: boolean) => Promise<void>;

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
  beginCreate?(obj: KubeObject, dryRun: boolean): Promise<FinishWrite>;
  /** The same for an update of the resource itself (not /status), after prepareForUpdate and before validation. */
  beginUpdate?(next: KubeObject, old: KubeObject, dryRun: boolean): Promise<FinishWrite>;
  /** Runs once the object has left storage, whichever path removed it (DELETE, last finalizer dropped by an update). */
  afterRemove?(obj: KubeObject): Promise<void>;
}
