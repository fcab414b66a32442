/**
 * How a connection notices a peer that stopped answering (a frozen process, a half-open TCP connection after a
 * host or network failure): while streams are open and nothing has arrived for `intervalMs`, it sends an HTTP/2
 * PING, and a PING not answered within `timeoutMs` declares the peer dead.
 */
export interface KeepaliveOptions {
  readonly intervalMs: number;
  readonly timeoutMs: number;
}

/**
 * etcd's gRPC server counts a PING that comes less than --grpc-keepalive-min-time (5 s by default) after the
 * previous one, with no response data sent in between, as abuse, and closes the connection after three
 * ("too_many_pings"). Pings closer together are sent only when data arrived since the last one.
 */
export const ETCD_MIN_PING_INTERVAL_MS = 5_000;

export interface KeepaliveHooks {
  /** Whether any stream is open: an idle connection is not pinged, and etcd forbids pings without streams. */
  active(): boolean;
  ping(): void;
  dead(error: Error): void;
}

export class KeepaliveWatchdog {
  readonly #options: KeepaliveOptions;
  readonly #hooks: KeepaliveHooks;
  readonly #timer: NodeJS.Timeout;
  #ackTimer: NodeJS.Timeout | undefined;
  #heard = false;
  #dataSincePing = true;
  #lastPingAt = Number.NEGATIVE_INFINITY;
  #outstanding = false;

  constructor(options: KeepaliveOptions, hooks: KeepaliveHooks) {
    this.#options = options;
    this.#hooks = hooks;
    this.#timer = setInterval(this.#tick, options.intervalMs);
    this.#timer.unref();
  }

  /** Bytes arrived from the peer. */
  heard(): void {
    this.#heard = true;
  }

  /** The peer sent response headers or data, which clears etcd's count of early pings. */
  responded(): void {
    this.#dataSincePing = true;
  }

  acknowledged(): void {
    this.#outstanding = false;
    if (this.#ackTimer !== undefined) clearTimeout(this.#ackTimer);
    this.#ackTimer = undefined;
  }

  stop(): void {
    clearInterval(this.#timer);
    this.acknowledged();
  }

  readonly #tick = (): void => {
    if (this.#outstanding) return;
    if (this.#heard) {
      this.#heard = false;
      return;
    }
    if (!this.#hooks.active()) return;
    const now = Date.now();
    if (!this.#dataSincePing && now - this.#lastPingAt < ETCD_MIN_PING_INTERVAL_MS) return;
    this.#outstanding = true;
    this.#dataSincePing = false;
    this.#lastPingAt = now;
    this.#hooks.ping();
    this.#ackTimer = setTimeout(() => {
      // This process may itself have been busy past the timeout, with the answer waiting unread in the socket:
      // the check runs after the event loop's next poll for I/O has read it.
      setImmediate(() => {
        if (this.#outstanding) this.#hooks.dead(new Error(`no answer to an HTTP/2 PING within ${this.#options.timeoutMs} ms`));
      });
    }, this.#options.timeoutMs);
    this.#ackTimer.unref();
  };
}
