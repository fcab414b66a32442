import type { KeepaliveOptions } from './keepalive.js';
import type { TlsMaterial } from './socket.js';
import type { StreamListener } from './stream.js';

export interface ConnectionOptions {
  /** Receive window per stream: responses to lists can be large, and 64 KiB windows would make them crawl. */
  readonly streamWindowBytes: number;
  /** Receive window of the connection as a whole. */
  readonly connectionWindowBytes: number;
  /** Called once when the connection can take no new streams (failed, closed, or the server sent GOAWAY). */
  readonly onRetired: () => void;
  /** For https:// endpoints: the CA to verify the server with (default: Node's roots), and a client certificate. */
  readonly tls?: TlsMaterial;
  /** The server's first SETTINGS must arrive within this, or the connection fails with nothing sent. */
  readonly dialTimeoutMs: number;
  readonly keepalive: KeepaliveOptions;
}

/** What a connection keeps of each of its streams. */
export interface StreamState {
  id: number;
  readonly path: string;
  readonly listener: StreamListener;
  sendWindow: number;
  /** Bytes flow control holds back, in order. */
  readonly queued: Buffer[];
  /** END_STREAM goes out after the queued bytes. */
  endQueued: boolean;
  localEnded: boolean;
  /** Received bytes not yet handed back to the server's view of this stream's window. */
  unacknowledged: number;
}
