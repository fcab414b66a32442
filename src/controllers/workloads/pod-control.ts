import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import type { EventRecorder } from './events.js';

const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A create refused because the namespace is being emptied by the namespace controller: refused by design (R12.29). */
export function isNamespaceTerminating(err: unknown): boolean {
  return err instanceof StatusError && (err.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
}

/**
 * controller.RealPodControl: the pod writes the workload controllers make for an owner, each reported as an event on
 * the owner in Kubernetes' words. `onFailure` runs whenever the write did not take place, so the caller can lower
 * its expectations.
 */
export class PodControl {
  private readonly client: ApiClient;
  private readonly record: EventRecorder;

  constructor(client: ApiClient, record: EventRecorder) {
    this.client = client;
    this.record = record;
  }

  /** Creates `pod` for `owner`; a terminating namespace's refusal is silent, any other failure is recorded and thrown. */
  async create(owner: KubeObject, pod: KubeObject, onFailure?: () => void): Promise<void> {
    try {
      const created = await this.client.create(PODS, owner.metadata.namespace, pod);
      this.record(owner, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
    } catch (err) {
      onFailure?.();
      if (isNamespaceTerminating(err)) return;
      this.record(owner, 'Warning', 'FailedCreate', `Error creating: ${errorText(err)}`);
      throw err;
    }
  }

  /** Deletes the named pod of `owner`; one already gone is not a failure worth reporting. */
  async delete(owner: KubeObject, namespace: string | undefined, name: string, onFailure?: () => void): Promise<void> {
    try {
      await this.client.delete(PODS, namespace, name);
      this.record(owner, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
    } catch (err) {
      onFailure?.();
      if (err instanceof StatusError && err.code === 404) return;
      this.record(owner, 'Warning', 'FailedDelete', `Error deleting: ${errorText(err)}`);
      throw err;
    }
  }
}
