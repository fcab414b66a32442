import type { KubeObject } from '../../api/types.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import type { EventRecorder } from '../workloads/events.js';

export const DEPLOYMENTS: ResourceRef = { group: 'apps', version: 'v1', resource: 'deployments' };
export const REPLICA_SETS: ResourceRef = { group: 'apps', version: 'v1', resource: 'replicasets' };

/** What the sync functions need from the controller: its client, clock, events, caches and requeueing. */
export interface DeploymentContext {
  readonly client: ApiClient;
  readonly now: () => number;
  readonly record: EventRecorder;
  /** A cached ReplicaSet by namespace and name. */
  readonly cachedReplicaSet: (namespace: string | undefined, name: string) => KubeObject | undefined;
  /** Cached pods controlled by the ReplicaSet with this uid. */
  readonly podsOf: (rsUid: string) => KubeObject[];
  /** Sync the Deployment again after this many ms. */
  readonly requeueAfter: (d: KubeObject, ms: number) => void;
}
