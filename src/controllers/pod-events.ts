import type { KubeObject } from '../api/types.js';
import type { ApiClient } from '../client/interface.js';

const EVENTS = { group: '', version: 'v1', resource: 'events' };

/** A core/v1 Event about a pod, as the scheduler and kubelets record them (fire-and-forget for the caller). */
export async function recordPodEvent(
  client: ApiClient,
  pod: KubeObject,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  component: string,
  now: Date,
): Promise<void> {
  const namespace = pod.metadata.namespace ?? 'default';
  const timestamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  await client.create(EVENTS, namespace, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { generateName: `${pod.metadata.name}.`, namespace },
    involvedObject: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace, uid: pod.metadata.uid },
    reason,
    message,
    type,
    source: { component },
    firstTimestamp: timestamp,
    lastTimestamp: timestamp,
    count: 1,
    reportingComponent: component,
  });
}
