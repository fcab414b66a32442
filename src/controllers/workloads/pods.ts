import { isObject, type KubeObject } from '../../api/types.js';
import { isDns1123Subdomain } from '../../validation/names.js';
import { newControllerRef } from './controller-ref.js';

function status(pod: KubeObject): Record<string, unknown> {
  return isObject(pod.status) ? pod.status : {};
}

export function podPhase(pod: KubeObject): string {
  const phase = status(pod).phase;
  return typeof phase === 'string' ? phase : '';
}

/** controller.IsPodActive: not finished and not being deleted. */
export function isPodActive(pod: KubeObject): boolean {
  const phase = podPhase(pod);
  return phase !== 'Succeeded' && phase !== 'Failed' && pod.metadata.deletionTimestamp === undefined;
}

function readyCondition(pod: KubeObject): Record<string, unknown> | undefined {
  const conditions = status(pod).conditions;
  if (!Array.isArray(conditions)) return undefined;
  return conditions.find((c): c is Record<string, unknown> => isObject(c) && c.type === 'Ready');
}

export function isPodReady(pod: KubeObject): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** When the pod last became ready, in ms since the epoch; undefined when not ready or unknown. */
export function podReadySince(pod: KubeObject): number | undefined {
  const condition = readyCondition(pod);
  if (condition?.status !== 'True' || typeof condition.lastTransitionTime !== 'string') return undefined;
  const t = Date.parse(condition.lastTransitionTime);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * podutil.IsPodAvailable: ready, and ready for minReadySeconds already (strictly before now; a ready pod without
 * a transition time counts as available only when minReadySeconds is 0).
 */
export function isPodAvailable(pod: KubeObject, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = podReadySince(pod);
  return since !== undefined && since + minReadySeconds * 1000 < now;
}

/**
 * controller.GetPodFromTemplate (R12.28): the template's labels, annotations, finalizers and spec, in the owner's
 * namespace, named by the server from `<owner>-`, with a controller reference to the owner.
 */
export function podFromTemplate(template: Record<string, unknown>, owner: KubeObject): KubeObject {
  const meta = isObject(template.metadata) ? template.metadata : {};
  const prefix = `${owner.metadata.name}-`;
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      // A generateName prefix is validated with its trailing dash standing for a letter.
      generateName: isDns1123Subdomain(`${prefix.slice(0, -1)}a`).length === 0 ? prefix : (owner.metadata.name ?? ''),
      namespace: owner.metadata.namespace,
      ownerReferences: [newControllerRef(owner)],
    },
    spec: structuredClone(template.spec),
  };
  if (isObject(meta.labels)) pod.metadata.labels = { ...(meta.labels as Record<string, string>) };
  if (isObject(meta.annotations)) pod.metadata.annotations = { ...(meta.annotations as Record<string, string>) };
  if (Array.isArray(meta.finalizers)) pod.metadata.finalizers = [...(meta.finalizers as string[])];
  return pod;
}

export function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
