/**
 * The flags of `cascade serve`, declared once: parseArgs' options and the `--help` text (in pflag's layout, as
 * Kubernetes components print it) both come from this table.
 */

export type FlagType = 'string' | 'int' | 'bool' | 'duration';

export interface FlagSpec {
  readonly name: string;
  readonly type: FlagType;
  /** As pflag shows it; '' (string), '0' (int) and 'false' (bool) are zero values it leaves out of the help. */
  readonly default: string;
  readonly usage: string;
}

export const SERVE_FLAGS: readonly FlagSpec[] = [
  { name: 'bind-address', type: 'string', default: '127.0.0.1', usage: 'address to listen on' },
  { name: 'secure-port', type: 'int', default: '6443', usage: 'port to listen on; 0 picks a free port' },
  {
    name: 'data-dir',
    type: 'string',
    default: './.cascade',
    usage: 'directory for the server state (PKI, service account key, SQLite) and the kubeconfig',
  },
  { name: 'kubeconfig-out', type: 'string', default: '', usage: 'where to write the kubeconfig (empty: <data-dir>/kubeconfig)' },
  { name: 'storage', type: 'string', default: 'sqlite', usage: 'storage backend: sqlite (in --data-dir), memory (nothing kept) or etcd' },
  {
    name: 'etcd-servers',
    type: 'string',
    default: '',
    usage: 'comma-separated etcd members for --storage etcd, e.g. https://10.0.0.1:2379,https://10.0.0.2:2379 (a bare host:port is http)',
  },
  { name: 'etcd-cafile', type: 'string', default: '', usage: 'SSL Certificate Authority file used to secure etcd communication' },
  { name: 'etcd-certfile', type: 'string', default: '', usage: 'SSL certification file used to secure etcd communication' },
  { name: 'etcd-keyfile', type: 'string', default: '', usage: 'SSL key file used to secure etcd communication' },
  { name: 'etcd-prefix', type: 'string', default: '/registry', usage: 'key prefix in etcd' },
  {
    name: 'etcd-request-timeout',
    type: 'duration',
    default: '0s',
    usage: 'deadline of each etcd call, retries on other members included; 0 uses --request-timeout',
  },
  {
    name: 'etcd-keepalive-time',
    type: 'duration',
    default: '2s',
    usage: 'an etcd member silent this long while calls or watches are open is sent an HTTP/2 PING',
  },
  {
    name: 'etcd-keepalive-timeout',
    type: 'duration',
    default: '2s',
    usage: 'an etcd member that does not answer a PING within this is left for the next one',
  },
  { name: 'etcd-transport', type: 'string', default: 'fast', usage: "HTTP/2 implementation of the etcd client: 'fast' or 'node-http2'" },
  {
    name: 'etcd-compaction-interval',
    type: 'duration',
    default: '5m0s',
    usage: 'how often etcd is compacted, once across all servers; 0 disables',
  },
  {
    name: 'controllers',
    type: 'string',
    default: '*',
    usage:
      "controllers to run: '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables it (names as kube-controller-manager's, e.g. replicaset, replicationcontroller, deployment, job, cronjob, ttl-after-finished, garbagecollector, namespace)",
  },
  {
    name: 'max-endpoints-per-slice',
    type: 'int',
    default: '100',
    usage: 'the maximum number of endpoints that will be added to an EndpointSlice (1-1000)',
  },
  { name: 'enable-garbage-collector', type: 'bool', default: 'true', usage: 'run the garbage collector in the server process' },
  { name: 'concurrent-gc-syncs', type: 'int', default: '20', usage: 'garbage collector workers per queue' },
  {
    name: 'strict-block-owner-deletion',
    type: 'bool',
    default: 'false',
    usage:
      'keep a foreground owner waiting for a blocking dependent that another owner keeps alive, instead of dropping that reference as Kubernetes does',
  },
  {
    name: 'orphan-waits-for-observed-generation',
    type: 'bool',
    default: 'true',
    usage:
      "before orphaning an owner's dependents, wait until its controller acknowledged the deletion in status.observedGeneration, so it cannot adopt them again (seed 002's adoption race); false behaves as Kubernetes",
  },
  {
    name: 'orphan-observed-generation-timeout',
    type: 'duration',
    default: '30s',
    usage: 'how long orphaning waits for that acknowledgement before it proceeds anyway, with an OrphanObservedGenerationTimeout event',
  },
  {
    name: 'propagate-grace-period',
    type: 'bool',
    default: 'false',
    usage:
      "a DELETE with gracePeriodSeconds also deletes the object's dependents with that grace period: the object keeps the cascade.dev/populating-graceful-deletion finalizer until every dependent is terminating",
  },
  {
    name: 'archive-retention',
    type: 'duration',
    default: '168h0m0s',
    usage: 'how long removed objects stay in the archive (archivedobjects) to be restored; 0 turns archiving off',
  },
  {
    name: 'archive-max-bytes',
    type: 'int',
    default: '104857600',
    usage: 'the archive keeps at most this many bytes of removed objects, pruning the oldest first',
  },
  { name: 'concurrent-namespace-syncs', type: 'int', default: '10', usage: 'namespace controller workers' },
  {
    name: 'leader-elect',
    type: 'bool',
    default: 'false',
    usage:
      'run the controllers only while this process holds the kube-system/cascade-controller-manager Lease (several servers on one etcd)',
  },
  {
    name: 'leader-elect-lease-duration',
    type: 'duration',
    default: '15s',
    usage: 'how long a non-leader waits after an observed renewal before taking the lease',
  },
  {
    name: 'leader-elect-renew-deadline',
    type: 'duration',
    default: '10s',
    usage: 'how long the leader keeps retrying a renewal before giving the lease up',
  },
  {
    name: 'leader-elect-retry-period',
    type: 'duration',
    default: '2s',
    usage: 'how long candidates wait between attempts to acquire or renew the lease',
  },
  {
    name: 'pvc-protection-count-finished-pods',
    type: 'bool',
    default: 'true',
    usage: 'count Succeeded and Failed pods as users of their PersistentVolumeClaims, as Kubernetes does',
  },
  {
    name: 'simulate-nodes',
    type: 'int',
    default: '0',
    usage: 'create this many kwok-style Nodes driven by simulated kubelets, and run the scheduler and pod GC',
  },
  {
    name: 'insecure-http',
    type: 'bool',
    default: 'false',
    usage: 'serve plain HTTP without authentication, every request acting as the admin: for throw-away test servers on loopback only',
  },
  {
    name: 'audit-log-path',
    type: 'string',
    default: '',
    usage: "if set, all requests coming to the apiserver will be logged to this file.  '-' means standard out.",
  },
  { name: 'audit-policy-file', type: 'string', default: '', usage: 'path to the file that defines the audit policy configuration.' },
  { name: 'token-auth-file', type: 'string', default: '', usage: 'bearer tokens, one per line: token,user,uid,"group1,group2"' },
  {
    name: 'anonymous-auth',
    type: 'bool',
    default: 'true',
    usage: 'requests without credentials reach /healthz, /livez, /readyz and /version as system:anonymous',
  },
  {
    name: 'max-requests-inflight',
    type: 'int',
    default: '400',
    usage: 'read-only requests served at once before answering 429; 0 = no limit',
  },
  {
    name: 'max-mutating-requests-inflight',
    type: 'int',
    default: '200',
    usage: 'mutating requests served at once before answering 429; 0 = no limit',
  },
  { name: 'request-timeout', type: 'duration', default: '1m0s', usage: 'time after which a non-watch request is answered 504' },
  { name: 'version', type: 'bool', default: 'false', usage: "print Cascade's version and the Kubernetes version it serves, and quit" },
];

const ZERO: Readonly<Record<FlagType, string>> = { string: '', int: '0', bool: 'false', duration: '0s' };

/**
 * pflag's FlagUsages: flags sorted by name, `--name type` (bool flags show no type) padded to one column, three
 * spaces, the usage and, unless it is the type's zero value, `(default …)` (quoted for strings). Cobra's `-h, --help`
 * is sorted in with them.
 */
export function pflagUsages(flags: readonly FlagSpec[], command: string): string {
  const withHelp: FlagSpec[] = [...flags, { name: 'help', type: 'bool', default: 'false', usage: `help for ${command}` }];
  const rows = withHelp
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((f) => {
      const head = f.name === 'help' ? '  -h, --help' : `      --${f.name}${f.type === 'bool' ? '' : ` ${f.type}`}`;
      const shown =
        f.default === ZERO[f.type] || (f.type === 'duration' && f.default === '0')
          ? ''
          : f.type === 'string'
            ? ` (default ${JSON.stringify(f.default)})`
            : ` (default ${f.default})`;
      return [head, `${f.usage}${shown}`] as const;
    });
  const width = Math.max(...rows.map(([head]) => head.length));
  return rows.map(([head, text]) => `${head.padEnd(width)}   ${text}\n`).join('');
}
