import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Backend } from './backend.js';
import { createEtcdBackend } from './etcd/backend.js';
import { checkTlsMaterial } from './etcd/tls-material.js';
import type { EtcdTransportKind } from './etcd/transport.js';
import { createMemoryBackend } from './memory/backend.js';
import { createSqliteBackend } from './sqlite/backend.js';

export const STORAGE_BACKENDS = ['sqlite', 'memory', 'etcd'] as const;
export type StorageKind = (typeof STORAGE_BACKENDS)[number];

export interface StorageOptions {
  readonly storage: StorageKind;
  /** SQLite keeps its file here (`<data-dir>/cascade.db`). */
  readonly dataDir: string;
  /** --etcd-servers. */
  readonly etcdServers?: readonly string[];
  /** --etcd-prefix (default /registry). */
  readonly etcdPrefix?: string;
  /** --etcd-compaction-interval in ms (default 5 min; 0 disables). */
  readonly etcdCompactionIntervalMs?: number;
  /** --etcd-cafile: PEM CA bundle that verifies https:// members (default: Node's public roots). */
  readonly etcdCaFile?: string;
  /** --etcd-certfile and --etcd-keyfile: the client certificate etcd's --client-cert-auth asks for. */
  readonly etcdCertFile?: string;
  readonly etcdKeyFile?: string;
  /** Deadline of each etcd call in ms: --etcd-request-timeout, else --request-timeout (see ChannelOptions). */
  readonly etcdRequestTimeoutMs?: number;
  /** --etcd-keepalive-time and --etcd-keepalive-timeout in ms: when a silent member is pinged, and how long it has to answer. */
  readonly etcdKeepaliveTimeMs?: number;
  readonly etcdKeepaliveTimeoutMs?: number;
  /** --etcd-transport: the HTTP/2 implementation under the etcd client. */
  readonly etcdTransport?: EtcdTransportKind;
}

/** Opens the backend the server flags ask for: SQLite in the data dir by default, memory for tests, etcd for many servers. */
export function openBackend(options: StorageOptions): Backend {
  switch (options.storage) {
    case 'memory':
      return createMemoryBackend();
    case 'sqlite':
      mkdirSync(options.dataDir, { recursive: true });
      return createSqliteBackend({ path: join(options.dataDir, 'cascade.db') });
    case 'etcd': {
      const endpoints = options.etcdServers ?? [];
      if (endpoints.length === 0) throw new Error('--storage etcd needs --etcd-servers=http://host:2379[,...]');
      const read = (flag: string, file: string | undefined): Buffer | undefined => {
        if (file === undefined) return undefined;
        try {
          return readFileSync(file);
        } catch (error) {
          throw new Error(`unable to read ${flag}=${file}: ${(error as Error).message}`);
        }
      };
      const tls = {
        ca: read('--etcd-cafile', options.etcdCaFile),
        cert: read('--etcd-certfile', options.etcdCertFile),
        key: read('--etcd-keyfile', options.etcdKeyFile),
      };
      checkTlsMaterial(tls, { ca: '--etcd-cafile', cert: '--etcd-certfile', key: '--etcd-keyfile' });
      return createEtcdBackend({
        endpoints: [...endpoints],
        prefix: options.etcdPrefix,
        compactIntervalMs: options.etcdCompactionIntervalMs,
        tls,
        callTimeoutMs: options.etcdRequestTimeoutMs,
        keepaliveTimeMs: options.etcdKeepaliveTimeMs,
        keepaliveTimeoutMs: options.etcdKeepaliveTimeoutMs,
        transport: options.etcdTransport,
      });
    }
  }
}
