/**
 * kube-controller-manager's ControllerExpectations / UIDTrackingControllerExpectations: how many creations and
 * deletions a controller is still waiting to see through its informer for one owner. Informer caches lag behind
 * the controller's own writes; while expectations are unmet (and younger than the TTL) the controller must not
 * create or delete more for that owner, or it would act twice on the same shortfall (R12.25, R12.26).
 */

/** Upstream's ExpectationsTimeout: a lost watch event must not block an owner for ever. */
export const EXPECTATIONS_TTL_MS = 5 * 60 * 1000;

interface Expectation {
  add: number;
  del: number;
  timestamp: number;
  /** Keys of the pods whose deletion is awaited: each is counted once, however many events show it. */
  readonly deleting: Set<string>;
}

export class ControllerExpectations {
  private readonly byOwner = new Map<string, Expectation>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** True when the owner may be synced: nothing awaited, everything seen, or the record expired. */
  satisfied(ownerKey: string): boolean {
    const e = this.byOwner.get(ownerKey);
    if (e === undefined) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.now() - e.timestamp > EXPECTATIONS_TTL_MS;
  }

  expectCreations(ownerKey: string, count: number): void {
    this.byOwner.set(ownerKey, { add: count, del: 0, timestamp: this.now(), deleting: new Set() });
  }

  /** Expects the deletion of exactly these pods (keys "namespace/name"). */
  expectDeletions(ownerKey: string, podKeys: readonly string[]): void {
    this.byOwner.set(ownerKey, { add: 0, del: podKeys.length, timestamp: this.now(), deleting: new Set(podKeys) });
  }

  /** Expects both at once, as a sync that creates on some nodes and deletes on others does (SetExpectations). */
  expect(ownerKey: string, creations: number, podKeys: readonly string[]): void {
    this.byOwner.set(ownerKey, { add: creations, del: podKeys.length, timestamp: this.now(), deleting: new Set(podKeys) });
  }

  creationObserved(ownerKey: string): void {
    const e = this.byOwner.get(ownerKey);
    if (e !== undefined) e.add--;
  }

  /** A pod awaited for deletion was seen deleted (or with a deletionTimestamp), or its delete call failed. */
  deletionObserved(ownerKey: string, podKey: string): void {
    const e = this.byOwner.get(ownerKey);
    if (e === undefined || !e.deleting.delete(podKey)) return;
    e.del--;
  }

  /** Forget the owner (it was deleted). */
  delete(ownerKey: string): void {
    this.byOwner.delete(ownerKey);
  }

  /** For tests and diagnostics: what is still awaited. */
  pending(ownerKey: string): { add: number; del: number } | undefined {
    const e = this.byOwner.get(ownerKey);
    return e === undefined ? undefined : { add: e.add, del: e.del };
  }
}
