import { isObject, type KubeObject } from '../../api/types.js';
import { numberOr } from '../workloads/pods.js';
import { canonicalJson } from './hash.js';

export const POD_TEMPLATE_HASH = 'pod-template-hash';
export const REVISION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
/** Annotations of the Deployment that are not copied onto its ReplicaSets (R12.48). */
export const NOT_COPIED = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  REVISION_HISTORY,
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  'deprecated.deployment.rollback.to',
]);
/** A progressDeadlineSeconds of MaxInt32 means "no deadline". */
const NO_DEADLINE = 2147483647;

export function specOf(obj: KubeObject): Record<string, unknown> {
  return isObject(obj.spec) ? obj.spec : {};
}

export function statusOf(obj: KubeObject): Record<string, unknown> {
  return isObject(obj.status) ? obj.status : {};
}

export function replicasOf(obj: KubeObject): number {
  return numberOr(specOf(obj).replicas, 1);
}

export function statusCount(obj: KubeObject, field: string): number {
  return numberOr(statusOf(obj)[field], 0);
}

export function created(obj: KubeObject): number {
  const t = Date.parse(obj.metadata.creationTimestamp ?? '');
  return Number.isNaN(t) ? 0 : t;
}

/** Oldest first, ties by name (controller.ReplicaSetsByCreationTimestamp). */
export function byCreation(a: KubeObject, b: KubeObject): number {
  return created(a) - created(b) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1);
}

export function revisionOf(rs: KubeObject): number | undefined {
  const raw = rs.metadata.annotations?.[REVISION];
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

/** The template without the pod-template-hash label, for comparing a ReplicaSet's with its Deployment's. */
function templateWithoutHash(template: unknown): string {
  if (!isObject(template)) return canonicalJson(template);
  const meta = isObject(template.metadata) ? template.metadata : {};
  const labels = isObject(meta.labels) ? { ...meta.labels } : {};
  delete labels[POD_TEMPLATE_HASH];
  const metadata: Record<string, unknown> = { ...meta, labels };
  if (Object.keys(labels).length === 0) delete metadata.labels;
  return canonicalJson({ ...template, metadata });
}

/** EqualIgnoreHash. */
export function sameTemplate(a: unknown, b: unknown): boolean {
  return templateWithoutHash(a) === templateWithoutHash(b);
}

/** intstr.GetScaledValueFromIntOrPercent: an int as is, "n%" of total rounded up or down. */
function scaled(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\d+%$/.test(value)) {
    const exact = (Number(value.slice(0, -1)) * total) / 100;
    return roundUp ? Math.ceil(exact) : Math.floor(exact);
  }
  return 0;
}

export function isRollingUpdate(d: KubeObject): boolean {
  const strategy = isObject(specOf(d).strategy) ? (specOf(d).strategy as Record<string, unknown>) : {};
  return strategy.type !== 'Recreate';
}

/** ResolveFenceposts (R12.52): maxSurge rounds up, maxUnavailable down, and both zero means one unavailable. */
export function fenceposts(d: KubeObject): { maxSurge: number; maxUnavailable: number } {
  if (!isRollingUpdate(d)) return { maxSurge: 0, maxUnavailable: 0 };
  const strategy = specOf(d).strategy as Record<string, unknown>;
  const rolling = isObject(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
  const replicas = replicasOf(d);
  const maxSurge = scaled(rolling.maxSurge ?? '25%', replicas, true);
  let maxUnavailable = scaled(rolling.maxUnavailable ?? '25%', replicas, false);
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

/** MaxUnavailable: capped at replicas, and 0 for no replicas. */
export function maxUnavailable(d: KubeObject): number {
  const replicas = replicasOf(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  return Math.min(fenceposts(d).maxUnavailable, replicas);
}

export function maxSurge(d: KubeObject): number {
  return isRollingUpdate(d) ? fenceposts(d).maxSurge : 0;
}

export function hasProgressDeadline(d: KubeObject): boolean {
  const seconds = specOf(d).progressDeadlineSeconds;
  return typeof seconds === 'number' && seconds !== NO_DEADLINE;
}

export function sumOf(list: readonly KubeObject[], count: (rs: KubeObject) => number): number {
  return list.reduce((total, rs) => total + count(rs), 0);
}

/** FilterActiveReplicaSets: those asked to run pods. */
export function active(list: readonly KubeObject[]): KubeObject[] {
  return list.filter((rs) => replicasOf(rs) > 0);
}

function annotationNumber(rs: KubeObject, key: string): number | undefined {
  const raw = rs.metadata.annotations?.[key];
  return raw !== undefined && /^-?\d+$/.test(raw) ? Number(raw) : undefined;
}

export const desiredReplicasAnnotation = (rs: KubeObject): number | undefined => annotationNumber(rs, DESIRED_REPLICAS);
export const maxReplicasAnnotation = (rs: KubeObject): number | undefined => annotationNumber(rs, MAX_REPLICAS);

/** Go's math.Round: halves away from zero. */
export function roundHalfAway(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}
