import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Backend } from './backend.js';
import { createEtcdBackend } from './etcd/backend.js';
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
  /** Deadline of each etcd call in ms; `cascade serve` passes --request-timeout (see ChannelOptions). */
  readonly etcdRequestTimeoutMs?: number;
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
      if ((options.etcdCertFile === undefined) !== (options.etcdKeyFile === undefined)) {
        throw new Error('--etcd-certfile and --etcd-keyfile must be given together');
      }
      const read = (file: string | undefined): Buffer | undefined => (file === undefined ? undefined : readFileSync(file));
      return createEtcdBackend({
        endpoints: [...endpoints],
        prefix: options.etcdPrefix,
        compactIntervalMs: options.etcdCompactionIntervalMs,
        tls: { ca: read(options.etcdCaFile), cert: read(options.etcdCertFile), key: read(options.etcdKeyFile) },
        callTimeoutMs: options.etcdRequestTimeoutMs,
      });
    }
  }
}
