import { randomUUID } from 'node:crypto';
import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { ApiClient, ResourceRef } from '../client/interface.js';

const LEASES: ResourceRef = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };

export interface LeaderElectionOptions {
  readonly client: ApiClient;
  /** Who this process is (kube-controller-manager uses "<hostname>_<uuid>"). */
  readonly identity?: string;
  readonly namespace?: string;
  readonly leaseName?: string;
  /** --leader-elect-lease-duration (default 15 s): how long others wait before taking over a silent leader. */
  readonly leaseDurationMs?: number;
  /** --leader-elect-renew-deadline (default 10 s): a leader that cannot renew for this long steps down. */
  readonly renewDeadlineMs?: number;
  /** --leader-elect-retry-period (default 2 s): how often to try to acquire or renew. */
  readonly retryPeriodMs?: number;
  readonly onStartedLeading: () => Promise<void>;
  readonly onStoppedLeading: () => Promise<void>;
  readonly log?: (message: string) => void;
}

function microTime(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '000Z');
}

/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection does it: the holder renews the
 * lease every retry period; another candidate takes it over only after the record has stayed unchanged for a whole
 * lease duration by its own clock (so clock skew between processes does not matter); a leader that cannot renew
 * within the renew deadline stops leading. Writes are guarded by resourceVersion, so two candidates never both win.
 */
export class LeaderElector {
  readonly identity: string;
  private readonly options: LeaderElectionOptions;
  private readonly namespace: string;
  private readonly name: string;
  private leading = false;
  private lastRenewed = 0;
  /** The lease record as last seen, and when (by our clock) it last changed. */
  private observed: { holder: string; renewTime: string; resourceVersion: string } | undefined;
  private observedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private transition: Promise<void> = Promise.resolve();

  constructor(options: LeaderElectionOptions) {
    this.options = options;
    this.identity = options.identity ?? `cascade_${randomUUID()}`;
    this.namespace = options.namespace ?? 'kube-system';
    this.name = options.leaseName ?? 'cascade-controller-manager';
  }

  get isLeader(): boolean {
    return this.leading;
  }

  private get leaseDurationMs(): number {
    return this.options.leaseDurationMs ?? 15_000;
  }

  start(): void {
    this.stopped = false;
    void this.tick();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), this.options.retryPeriodMs ?? 2_000);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      const acquired = await this.tryAcquireOrRenew();
      const now = Date.now();
      if (acquired) {
        this.lastRenewed = now;
        if (!this.leading) this.setLeading(true);
      } else if (this.leading && now - this.lastRenewed > (this.options.renewDeadlineMs ?? 10_000)) {
        this.setLeading(false);
      }
    } catch (err) {
      this.options.log?.(`leader election: ${err instanceof Error ? err.message : String(err)}`);
      if (this.leading && Date.now() - this.lastRenewed > (this.options.renewDeadlineMs ?? 10_000)) this.setLeading(false);
    }
    this.schedule();
  }

  private setLeading(leading: boolean): void {
    this.leading = leading;
    this.options.log?.(`leader election: ${this.identity} ${leading ? 'became the leader' : 'lost the lease'}`);
    this.transition = this.transition
      .then(leading ? this.options.onStartedLeading : this.options.onStoppedLeading)
      .catch((err: unknown) => {
        this.options.log?.(`leader election: ${err instanceof Error ? err.message : String(err)}`);
      });
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = Date.now();
    const spec = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.ceil(this.leaseDurationMs / 1000),
      renewTime: microTime(now),
    };
    let lease: KubeObject;
    try {
      lease = await this.options.client.get(LEASES, this.namespace, this.name);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
      await this.options.client.create(LEASES, this.namespace, {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: this.name, namespace: this.namespace },
        spec: { ...spec, acquireTime: microTime(now), leaseTransitions: 0 },
      });
      return true;
    }
    const current = (lease.spec ?? {}) as Record<string, unknown>;
    const holder = typeof current.holderIdentity === 'string' ? current.holderIdentity : '';
    const record = { holder, renewTime: String(current.renewTime ?? ''), resourceVersion: lease.metadata.resourceVersion ?? '' };
    if (this.observed === undefined || this.observed.holder !== record.holder || this.observed.renewTime !== record.renewTime) {
      this.observed = record;
      this.observedAt = now;
    }
    const heldByOther = holder !== '' && holder !== this.identity;
    if (heldByOther && now - this.observedAt < this.leaseDurationMs) return false;
    const transitions = typeof current.leaseTransitions === 'number' ? current.leaseTransitions : 0;
    const next: KubeObject = {
      ...lease,
      spec: {
        ...current,
        ...spec,
        acquireTime: holder === this.identity ? current.acquireTime : microTime(now),
        leaseTransitions: holder === this.identity ? transitions : transitions + 1,
      },
    };
    try {
      await this.options.client.update(LEASES, this.namespace, next);
      return true;
    } catch (err) {
      if (err instanceof StatusError && err.code === 409) return false;
      throw err;
    }
  }

  /** Stops competing; a leader releases the lease (empty holder) so another process can take over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.leading) {
      this.setLeading(false);
      try {
        const lease = await this.options.client.get(LEASES, this.namespace, this.name);
        const spec = (lease.spec ?? {}) as Record<string, unknown>;
        if (spec.holderIdentity === this.identity) {
          await this.options.client.update(LEASES, this.namespace, {
            ...lease,
            spec: { ...spec, holderIdentity: '', leaseDurationSeconds: 1 },
          });
        }
      } catch (err) {
        this.options.log?.(`leader election: releasing the lease: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    await this.transition;
  }
}
