import { isObject, type KubeObject } from '../../api/types.js';
import { newControllerRef } from '../workloads/controller-ref.js';
import { zoneOffsetMs } from './next-schedule.js';

export const SCHEDULED_TIMESTAMP = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** getJobName: `<cronjob>-<scheduled time in Unix minutes>`, the same on every retry (R12.119). */
export function jobName(cronJob: KubeObject, scheduledMs: number): string {
  return `${cronJob.metadata.name}-${Math.floor(scheduledMs / 60_000)}`;
}

/** Go's RFC 3339 rendering of an instant in a zone: `Z` for UTC, else the numeric offset. */
export function rfc3339InZone(ms: number, zone: string): string {
  const offset = zoneOffsetMs(zone, ms);
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offset).toISOString().replace(/\.\d{3}Z$/, '');
  if (offset === 0) return `${wall}Z`;
  const minutes = Math.abs(offset) / 60_000;
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${wall}${offset < 0 ? '-' : '+'}${hh}:${mm}`;
}

/**
 * getJobFromTemplate2: the Job for one scheduled time, with the template's labels, annotations and spec, the
 * scheduled-timestamp annotation and a controller reference to the CronJob (R12.119).
 */
export function jobFromTemplate(cronJob: KubeObject, scheduledMs: number, zone: string): KubeObject {
  const spec = isObject(cronJob.spec) ? cronJob.spec : {};
  const template = isObject(spec.jobTemplate) ? spec.jobTemplate : {};
  const meta = isObject(template.metadata) ? template.metadata : {};
  const labels = isObject(meta.labels) ? (meta.labels as Record<string, string>) : {};
  const annotations = isObject(meta.annotations) ? (meta.annotations as Record<string, string>) : {};
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName(cronJob, scheduledMs),
      namespace: cronJob.metadata.namespace,
      labels: { ...labels },
      annotations: { ...annotations, [SCHEDULED_TIMESTAMP]: rfc3339InZone(scheduledMs, zone) },
      ownerReferences: [newControllerRef(cronJob)],
    },
    spec: structuredClone(isObject(template.spec) ? template.spec : {}),
  };
}
