import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { controllerRefOf, newControllerRef } from '../workloads/controller-ref.js';
import { numberOr } from '../workloads/pods.js';
import { DEPLOYMENTS, type DeploymentContext, REPLICA_SETS } from './context.js';
import { computeHash } from './hash.js';
import { getCondition, newCondition, PROGRESSING, setCondition, type DeploymentStatus } from './status.js';
import {
  byCreation,
  DESIRED_REPLICAS,
  hasProgressDeadline,
  isRollingUpdate,
  MAX_REPLICAS,
  maxSurge,
  NOT_COPIED,
  POD_TEMPLATE_HASH,
  REVISION,
  REVISION_HISTORY,
  replicasOf,
  revisionOf,
  sameTemplate,
  specOf,
  statusOf,
  sumOf,
} from './util.js';

/** Revision history kept within this many characters (maxRevHistoryLengthInChars). */
const MAX_HISTORY_CHARS = 2000;

export interface ReplicaSets {
  d: KubeObject;
  newRS: KubeObject | undefined;
  oldRSs: KubeObject[];
}

/** FindNewReplicaSet (R12.46): the oldest whose template equals the Deployment's, ignoring the hash label. */
export function findNewReplicaSet(d: KubeObject, rsList: readonly KubeObject[]): KubeObject | undefined {
  return [...rsList].sort(byCreation).find((rs) => sameTemplate(specOf(rs).template, specOf(d).template));
}

/** NewRSNewReplicas (R12.53): how large the new ReplicaSet may be now. */
export function newRSNewReplicas(d: KubeObject, all: readonly KubeObject[], newRS: KubeObject | undefined): number {
  const replicas = replicasOf(d);
  if (!isRollingUpdate(d)) return replicas;
  const current = newRS === undefined ? 0 : replicasOf(newRS);
  const total = sumOf(all, replicasOf);
  const maxTotal = replicas + maxSurge(d);
  if (total >= maxTotal) return current;
  return current + Math.min(maxTotal - total, replicas - current);
}

/** copyDeploymentAnnotationsToReplicaSet plus the revision bump of SetNewReplicaSetAnnotations (R12.48, R12.49). */
function annotateNewReplicaSet(d: KubeObject, annotations: Record<string, string>, revision: number, exists: boolean): boolean {
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (NOT_COPIED.has(k) || annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  const old = annotations[REVISION];
  const oldNumber = old !== undefined && /^\d+$/.test(old) ? Number(old) : 0;
  if (oldNumber < revision) {
    annotations[REVISION] = String(revision);
    changed = true;
    if (old !== undefined && old !== '') {
      let history = annotations[REVISION_HISTORY] ? `${annotations[REVISION_HISTORY]},${old}` : old;
      while (history.length > MAX_HISTORY_CHARS && history.includes(',')) history = history.slice(history.indexOf(',') + 1);
      annotations[REVISION_HISTORY] = history;
    }
  }
  if (!exists) changed = setReplicasAnnotations(d, annotations) || changed;
  return changed;
}

/** SetReplicasAnnotations: desired-replicas and max-replicas (replicas + maxSurge). */
export function setReplicasAnnotations(d: KubeObject, annotations: Record<string, string>): boolean {
  const desired = String(replicasOf(d));
  const max = String(replicasOf(d) + maxSurge(d));
  if (annotations[DESIRED_REPLICAS] === desired && annotations[MAX_REPLICAS] === max) return false;
  annotations[DESIRED_REPLICAS] = desired;
  annotations[MAX_REPLICAS] = max;
  return true;
}

/**
 * getAllReplicaSetsAndSyncRevision: splits the owned ReplicaSets into the new one and the old ones, brings the new
 * one's revision and annotations up to date, and creates it when asked and missing. The Deployment returned is the
 * one last written (its revision annotation and conditions go through /status, R12.3).
 */
export async function replicaSetsAndSyncRevision(
  ctx: DeploymentContext,
  d: KubeObject,
  rsList: readonly KubeObject[],
  create: boolean,
): Promise<ReplicaSets> {
  const existing = findNewReplicaSet(d, rsList);
  const oldRSs = rsList.filter((rs) => rs !== existing);
  const maxOld = Math.max(0, ...oldRSs.map((rs) => revisionOf(rs) ?? 0));
  const revision = maxOld + 1;
  if (existing !== undefined) return { ...(await syncExisting(ctx, d, existing, revision)), oldRSs };
  if (!create) return { d, newRS: undefined, oldRSs };
  return { ...(await createNewReplicaSet(ctx, d, oldRSs, revision)), oldRSs };
}

async function syncExisting(
  ctx: DeploymentContext,
  d: KubeObject,
  rs: KubeObject,
  revision: number,
): Promise<{ d: KubeObject; newRS: KubeObject }> {
  let newRS = rs;
  const annotations = { ...(rs.metadata.annotations ?? {}) };
  const annotationsChanged = annotateNewReplicaSet(d, annotations, revision, true);
  const minReady = numberOr(specOf(d).minReadySeconds, 0);
  if (annotationsChanged || numberOr(specOf(rs).minReadySeconds, 0) !== minReady) {
    const next = { ...rs, metadata: { ...rs.metadata, annotations }, spec: { ...specOf(rs), minReadySeconds: minReady } };
    newRS = await ctx.client.update(REPLICA_SETS, rs.metadata.namespace, next);
  }
  const status: DeploymentStatus = { ...statusOf(d) };
  let needsUpdate = false;
  const rsRevision = newRS.metadata.annotations?.[REVISION];
  const dAnnotations = { ...(d.metadata.annotations ?? {}) };
  if (rsRevision !== undefined && dAnnotations[REVISION] !== rsRevision) {
    dAnnotations[REVISION] = rsRevision;
    needsUpdate = true;
  }
  if (hasProgressDeadline(d) && getCondition(status, PROGRESSING) === undefined) {
    const message = `Found new replica set "${newRS.metadata.name}"`;
    setCondition(status, newCondition(PROGRESSING, 'True', 'FoundNewReplicaSet', message, ctx.now()));
    needsUpdate = true;
  }
  if (!needsUpdate) return { d, newRS };
  const written = await ctx.client.update(
    DEPLOYMENTS,
    d.metadata.namespace,
    { ...d, metadata: { ...d.metadata, annotations: dAnnotations }, status },
    'status',
  );
  return { d: written, newRS };
}

function withHashLabel(labels: unknown, hash: string): Record<string, string> {
  return { ...(isObject(labels) ? (labels as Record<string, string>) : {}), [POD_TEMPLATE_HASH]: hash };
}

async function createNewReplicaSet(
  ctx: DeploymentContext,
  d: KubeObject,
  oldRSs: KubeObject[],
  revision: number,
): Promise<{ d: KubeObject; newRS: KubeObject | undefined }> {
  const spec = specOf(d);
  const template = isObject(spec.template) ? spec.template : {};
  const collisionCount = statusOf(d).collisionCount;
  const hash = computeHash(template, typeof collisionCount === 'number' ? collisionCount : undefined);
  const templateMeta = isObject(template.metadata) ? template.metadata : {};
  const labels = withHashLabel(templateMeta.labels, hash);
  const selector = isObject(spec.selector) ? spec.selector : {};
  const annotations: Record<string, string> = {};
  const name = `${d.metadata.name}-${hash}`;
  const replicas = newRSNewReplicas(d, oldRSs, undefined);
  annotateNewReplicaSet(d, annotations, revision, false);
  const rs: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: d.metadata.namespace, labels, annotations, ownerReferences: [newControllerRef(d)] },
    spec: {
      replicas,
      minReadySeconds: numberOr(spec.minReadySeconds, 0),
      selector: { ...selector, matchLabels: withHashLabel(selector.matchLabels, hash) },
      template: { ...template, metadata: { ...templateMeta, labels } },
    },
  };
  let created: KubeObject;
  try {
    created = await ctx.client.create(REPLICA_SETS, d.metadata.namespace, rs);
  } catch (err) {
    if (err instanceof StatusError && err.code === 409) {
      const found = ctx.cachedReplicaSet(d.metadata.namespace, name);
      // Not in the cache yet: it is most likely our own create seen late; retry once the informer shows it rather
      // than count a collision, which would make a second ReplicaSet for the same template.
      if (found === undefined) throw err;
      // Our own ReplicaSet that the cache had not shown yet: found, not a collision (R12.47).
      if (controllerRefOf(found)?.uid === d.metadata.uid && sameTemplate(specOf(found).template, template)) {
        return syncExisting(ctx, d, found, revision);
      }
      const status = { ...statusOf(d), collisionCount: (typeof collisionCount === 'number' ? collisionCount : 0) + 1 };
      await ctx.client.update(DEPLOYMENTS, d.metadata.namespace, { ...d, status }, 'status');
      throw err;
    }
    if (hasProgressDeadline(d)) {
      const message = `Failed to create new replica set "${name}": ${err instanceof Error ? err.message : String(err)}`;
      ctx.record(d, 'Warning', 'ReplicaSetCreateError', message);
      const status: DeploymentStatus = { ...statusOf(d) };
      setCondition(status, newCondition(PROGRESSING, 'False', 'ReplicaSetCreateError', message, ctx.now()));
      await ctx.client.update(DEPLOYMENTS, d.metadata.namespace, { ...d, status }, 'status');
    }
    throw err;
  }
  if (replicas > 0) ctx.record(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${name} to ${replicas}`);
  const status: DeploymentStatus = { ...statusOf(d) };
  if (hasProgressDeadline(d)) {
    setCondition(status, newCondition(PROGRESSING, 'True', 'NewReplicaSetCreated', `Created new replica set "${name}"`, ctx.now()));
  }
  const dAnnotations = { ...(d.metadata.annotations ?? {}), [REVISION]: String(revision) };
  const written = await ctx.client.update(
    DEPLOYMENTS,
    d.metadata.namespace,
    { ...d, metadata: { ...d.metadata, annotations: dAnnotations }, status },
    'status',
  );
  return { d: written, newRS: created };
}

/** scaleReplicaSet (R12.50): the size and the replicas annotations in one update, and the ScalingReplicaSet event. */
export async function scaleReplicaSet(ctx: DeploymentContext, rs: KubeObject, size: number, d: KubeObject): Promise<KubeObject> {
  const current = replicasOf(rs);
  const annotations = { ...(rs.metadata.annotations ?? {}) };
  const annotationsChanged = setReplicasAnnotations(d, annotations);
  if (current === size && !annotationsChanged) return rs;
  const updated = await ctx.client.update(REPLICA_SETS, rs.metadata.namespace, {
    ...rs,
    metadata: { ...rs.metadata, annotations },
    spec: { ...specOf(rs), replicas: size },
  });
  if (current !== size) {
    const direction = current < size ? 'up' : 'down';
    ctx.record(d, 'Normal', 'ScalingReplicaSet', `Scaled ${direction} replica set ${rs.metadata.name} to ${size} from ${current}`);
  }
  return updated;
}

/** cleanupDeployment (R12.56): old, idle ReplicaSets beyond revisionHistoryLimit go, lowest revision first. */
export async function cleanupOldReplicaSets(ctx: DeploymentContext, oldRSs: readonly KubeObject[], d: KubeObject): Promise<void> {
  const limit = specOf(d).revisionHistoryLimit;
  if (typeof limit !== 'number' || limit === 2147483647) return;
  const alive = oldRSs.filter((rs) => rs.metadata.deletionTimestamp === undefined);
  const excess = alive.length - limit;
  if (excess <= 0) return;
  const byRevision = [...alive].sort((a, b) => (revisionOf(a) ?? 0) - (revisionOf(b) ?? 0) || byCreation(a, b));
  for (const rs of byRevision.slice(0, excess)) {
    const status = statusOf(rs);
    if (numberOr(status.replicas, 0) !== 0 || replicasOf(rs) !== 0) continue;
    if (numberOr(rs.metadata.generation, 0) > numberOr(status.observedGeneration, 0)) continue;
    try {
      await ctx.client.delete(REPLICA_SETS, rs.metadata.namespace, rs.metadata.name ?? '');
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
}
