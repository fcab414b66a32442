import { isObject, type KubeObject } from '../../api/types.js';
import { templateOf } from '../history/controller-history.js';
import { numberOr } from '../workloads/pods.js';
import {
  isCreated,
  isFinished,
  isHealthy,
  isRunningAndAvailable,
  isRunningAndReady,
  isTerminating,
  newStatefulSetPod,
  parentAndOrdinal,
  podRevision,
  replicaCount,
  specOf,
  startOrdinal,
} from './identity.js';
import { computeStatus, type SetStatus } from './status.js';

/** The writes a sync makes for one pod, each recording its event on the set (StatefulPodControl). */
export interface StatefulPodControl {
  /** Creates the pod's missing claims, then the pod. */
  createPod(set: KubeObject, pod: KubeObject): Promise<void>;
  /** Creates whatever claims of a Pending pod are missing. */
  createMissingClaims(set: KubeObject, pod: KubeObject): Promise<void>;
  /** True when one of the pod's claims is being deleted: the pod must wait for it to go (PodClaimIsStale). */
  claimIsStale(set: KubeObject, pod: KubeObject): boolean;
  deletePod(set: KubeObject, pod: KubeObject): Promise<void>;
  /** Fixes the identity labels of a pod and the retention owner references of its claims, when they differ. */
  reconcilePod(set: KubeObject, pod: KubeObject): Promise<void>;
  /** Fixes the retention owner references of a condemned pod's claims before it goes. */
  reconcileClaims(set: KubeObject, pod: KubeObject): Promise<void>;
}

export interface Revisions {
  readonly current: KubeObject;
  readonly update: KubeObject;
  readonly collisionCount: number;
}

/** Runs fn over indexes in batches of 1, 2, 4, …, stopping after a batch with a failure (slowStartBatch). */
async function slowStartAll(count: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  for (let size = 1; next < count; size *= 2) {
    const batch = Array.from({ length: Math.min(size, count - next) }, (_, k) => next + k);
    next += batch.length;
    const results = await Promise.allSettled(batch.map((i) => fn(i)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }
}

/** runForAll: one after the other until one says stop (OrderedReady), or all at once in slow-start batches. */
async function runForAll(count: number, fn: (i: number) => Promise<boolean>, monotonic: boolean): Promise<boolean> {
  if (!monotonic) {
    await slowStartAll(count, fn);
    return false;
  }
  for (let i = 0; i < count; i++) if (await fn(i)) return true;
  return false;
}

function rollingPartition(set: KubeObject): number | undefined {
  const strategy = specOf(set).updateStrategy;
  if (!isObject(strategy) || (strategy.type ?? 'RollingUpdate') !== 'RollingUpdate') return undefined;
  return isObject(strategy.rollingUpdate) ? numberOr(strategy.rollingUpdate.partition, 0) : 0;
}

/**
 * updateStatefulSet (stateful_set_control.go, R12.78–R12.87): creates missing pods (ordered or in parallel),
 * replaces finished ones, deletes condemned ones highest ordinal first, and rolls the update revision out from
 * the highest ordinal down to the partition, one pod at a time. Returns the status the pods now give.
 */
export async function updateStatefulSet(
  set: KubeObject,
  revisions: Revisions,
  pods: readonly KubeObject[],
  control: StatefulPodControl,
  now: number,
): Promise<SetStatus> {
  const start = startOrdinal(set);
  const count = replicaCount(set);
  const minReadySeconds = numberOr(specOf(set).minReadySeconds, 0);
  const currentName = revisions.current.metadata.name ?? '';
  const updateName = revisions.update.metadata.name ?? '';
  const currentTemplate = templateOf(revisions.current);
  const updateTemplate = templateOf(revisions.update);
  const partition = rollingPartition(set);
  const replicas: KubeObject[] = new Array(count);
  const condemned: KubeObject[] = [];
  for (const pod of pods) {
    const { ordinal } = parentAndOrdinal(pod);
    if (ordinal >= start && ordinal < start + count) replicas[ordinal - start] = pod;
    else if (ordinal >= 0) condemned.push(pod);
  }
  for (let i = 0; i < count; i++) {
    if (replicas[i] !== undefined) continue;
    // Below the partition pods keep the current revision; the rest, and every pod under OnDelete, get the update.
    const current = partition !== undefined && i < partition;
    replicas[i] = newStatefulSetPod(set, current ? currentTemplate : updateTemplate, current ? currentName : updateName, start + i);
  }
  condemned.sort((a, b) => parentAndOrdinal(b).ordinal - parentAndOrdinal(a).ordinal);
  const firstUnhealthy = [...replicas, ...condemned].find((pod) => !isHealthy(pod));
  const status = (): SetStatus =>
    computeStatus(
      set,
      [...replicas, ...condemned],
      { current: currentName, update: updateName, collisionCount: revisions.collisionCount },
      now,
    );
  if (set.metadata.deletionTimestamp !== undefined) return status();
  const monotonic = specOf(set).podManagementPolicy !== 'Parallel';

  const processReplica = async (i: number): Promise<boolean> => {
    const pod = replicas[i] as KubeObject;
    if (isFinished(pod)) {
      // Recreated under the same name once the finished pod is gone (R12.83).
      if (!isTerminating(pod)) await control.deletePod(set, pod);
      return true;
    }
    if (!isCreated(pod)) {
      if (control.claimIsStale(set, pod)) return true;
      await control.createPod(set, pod);
      replicas[i] = { ...pod, status: { phase: 'Pending' } };
      return monotonic;
    }
    if (pod.status !== undefined && isObject(pod.status) && pod.status.phase === 'Pending') await control.createMissingClaims(set, pod);
    if (monotonic && (isTerminating(pod) || !isRunningAndReady(pod) || !isRunningAndAvailable(pod, minReadySeconds, now))) return true;
    await control.reconcilePod(set, pod);
    return false;
  };
  if (await runForAll(count, processReplica, monotonic)) return status();

  const processCondemned = async (i: number): Promise<boolean> => {
    const pod = condemned[i] as KubeObject;
    await control.reconcileClaims(set, pod);
    if (isTerminating(pod)) return monotonic;
    // Every predecessor must be healthy, unless this pod is itself the first unhealthy one (R12.84).
    const healthy = isRunningAndReady(pod) && isRunningAndAvailable(pod, minReadySeconds, now);
    if (monotonic && !healthy && pod !== firstUnhealthy) return true;
    await control.deletePod(set, pod);
    condemned[i] = { ...pod, metadata: { ...pod.metadata, deletionTimestamp: new Date(now).toISOString() } };
    return monotonic;
  };
  if (await runForAll(condemned.length, processCondemned, monotonic)) return status();

  if (partition === undefined) return status();
  // Rolling update: the highest ordinal at or above the partition not yet at the update revision goes (R12.85).
  for (let target = replicas.length - 1; target >= partition; target--) {
    const pod = replicas[target] as KubeObject;
    if (podRevision(pod) !== updateName && !isTerminating(pod)) {
      await control.deletePod(set, pod);
      replicas[target] = { ...pod, metadata: { ...pod.metadata, deletionTimestamp: new Date(now).toISOString() } };
      return status();
    }
    if (!isHealthy(pod)) return status();
  }
  return status();
}
