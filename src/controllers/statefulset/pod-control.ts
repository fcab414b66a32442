import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { StoreReader } from '../../cache/store.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import type { EventRecorder } from '../workloads/events.js';
import { retentionOwnerRefs } from './claim-retention.js';
import type { StatefulPodControl } from './control.js';
import { claimsFor, parentAndOrdinal, withIdentity } from './identity.js';

export const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
export const CLAIMS: ResourceRef = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const isAlreadyExists = (err: unknown): boolean => err instanceof StatusError && err.code === 409 && err.reason === 'AlreadyExists';

/**
 * StatefulPodControl over the API: pod and claim writes, each recorded on the set as Kubernetes words it
 * (`create Pod web-0 in StatefulSet web successful`, `create Claim data-web-0 Pod web-0 in StatefulSet web success`,
 * R12.80). Claims are read from the controller's cache.
 */
export class ApiStatefulPodControl implements StatefulPodControl {
  private readonly client: ApiClient;
  private readonly claims: StoreReader;
  private readonly record: EventRecorder;

  constructor(client: ApiClient, claims: StoreReader, record: EventRecorder) {
    this.client = client;
    this.claims = claims;
    this.record = record;
  }

  private podEvent(verb: string, set: KubeObject, pod: KubeObject, err?: unknown): void {
    const title = verb[0]?.toUpperCase() + verb.slice(1);
    if (err === undefined)
      this.record(set, 'Normal', `Successful${title}`, `${verb} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
    else
      this.record(
        set,
        'Warning',
        `Failed${title}`,
        `${verb} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${errorText(err)}`,
      );
  }

  async createMissingClaims(set: KubeObject, pod: KubeObject): Promise<void> {
    const errors: unknown[] = [];
    for (const claim of claimsFor(set, parentAndOrdinal(pod).ordinal)) {
      if (this.claims.get(claim.metadata.namespace, claim.metadata.name ?? '') !== undefined) continue;
      try {
        await this.client.create(CLAIMS, claim.metadata.namespace, claim);
        this.record(
          set,
          'Normal',
          'SuccessfulCreate',
          `create Claim ${claim.metadata.name} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} success`,
        );
      } catch (err) {
        // The cache had not seen it yet: the claim is there, which is all that is wanted.
        if (isAlreadyExists(err)) continue;
        this.record(
          set,
          'Warning',
          'FailedCreate',
          `create Claim ${claim.metadata.name} for Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${errorText(err)}`,
        );
        errors.push(err);
      }
    }
    if (errors.length > 0) throw errors[0];
  }

  claimIsStale(set: KubeObject, pod: KubeObject): boolean {
    return claimsFor(set, parentAndOrdinal(pod).ordinal).some(
      (claim) => this.claims.get(claim.metadata.namespace, claim.metadata.name ?? '')?.metadata.deletionTimestamp !== undefined,
    );
  }

  async createPod(set: KubeObject, pod: KubeObject): Promise<void> {
    await this.createMissingClaims(set, pod);
    try {
      await this.client.create(PODS, pod.metadata.namespace, pod);
    } catch (err) {
      // A pod the cache does not show yet: no event, the sync is retried once the cache catches up.
      if (!isAlreadyExists(err)) this.podEvent('create', set, pod, err);
      throw err;
    }
    this.podEvent('create', set, pod);
  }

  async deletePod(set: KubeObject, pod: KubeObject): Promise<void> {
    try {
      await this.client.delete(PODS, pod.metadata.namespace, pod.metadata.name ?? '');
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return;
      this.podEvent('delete', set, pod, err);
      throw err;
    }
    this.podEvent('delete', set, pod);
  }

  async reconcilePod(set: KubeObject, pod: KubeObject): Promise<void> {
    await this.reconcileClaims(set, pod);
    const fixed = withIdentity(set, pod);
    if (fixed === undefined) return;
    try {
      await this.client.update(PODS, pod.metadata.namespace, fixed);
    } catch (err) {
      this.podEvent('update', set, pod, err);
      throw err;
    }
    this.podEvent('update', set, pod);
  }

  async reconcileClaims(set: KubeObject, pod: KubeObject): Promise<void> {
    for (const wanted of claimsFor(set, parentAndOrdinal(pod).ordinal)) {
      const claim = this.claims.get(wanted.metadata.namespace, wanted.metadata.name ?? '');
      if (claim === undefined) continue;
      const ownerReferences = retentionOwnerRefs(set, pod, claim);
      if (ownerReferences === undefined) continue;
      try {
        await this.client.update(CLAIMS, claim.metadata.namespace, { ...claim, metadata: { ...claim.metadata, ownerReferences } });
      } catch (err) {
        // A claim deleted meanwhile needs no owner.
        if (err instanceof StatusError && err.code === 404) continue;
        throw err;
      }
    }
  }
}
