import type { ServerResponse } from 'node:http';
import { SYSTEM_MASTERS, type UserInfo } from '../../api/user.js';
import { releaseWhenDone, Slots } from './slots.js';
import { sendTooManyRequests } from './too-many-requests.js';

/** kube-apiserver's --max-requests-inflight and --max-mutating-requests-inflight defaults. */
export const DEFAULT_MAX_REQUESTS_IN_FLIGHT = 400;
export const DEFAULT_MAX_MUTATING_REQUESTS_IN_FLIGHT = 200;

export interface InFlightLimits {
  /** Concurrent read-only requests (verbs get, list, watch); 0 = unlimited. */
  readonly maxRequestsInFlight: number;
  /** Concurrent requests with any other verb; 0 = unlimited. */
  readonly maxMutatingRequestsInFlight: number;
}

export interface LimitedRequest {
  /** The RequestInfo verb: get list watch create update patch delete deletecollection, or the lower-cased method. */
  readonly verb: string;
  /** Watches (and proxy/exec/attach/log/portforward) hold no place: they may last for hours. */
  readonly longRunning: boolean;
  readonly user: UserInfo | undefined;
}

export interface InFlightLimiter {
  /**
   * Lets the request through, holding a place until its response is done, or answers 429 and returns false.
   * Members of system:masters are always let through (a super-admin or the server's own loopback client).
   */
  admit(res: ServerResponse, request: LimitedRequest): boolean;
  readonly readOnlyInFlight: number;
  readonly mutatingInFlight: number;
}

const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);

/** The max-in-flight filter (WithMaxInFlightLimit): separate budgets for read-only and mutating requests. */
export function createInFlightLimiter(limits: InFlightLimits): InFlightLimiter {
  const readOnly = new Slots(limits.maxRequestsInFlight);
  const mutating = new Slots(limits.maxMutatingRequestsInFlight);
  return {
    admit(res, request) {
      if (request.longRunning) return true;
      const slots = READ_ONLY_VERBS.has(request.verb) ? readOnly : mutating;
      const release = slots.tryTake();
      if (release !== undefined) {
        releaseWhenDone(res, release);
        return true;
      }
      if (request.user?.groups.includes(SYSTEM_MASTERS) === true) return true;
      sendTooManyRequests(res);
      return false;
    },
    get readOnlyInFlight() {
      return readOnly.inUse;
    },
    get mutatingInFlight() {
      return mutating.inUse;
    },
  };
}
