import type { KubeObject } from '../../api/types.js';
import { DEPLOYMENTS, type DeploymentContext } from './context.js';
import { cleanupOldReplicaSets, replicaSetsAndSyncRevision, newRSNewReplicas, scaleReplicaSet } from './replica-sets.js';
import {
  calculateStatus,
  getCondition,
  isComplete,
  isProgressing,
  isTimedOut,
  NEW_RS_AVAILABLE,
  newCondition,
  PAUSED,
  PROGRESSING,
  progressDeadline,
  REPLICA_FAILURE,
  RESUMED,
  removeCondition,
  sameStatus,
  setCondition,
  TIMED_OUT,
  type DeploymentStatus,
  type Condition,
  conditionsOf,
} from './status.js';
import {
  active,
  byCreation,
  created,
  desiredReplicasAnnotation,
  hasProgressDeadline,
  isRollingUpdate,
  maxReplicasAnnotation,
  maxSurge,
  maxUnavailable,
  replicasOf,
  roundHalfAway,
  specOf,
  statusCount,
  statusOf,
  sumOf,
} from './util.js';
import { podPhase } from '../workloads/pods.js';

const withNew = (oldRSs: readonly KubeObject[], newRS: KubeObject | undefined): KubeObject[] =>
  newRS === undefined ? [...oldRSs] : [...oldRSs, newRS];

/** Replaces one ReplicaSet in a list by its updated form. */
const replace = (list: KubeObject[], updated: KubeObject): KubeObject[] =>
  list.map((rs) => (rs.metadata.uid === updated.metadata.uid ? updated : rs));

/** rolloutRolling (R12.53, R12.54). */
export async function rolloutRolling(ctx: DeploymentContext, d0: KubeObject, rsList: readonly KubeObject[]): Promise<void> {
  let { d, newRS, oldRSs } = await replicaSetsAndSyncRevision(ctx, d0, rsList, true);
  // Scale up the new ReplicaSet within maxSurge.
  if (newRS !== undefined && replicasOf(newRS) !== replicasOf(d)) {
    const size = replicasOf(newRS) > replicasOf(d) ? replicasOf(d) : newRSNewReplicas(d, withNew(oldRSs, newRS), newRS);
    if (size !== replicasOf(newRS)) {
      newRS = await scaleReplicaSet(ctx, newRS, size, d);
      return syncRolloutStatus(ctx, d, withNew(oldRSs, newRS), newRS);
    }
  }
  // Scale old ReplicaSets down within maxUnavailable.
  const scaledDown = await reconcileOldReplicaSets(ctx, d, oldRSs, newRS);
  if (scaledDown !== undefined) return syncRolloutStatus(ctx, d, withNew(scaledDown, newRS), newRS);
  if (isComplete(d, statusOf(d))) await cleanupOldReplicaSets(ctx, oldRSs, d);
  return syncRolloutStatus(ctx, d, withNew(oldRSs, newRS), newRS);
}

/** reconcileOldReplicaSets: the old ReplicaSets after scaling, or undefined when none changed. */
async function reconcileOldReplicaSets(
  ctx: DeploymentContext,
  d: KubeObject,
  oldRSs: KubeObject[],
  newRS: KubeObject | undefined,
): Promise<KubeObject[] | undefined> {
  const activeOld = active(oldRSs);
  if (sumOf(activeOld, replicasOf) === 0) return undefined;
  const all = withNew(oldRSs, newRS);
  const minAvailable = replicasOf(d) - maxUnavailable(d);
  const newUnavailable = newRS === undefined ? 0 : replicasOf(newRS) - statusCount(newRS, 'availableReplicas');
  const maxScaledDown = sumOf(all, replicasOf) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return undefined;
  let result = [...oldRSs];
  let changed = false;
  // First the unhealthy replicas of old ReplicaSets, oldest first.
  let cleaned = 0;
  for (const rs of [...activeOld].sort(byCreation)) {
    if (cleaned >= maxScaledDown) break;
    const unhealthy = replicasOf(rs) - statusCount(rs, 'availableReplicas');
    if (replicasOf(rs) === 0 || unhealthy <= 0) continue;
    const count = Math.min(maxScaledDown - cleaned, unhealthy);
    result = replace(result, await scaleReplicaSet(ctx, rs, replicasOf(rs) - count, d));
    cleaned += count;
    changed = true;
  }
  // Then available ones, as far as the available total exceeds minAvailable.
  const available = sumOf(withNew(result, newRS), (rs) => statusCount(rs, 'availableReplicas'));
  if (available > minAvailable) {
    const total = available - minAvailable;
    let scaled = 0;
    for (const rs of active(result).sort(byCreation)) {
      if (scaled >= total) break;
      if (replicasOf(rs) === 0) continue;
      const count = Math.min(replicasOf(rs), total - scaled);
      result = replace(result, await scaleReplicaSet(ctx, rs, replicasOf(rs) - count, d));
      scaled += count;
      changed = true;
    }
  }
  return changed ? result : undefined;
}

/** rolloutRecreate (R12.55): old ReplicaSets to zero, wait for their pods to finish, then the new one at full size. */
export async function rolloutRecreate(ctx: DeploymentContext, d0: KubeObject, rsList: readonly KubeObject[]): Promise<void> {
  let { d, newRS, oldRSs } = await replicaSetsAndSyncRevision(ctx, d0, rsList, false);
  let scaledDown = false;
  for (const rs of active(oldRSs)) {
    oldRSs = replace(oldRSs, await scaleReplicaSet(ctx, rs, 0, d));
    scaledDown = true;
  }
  if (scaledDown || oldPodsRunning(ctx, oldRSs)) return syncRolloutStatus(ctx, d, withNew(oldRSs, newRS), newRS);
  if (newRS === undefined) ({ d, newRS, oldRSs } = await replicaSetsAndSyncRevision(ctx, d, rsList, true));
  if (newRS !== undefined) newRS = await scaleReplicaSet(ctx, newRS, replicasOf(d), d);
  if (isComplete(d, statusOf(d))) await cleanupOldReplicaSets(ctx, oldRSs, d);
  return syncRolloutStatus(ctx, d, withNew(oldRSs, newRS), newRS);
}

/** oldPodsRunning: an old ReplicaSet still reports replicas, or has a pod that has not finished. */
function oldPodsRunning(ctx: DeploymentContext, oldRSs: readonly KubeObject[]): boolean {
  if (sumOf(oldRSs, (rs) => statusCount(rs, 'replicas')) > 0) return true;
  return oldRSs.some((rs) => ctx.podsOf(rs.metadata.uid ?? '').some((pod) => podPhase(pod) !== 'Failed' && podPhase(pod) !== 'Succeeded'));
}

/** isScalingEvent: an active ReplicaSet was sized for another replica count than the Deployment's. */
export function isScalingEvent(d: KubeObject, rsList: readonly KubeObject[]): boolean {
  return active(rsList).some((rs) => {
    const desired = desiredReplicasAnnotation(rs);
    return desired !== undefined && desired !== replicasOf(d);
  });
}

/** sync: scaling only (paused Deployments and replica count changes mid-rollout), then status. */
export async function scalingSync(ctx: DeploymentContext, d0: KubeObject, rsList: readonly KubeObject[]): Promise<void> {
  const { d, newRS: found, oldRSs: olds } = await replicaSetsAndSyncRevision(ctx, d0, rsList, false);
  let newRS = found;
  let oldRSs = olds;
  const sizes = await scale(ctx, d, newRS, oldRSs);
  for (const rs of sizes) {
    if (rs.metadata.uid === newRS?.metadata.uid) newRS = rs;
    else oldRSs = replace(oldRSs, rs);
  }
  if (specOf(d).paused === true) await cleanupOldReplicaSets(ctx, oldRSs, d);
  await syncDeploymentStatus(ctx, d, withNew(oldRSs, newRS), newRS);
}

/** scale (R12.57): returns the ReplicaSets it resized. */
async function scale(
  ctx: DeploymentContext,
  d: KubeObject,
  newRS: KubeObject | undefined,
  oldRSs: readonly KubeObject[],
): Promise<KubeObject[]> {
  const replicas = replicasOf(d);
  const activeAll = active(withNew(oldRSs, newRS));
  const only =
    activeAll.length === 0
      ? (newRS ?? [...oldRSs].sort((a, b) => created(b) - created(a))[0])
      : activeAll.length === 1
        ? activeAll[0]
        : undefined;
  if (only !== undefined) return replicasOf(only) === replicas ? [] : [await scaleReplicaSet(ctx, only, replicas, d)];
  if (activeAll.length === 0) return [];
  const saturated =
    newRS !== undefined &&
    desiredReplicasAnnotation(newRS) === replicas &&
    replicasOf(newRS) === replicas &&
    statusCount(newRS, 'availableReplicas') === replicas;
  if (saturated) {
    const out: KubeObject[] = [];
    for (const rs of active(oldRSs)) out.push(await scaleReplicaSet(ctx, rs, 0, d));
    return out;
  }
  if (!isRollingUpdate(d)) return [];
  const allowed = replicas === 0 ? 0 : replicas + maxSurge(d);
  const toAdd = allowed - sumOf(activeAll, replicasOf);
  // Larger first; on ties newer first when growing, older first when shrinking.
  const sorted = [...activeAll].sort(
    (a, b) => replicasOf(b) - replicasOf(a) || (toAdd > 0 ? created(b) - created(a) : created(a) - created(b)),
  );
  const sizes = new Map<KubeObject, number>();
  let added = 0;
  for (const rs of sorted) {
    let proportion = 0;
    if (toAdd !== 0 && toAdd !== added && replicasOf(rs) !== 0) {
      const fraction = replicaSetFraction(rs, d);
      proportion = toAdd > 0 ? Math.min(fraction, toAdd - added) : Math.max(fraction, toAdd - added);
    }
    sizes.set(rs, replicasOf(rs) + proportion);
    added += proportion;
  }
  const out: KubeObject[] = [];
  for (const [i, rs] of sorted.entries()) {
    let size = sizes.get(rs) ?? 0;
    if (i === 0 && toAdd !== 0) size = Math.max(0, size + toAdd - added);
    out.push(await scaleReplicaSet(ctx, rs, size, d));
  }
  return out;
}

/** getReplicaSetFraction: this ReplicaSet's share of the new total, from the max-replicas it was sized for. */
function replicaSetFraction(rs: KubeObject, d: KubeObject): number {
  if (replicasOf(d) === 0) return -replicasOf(rs);
  const target = replicasOf(d) + maxSurge(d);
  const annotated = maxReplicasAnnotation(rs) ?? statusCount(d, 'replicas');
  return roundHalfAway((replicasOf(rs) * target) / annotated) - replicasOf(rs);
}

/** ReplicaFailure of the new ReplicaSet, else of any old one, copied to the Deployment (R12.66). */
function copyReplicaFailure(status: DeploymentStatus, all: readonly KubeObject[], newRS: KubeObject | undefined, now: number): void {
  const ordered = newRS === undefined ? all : [newRS, ...all.filter((rs) => rs !== newRS)];
  for (const rs of ordered) {
    const failure = getCondition(statusOf(rs), REPLICA_FAILURE);
    if (failure !== undefined) {
      setCondition(status, newCondition(REPLICA_FAILURE, failure.status, String(failure.reason ?? ''), String(failure.message ?? ''), now));
      return;
    }
  }
  removeCondition(status, REPLICA_FAILURE);
}

async function writeStatus(ctx: DeploymentContext, d: KubeObject, status: DeploymentStatus): Promise<void> {
  await ctx.client.update(DEPLOYMENTS, d.metadata.namespace, { ...d, status }, 'status');
}

/** syncDeploymentStatus: status without touching the Progressing condition. */
async function syncDeploymentStatus(
  ctx: DeploymentContext,
  d: KubeObject,
  all: readonly KubeObject[],
  newRS: KubeObject | undefined,
): Promise<void> {
  const status = calculateStatus(d, all, newRS, ctx.now());
  if (!sameStatus(statusOf(d), status)) await writeStatus(ctx, d, status);
}

/** syncStatusOnly, for a Deployment being deleted (R12.33). */
export async function statusOnlySync(ctx: DeploymentContext, d0: KubeObject, rsList: readonly KubeObject[]): Promise<void> {
  const { d, newRS, oldRSs } = await replicaSetsAndSyncRevision(ctx, d0, rsList, false);
  await syncDeploymentStatus(ctx, d, withNew(oldRSs, newRS), newRS);
}

/** syncRolloutStatus (R12.63–R12.65): status with Progressing, and a requeue at the progress deadline. */
async function syncRolloutStatus(
  ctx: DeploymentContext,
  d: KubeObject,
  all: readonly KubeObject[],
  newRS: KubeObject | undefined,
): Promise<void> {
  const now = ctx.now();
  const status = calculateStatus(d, all, newRS, now);
  if (!hasProgressDeadline(d)) removeCondition(status, PROGRESSING);
  const current = getCondition(status, PROGRESSING);
  const completeBefore = status.replicas === status.updatedReplicas && current?.reason === NEW_RS_AVAILABLE;
  if (hasProgressDeadline(d) && !completeBefore) {
    const rsName = newRS?.metadata.name;
    if (isComplete(d, status)) {
      const message =
        rsName === undefined ? 'Deployment has successfully progressed.' : `ReplicaSet "${rsName}" has successfully progressed.`;
      setCondition(status, newCondition(PROGRESSING, 'True', NEW_RS_AVAILABLE, message, now));
    } else if (isProgressing(d, status)) {
      const message = rsName === undefined ? 'Deployment is progressing.' : `ReplicaSet "${rsName}" is progressing.`;
      const condition: Condition = newCondition(PROGRESSING, 'True', 'ReplicaSetUpdated', message, now);
      // Progress refreshes lastUpdateTime on every sync; the transition time stays while it is True.
      if (current?.status === 'True') condition.lastTransitionTime = current.lastTransitionTime;
      removeCondition(status, PROGRESSING);
      setCondition(status, condition);
    } else if (isTimedOut(d, status, now)) {
      const message = rsName === undefined ? 'Deployment has timed out progressing.' : `ReplicaSet "${rsName}" has timed out progressing.`;
      setCondition(status, newCondition(PROGRESSING, 'False', TIMED_OUT, message, now));
    }
  }
  copyReplicaFailure(status, all, newRS, now);
  if (!sameStatus(statusOf(d), status)) {
    await writeStatus(ctx, d, status);
    return;
  }
  // Nothing changed: look again when the deadline passes, so it is noticed without another event.
  const deadline = progressDeadline(d, status);
  if (deadline !== undefined && !isComplete(d, status)) ctx.requeueAfter(d, Math.max(0, deadline - now) + 1000);
}

/** checkPausedConditions (R12.58). */
export async function checkPausedConditions(ctx: DeploymentContext, d: KubeObject): Promise<KubeObject> {
  if (!hasProgressDeadline(d)) return d;
  const status: DeploymentStatus = { ...statusOf(d) };
  const current = getCondition(status, PROGRESSING);
  if (current?.reason === TIMED_OUT) return d;
  const pausedShown = current?.reason === PAUSED;
  const paused = specOf(d).paused === true;
  if (paused && !pausedShown) setCondition(status, newCondition(PROGRESSING, 'Unknown', PAUSED, 'Deployment is paused', ctx.now()));
  else if (!paused && pausedShown) setCondition(status, newCondition(PROGRESSING, 'Unknown', RESUMED, 'Deployment is resumed', ctx.now()));
  else return d;
  if (conditionsOf(status).length === 0) delete status.conditions;
  return ctx.client.update(DEPLOYMENTS, d.metadata.namespace, { ...d, status }, 'status');
}
