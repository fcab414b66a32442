import type { ServerResponse } from 'node:http';
import { releaseWhenDone, Slots } from './slots.js';
import { sendTooManyRequests } from './too-many-requests.js';

/** Cascade's own cap on open watches (kube-apiserver has none): each one holds memory for as long as it lasts. */
export const DEFAULT_MAX_WATCHES = 10_000;

export interface WatchLimiter {
  /** Holds a place until the watch's connection closes, or answers 429 (as the in-flight filter does) and returns false. */
  admit(res: ServerResponse): boolean;
  readonly open: number;
}

/** 0 = unlimited. Unlike the in-flight limits, system:masters is not exempt: the cap protects the server's memory. */
export function createWatchLimiter(maxWatches: number = DEFAULT_MAX_WATCHES): WatchLimiter {
  const slots = new Slots(maxWatches);
  return {
    admit(res) {
      const release = slots.tryTake();
      if (release === undefined) {
        sendTooManyRequests(res);
        return false;
      }
      releaseWhenDone(res, release);
      return true;
    },
    get open() {
      return slots.inUse;
    },
  };
}
