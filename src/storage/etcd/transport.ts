import { Http2Connection } from './http2/connection.js';
import type { ConnectionOptions } from './http2/connection-state.js';
import { NodeHttp2Connection } from './http2/node-connection.js';
import type { Http2Transport } from './http2/stream.js';

/**
 * The HTTP/2 implementations a channel can speak to etcd through: 'fast', Cascade's own (a call costs the process
 * some 20 µs), and 'node-http2', node:http2's nghttp2 (some 80 µs), kept as the reference the fast one is tested
 * and measured against, and as a fallback.
 */
export const ETCD_TRANSPORTS = ['fast', 'node-http2'] as const;
export type EtcdTransportKind = (typeof ETCD_TRANSPORTS)[number];

export function openTransport(kind: EtcdTransportKind, url: URL, options: ConnectionOptions): Http2Transport {
  return kind === 'fast' ? new Http2Connection(url, options) : new NodeHttp2Connection(url, options);
}

export function isEtcdTransport(value: string): value is EtcdTransportKind {
  return (ETCD_TRANSPORTS as readonly string[]).includes(value);
}
