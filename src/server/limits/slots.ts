import type { ServerResponse } from 'node:http';

/** A fixed number of places (a buffered channel in kube-apiserver's filters); a limit of 0 means no limit. */
export class Slots {
  readonly limit: number;
  private taken = 0;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
    this.limit = limit;
  }

  get inUse(): number {
    return this.taken;
  }

  /** A place and the function that gives it back (safe to call more than once), or undefined when all are taken. */
  tryTake(): (() => void) | undefined {
    if (this.limit !== 0 && this.taken >= this.limit) return undefined;
    this.taken++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.taken--;
    };
  }
}

/** Gives a place back once the response is complete or its connection is gone, whichever comes first. */
export function releaseWhenDone(res: ServerResponse, release: () => void): void {
  res.once('finish', release);
  res.once('close', release);
}
