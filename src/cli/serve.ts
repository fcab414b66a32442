import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startApiServer } from '../server/api-server.js';
import { openBackend, STORAGE_BACKENDS, type StorageKind } from '../storage/open.js';
import { loadTokenFile } from '../auth/authn/token-file.js';
import type { UserInfo } from '../api/user.js';
import { SYSTEM_MASTERS } from '../api/user.js';
import { loadOrCreateAdminToken } from './admin-token.js';
import { loadOrCreateServiceAccountKey } from '../pki/service-account-key.js';
import { writeKubeconfig } from './kubeconfig.js';

export const SERVE_USAGE = `Usage: cascade serve [flags]

Flags:
  --bind-address string     address to listen on (default 127.0.0.1)
  --secure-port int         port to listen on; 0 picks a free port (default 6443)
  --data-dir string         directory for state and the generated kubeconfig (default ./.cascade)
  --kubeconfig-out string   where to write the kubeconfig (default <data-dir>/kubeconfig)
  --storage string          storage backend: sqlite (in --data-dir), memory (nothing kept), etcd (default sqlite)
  --etcd-servers string     comma-separated etcd endpoints for --storage etcd, e.g. http://127.0.0.1:2379
  --etcd-prefix string      key prefix in etcd (default /registry)
  --etcd-compaction-interval duration
                            how often etcd is compacted, once across all servers; 0 disables (default 5m0s)
  --enable-garbage-collector bool
                            run the garbage collector in the server process (default true)
  --concurrent-gc-syncs int number of garbage collector workers per queue (default 20)
  --leader-elect bool        run the controllers only while this process holds the controller manager Lease
                            (for several servers on one etcd; default false)
  --leader-elect-lease-duration duration   (default 15s)
  --leader-elect-renew-deadline duration   (default 10s)
  --leader-elect-retry-period duration     (default 2s)
  --concurrent-namespace-syncs int
                            number of namespace controller workers (default 10)
  --strict-block-owner-deletion bool
                            keep a foreground owner waiting for a blocking dependent that another owner keeps
                            alive, instead of dropping that reference as Kubernetes does (default false)
  --insecure-http bool      serve plain HTTP without authentication, every request acting as the admin: for
                            throw-away test servers on loopback only (default false: HTTPS with a CA, serving
                            certificate and admin token generated in --data-dir)
  --token-auth-file string  bearer tokens, one per line: token,user,uid,"group1,group2"
  --anonymous-auth bool     requests without credentials reach /healthz, /livez, /readyz and /version as
                            system:anonymous (default true)
  --max-requests-inflight int
                            read-only requests served at once before answering 429; 0 = no limit (default 400)
  --max-mutating-requests-inflight int
                            mutating requests served at once before answering 429; 0 = no limit (default 200)
  --request-timeout duration
                            time after which a non-watch request is answered 504 (default 1m0s)
  --pvc-protection-count-finished-pods bool
                            count Succeeded and Failed pods as users of their PersistentVolumeClaims, as Kubernetes
                            does; false lets a claim go once its pods have finished (default true)
`;

/** The spellings Go's strconv.ParseBool, and so pflag's bool flags, accept. */
const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

function booleanFlag(name: string, value: string): boolean {
  if (GO_TRUE.has(value)) return true;
  if (GO_FALSE.has(value)) return false;
  throw new Error(`invalid argument "${value}" for "--${name}" flag: strconv.ParseBool: parsing "${value}": invalid syntax`);
}

/**
 * pflag's bool flags take their value only after "=": a bare `--insecure-http` means true (as the README and
 * kube-apiserver's own flags are written), and `--insecure-http false` leaves "false" a stray argument.
 */
export function withBareBooleans(argv: readonly string[], booleans: ReadonlySet<string>): string[] {
  return argv.map((arg) => (arg.startsWith('--') && booleans.has(arg.slice(2)) ? `${arg}=true` : arg));
}

const BOOLEAN_FLAGS: ReadonlySet<string> = new Set([
  'enable-garbage-collector',
  'strict-block-owner-deletion',
  'leader-elect',
  'pvc-protection-count-finished-pods',
  'insecure-http',
  'anonymous-auth',
]);

/** kube-style durations: "15s", "500ms", "1m", "1m30s". */
function durationFlag(name: string, value: string): number {
  if (value === '0') return 0;
  const parts = /^(?:(\d+)m(?!s))?(?:(\d+)s)?(?:(\d+)ms)?$/.exec(value);
  if (parts === null || value === '') throw new Error(`--${name} must be a duration such as 15s or 500ms, got ${value}`);
  return Number(parts[1] ?? 0) * 60_000 + Number(parts[2] ?? 0) * 1000 + Number(parts[3] ?? 0);
}

function countFlag(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${value}`);
  return n;
}

function positiveIntegerFlag(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${value}`);
  return n;
}

export async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: withBareBooleans(argv, BOOLEAN_FLAGS),
    options: {
      'bind-address': { type: 'string', default: '127.0.0.1' },
      'secure-port': { type: 'string', default: '6443' },
      'data-dir': { type: 'string', default: './.cascade' },
      'kubeconfig-out': { type: 'string' },
      storage: { type: 'string', default: 'sqlite' },
      'etcd-servers': { type: 'string' },
      'etcd-prefix': { type: 'string', default: '/registry' },
      'etcd-compaction-interval': { type: 'string', default: '5m0s' },
      'enable-garbage-collector': { type: 'string', default: 'true' },
      'concurrent-gc-syncs': { type: 'string', default: '20' },
      'strict-block-owner-deletion': { type: 'string', default: 'false' },
      'concurrent-namespace-syncs': { type: 'string', default: '10' },
      'leader-elect': { type: 'string', default: 'false' },
      'leader-elect-lease-duration': { type: 'string', default: '15s' },
      'leader-elect-renew-deadline': { type: 'string', default: '10s' },
      'leader-elect-retry-period': { type: 'string', default: '2s' },
      'pvc-protection-count-finished-pods': { type: 'string', default: 'true' },
      'insecure-http': { type: 'string', default: 'false' },
      'token-auth-file': { type: 'string' },
      'anonymous-auth': { type: 'string', default: 'true' },
      'max-requests-inflight': { type: 'string', default: '400' },
      'max-mutating-requests-inflight': { type: 'string', default: '200' },
      'request-timeout': { type: 'string', default: '1m0s' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help === true) {
    process.stdout.write(SERVE_USAGE);
    return;
  }
  const port = Number(values['secure-port']);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--secure-port must be a port number (0-65535), got ${values['secure-port']}`);
  if (!(STORAGE_BACKENDS as readonly string[]).includes(values.storage)) {
    throw new Error(`--storage must be one of ${STORAGE_BACKENDS.join(', ')}, got ${values.storage}`);
  }
  const gcEnabled = booleanFlag('enable-garbage-collector', values['enable-garbage-collector']);
  const strictBlockOwnerDeletion = booleanFlag('strict-block-owner-deletion', values['strict-block-owner-deletion']);
  const gcWorkers = positiveIntegerFlag('concurrent-gc-syncs', values['concurrent-gc-syncs']);
  const namespaceWorkers = positiveIntegerFlag('concurrent-namespace-syncs', values['concurrent-namespace-syncs']);
  const pvcProtectionCountFinishedPods = booleanFlag('pvc-protection-count-finished-pods', values['pvc-protection-count-finished-pods']);
  const dataDir = resolve(values['data-dir']);
  const kubeconfigPath = resolve(values['kubeconfig-out'] ?? `${dataDir}/kubeconfig`);
  const host = values['bind-address'];
  const insecure = booleanFlag('insecure-http', values['insecure-http']);
  if (insecure && values['token-auth-file'] !== undefined)
    throw new Error('--token-auth-file needs HTTPS: it cannot be combined with --insecure-http');
  // Loaded on demand: the DER libraries cost ~75 ms of start-up a plain-HTTP server does not need.
  const pki = insecure ? undefined : (await import('../pki/serving-pki.js')).loadOrCreateServingPki(dataDir, [host]);
  const adminToken = insecure ? undefined : await loadOrCreateAdminToken(dataDir);
  const tokens = new Map<string, UserInfo>(
    values['token-auth-file'] === undefined ? [] : await loadTokenFile(resolve(values['token-auth-file'])),
  );
  if (adminToken !== undefined) tokens.set(adminToken, { name: 'cascade-admin', groups: [SYSTEM_MASTERS] });
  const server = await startApiServer({
    backend: openBackend({
      storage: values.storage as StorageKind,
      dataDir,
      etcdServers: values['etcd-servers']
        ?.split(',')
        .map((e) => e.trim())
        .filter((e) => e !== ''),
      etcdPrefix: values['etcd-prefix'],
      etcdCompactionIntervalMs: durationFlag('etcd-compaction-interval', values['etcd-compaction-interval']),
    }),
    host,
    port,
    serviceAccountKey: loadOrCreateServiceAccountKey(dataDir),
    security:
      pki === undefined
        ? undefined
        : {
            tls: { cert: pki.serverCert, key: pki.serverKey, clientCa: pki.caCert },
            tokens,
            anonymous: booleanFlag('anonymous-auth', values['anonymous-auth']),
            frontProxy: { cert: pki.frontProxyClientCert, key: pki.frontProxyClientKey },
          },
    limits: {
      maxRequestsInFlight: countFlag('max-requests-inflight', values['max-requests-inflight']),
      maxMutatingRequestsInFlight: countFlag('max-mutating-requests-inflight', values['max-mutating-requests-inflight']),
      requestTimeoutMs: durationFlag('request-timeout', values['request-timeout']),
    },
    controllers: { garbageCollector: gcEnabled, gcWorkers, strictBlockOwnerDeletion, namespaceWorkers, pvcProtectionCountFinishedPods },
    leaderElection: booleanFlag('leader-elect', values['leader-elect'])
      ? {
          leaseDurationMs: durationFlag('leader-elect-lease-duration', values['leader-elect-lease-duration']),
          renewDeadlineMs: durationFlag('leader-elect-renew-deadline', values['leader-elect-renew-deadline']),
          retryPeriodMs: durationFlag('leader-elect-retry-period', values['leader-elect-retry-period']),
        }
      : undefined,
  });
  await writeKubeconfig(kubeconfigPath, server.url, { caCert: pki?.caCert, token: adminToken });
  process.stdout.write(`Cascade API server listening on ${server.url} — export KUBECONFIG=${kubeconfigPath}\n`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`cascade: error while stopping on ${signal}:`, err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
