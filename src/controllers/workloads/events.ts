import type { KubeObject } from '../../api/types.js';
import type { ApiClient } from '../../client/interface.js';

const EVENTS = { group: '', version: 'v1', resource: 'events' };

export type EventRecorder = (owner: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string) => void;

/**
 * record.EventRecorder for one component: a core/v1 Event on the owner, written without waiting (a controller's
 * sync never blocks on its events, and a failed event is only logged).
 */
export function eventRecorder(client: ApiClient, component: string, log: (message: string) => void): EventRecorder {
  return (owner, type, reason, message) => {
    const namespace = owner.metadata.namespace ?? 'default';
    const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    client
      .create(EVENTS, namespace, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { generateName: `${owner.metadata.name}.`, namespace },
        involvedObject: {
          apiVersion: owner.apiVersion,
          kind: owner.kind,
          name: owner.metadata.name,
          namespace,
          uid: owner.metadata.uid,
          resourceVersion: owner.metadata.resourceVersion,
        },
        reason,
        message,
        type,
        source: { component },
        firstTimestamp: timestamp,
        lastTimestamp: timestamp,
        count: 1,
        reportingComponent: component,
      })
      .catch((err: unknown) => log(`${component}: recording event ${reason} failed: ${String(err)}`));
  };
}
