import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AuditPolicy } from '../audit/policy.js';
import { type AuditOptions, startApiServer } from '../server/api-server.js';
import { openBackend, STORAGE_BACKENDS, type StorageKind } from '../storage/open.js';
import { ETCD_TRANSPORTS, type EtcdTransportKind, isEtcdTransport } from '../storage/etcd/transport.js';
import { loadTokenFile } from '../auth/authn/token-file.js';
import type { UserInfo } from '../api/user.js';
import { SYSTEM_MASTERS } from '../api/user.js';
import { loadOrCreateAdminToken } from './admin-token.js';
import { loadOrCreateServiceAccountKey } from '../pki/service-account-key.js';
import { writeKubeconfig } from './kubeconfig.js';
import { pflagUsages, SERVE_FLAGS } from './serve-flags.js';
import { versionLine } from './version.js';
import { parseControllersFlag } from '../controllers/selection.js';
import { MAX_SIMULATED_NODES } from '../controllers/nodes/simulated-node.js';
import { UiMount } from '../ui/serve-mount.js';

export const SERVE_USAGE = `Usage:
  cascade serve [flags]

Flags:
${pflagUsages(SERVE_FLAGS, 'serve')}`;

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

const BOOLEAN_FLAGS: ReadonlySet<string> = new Set(SERVE_FLAGS.filter((f) => f.type === 'bool').map((f) => f.name));

/** kube-style durations: "15s", "500ms", "1m", "1m30s". */
function durationFlag(name: string, value: string): number {
  if (value === '0') return 0;
  const parts = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?(?:(\d+)ms)?$/.exec(value);
  if (parts === null || value === '') throw new Error(`--${name} must be a duration such as 15s or 500ms, got ${value}`);
  return Number(parts[1] ?? 0) * 3_600_000 + Number(parts[2] ?? 0) * 60_000 + Number(parts[3] ?? 0) * 1000 + Number(parts[4] ?? 0);
}

/** Archiving is on unless its retention is 0. */
function archiveOptions(retentionMs: number, maxBytes: number): { retentionMs: number; maxBytes: number } | undefined {
  return retentionMs === 0 ? undefined : { retentionMs, maxBytes };
}

function etcdTransport(value: string): EtcdTransportKind {
  if (!isEtcdTransport(value)) throw new Error(`--etcd-transport must be one of ${ETCD_TRANSPORTS.join(', ')}, got ${value}`);
  return value;
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
  const { values: parsed } = parseArgs({
    args: withBareBooleans(argv, BOOLEAN_FLAGS),
    options: {
      ...Object.fromEntries(
        SERVE_FLAGS.map((f) => [
          f.name,
          f.default === '' && f.type === 'string' ? { type: 'string' as const } : { type: 'string' as const, default: f.default },
        ]),
      ),
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  const values = parsed as Readonly<Record<string, string | boolean | undefined>>;
  /** A flag's value: its default when not given. */
  const flag = (name: string): string => String(values[name]);
  /** A flag without a default: undefined when not given. */
  const optional = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  if (values.help === true) {
    process.stdout.write(SERVE_USAGE);
    return;
  }
  if (booleanFlag('version', flag('version'))) {
    process.stdout.write(versionLine());
    return;
  }
  const port = Number(flag('secure-port'));
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--secure-port must be a port number (0-65535), got ${flag('secure-port')}`);
  if (!(STORAGE_BACKENDS as readonly string[]).includes(flag('storage'))) {
    throw new Error(`--storage must be one of ${STORAGE_BACKENDS.join(', ')}, got ${flag('storage')}`);
  }
  const selected = parseControllersFlag(flag('controllers'));
  // --enable-garbage-collector=false wins over a --controllers list that names the collector.
  const gcEnabled = booleanFlag('enable-garbage-collector', flag('enable-garbage-collector')) && selected.garbageCollector !== false;
  const strictBlockOwnerDeletion = booleanFlag('strict-block-owner-deletion', flag('strict-block-owner-deletion'));
  const orphanWaitsForObservedGeneration = booleanFlag(
    'orphan-waits-for-observed-generation',
    flag('orphan-waits-for-observed-generation'),
  );
  const orphanObservedGenerationTimeoutMs = durationFlag('orphan-observed-generation-timeout', flag('orphan-observed-generation-timeout'));
  const propagateGracePeriod = booleanFlag('propagate-grace-period', flag('propagate-grace-period'));
  const gcWorkers = positiveIntegerFlag('concurrent-gc-syncs', flag('concurrent-gc-syncs'));
  const namespaceWorkers = positiveIntegerFlag('concurrent-namespace-syncs', flag('concurrent-namespace-syncs'));
  const pvcProtectionCountFinishedPods = booleanFlag('pvc-protection-count-finished-pods', flag('pvc-protection-count-finished-pods'));
  const simulateNodes = countFlag('simulate-nodes', flag('simulate-nodes'));
  const maxEndpointsPerSlice = countFlag('max-endpoints-per-slice', flag('max-endpoints-per-slice'));
  if (maxEndpointsPerSlice < 1 || maxEndpointsPerSlice > 1000)
    throw new Error(`--max-endpoints-per-slice must be between 1 and 1000, got ${flag('max-endpoints-per-slice')}`);
  if (simulateNodes > MAX_SIMULATED_NODES) throw new Error(`--simulate-nodes must be at most ${MAX_SIMULATED_NODES}, got ${simulateNodes}`);
  const dataDir = resolve(flag('data-dir'));
  const kubeconfigPath = resolve(optional('kubeconfig-out') ?? `${dataDir}/kubeconfig`);
  const host = flag('bind-address');
  const insecure = booleanFlag('insecure-http', flag('insecure-http'));
  if (insecure && optional('token-auth-file') !== undefined)
    throw new Error('--token-auth-file needs HTTPS: it cannot be combined with --insecure-http');
  // Loaded on demand: the DER libraries cost ~75 ms of start-up a plain-HTTP server does not need.
  const pki = insecure ? undefined : (await import('../pki/serving-pki.js')).loadOrCreateServingPki(dataDir, [host]);
  const adminToken = insecure ? undefined : await loadOrCreateAdminToken(dataDir);
  const tokenFile = optional('token-auth-file');
  const tokens = new Map<string, UserInfo>(tokenFile === undefined ? [] : await loadTokenFile(resolve(tokenFile)));
  if (adminToken !== undefined) tokens.set(adminToken, { name: 'cascade-admin', groups: [SYSTEM_MASTERS] });
  const requestTimeoutMs = durationFlag('request-timeout', flag('request-timeout'));
  // kube-apiserver's etcd calls run under their request's context: the same bound here unless
  // --etcd-request-timeout sets its own ("0" for both keeps the default).
  const etcdRequestTimeoutMs = durationFlag('etcd-request-timeout', flag('etcd-request-timeout')) || requestTimeoutMs;
  const positiveDuration = (name: string): number => {
    const ms = durationFlag(name, flag(name));
    if (ms <= 0) throw new Error(`--${name} must be greater than 0, got ${flag(name)}`);
    return ms;
  };
  const etcdFile = (name: 'etcd-cafile' | 'etcd-certfile' | 'etcd-keyfile'): string | undefined =>
    optional(name) === undefined || optional(name) === '' ? undefined : resolve(flag(name));
  const audit = await auditOptions(optional('audit-log-path'), optional('audit-policy-file'));
  // The web UI at /ui/: its pages read the API with the page's own token (src/ui/serve-mount.ts).
  const uiMount = new UiMount();
  const server = await startApiServer({
    frontHandler: (req, res) => uiMount.handle(req, res),
    backend: openBackend({
      storage: flag('storage') as StorageKind,
      dataDir,
      etcdServers: optional('etcd-servers')
        ?.split(',')
        .map((e) => e.trim())
        .filter((e) => e !== ''),
      etcdPrefix: flag('etcd-prefix'),
      etcdCompactionIntervalMs: durationFlag('etcd-compaction-interval', flag('etcd-compaction-interval')),
      etcdCaFile: etcdFile('etcd-cafile'),
      etcdCertFile: etcdFile('etcd-certfile'),
      etcdKeyFile: etcdFile('etcd-keyfile'),
      etcdRequestTimeoutMs: etcdRequestTimeoutMs === 0 ? undefined : etcdRequestTimeoutMs,
      etcdKeepaliveTimeMs: positiveDuration('etcd-keepalive-time'),
      etcdKeepaliveTimeoutMs: positiveDuration('etcd-keepalive-timeout'),
      etcdTransport: etcdTransport(flag('etcd-transport')),
    }),
    host,
    port,
    serviceAccountKey: loadOrCreateServiceAccountKey(dataDir),
    security:
      pki === undefined
        ? undefined
        : {
            tls: { cert: pki.serverCert, key: pki.serverKey, clientCa: pki.caCert },
            signingCa: { cert: pki.caCert, key: pki.caKey },
            tokens,
            anonymous: booleanFlag('anonymous-auth', flag('anonymous-auth')),
            frontProxy: { cert: pki.frontProxyClientCert, key: pki.frontProxyClientKey },
          },
    limits: {
      maxRequestsInFlight: countFlag('max-requests-inflight', flag('max-requests-inflight')),
      maxMutatingRequestsInFlight: countFlag('max-mutating-requests-inflight', flag('max-mutating-requests-inflight')),
      requestTimeoutMs,
    },
    controllers: {
      ...selected,
      garbageCollector: gcEnabled,
      gcWorkers,
      strictBlockOwnerDeletion,
      orphanWaitsForObservedGeneration,
      orphanObservedGenerationTimeoutMs,
      propagateGracePeriod,

      namespaceWorkers,
      pvcProtectionCountFinishedPods,
      simulateNodes: simulateNodes > 0 ? simulateNodes : undefined,
      maxEndpointsPerSlice,
    },
    archive: archiveOptions(
      durationFlag('archive-retention', flag('archive-retention')),
      countFlag('archive-max-bytes', flag('archive-max-bytes')),
    ),
    audit,
    leaderElection: booleanFlag('leader-elect', flag('leader-elect'))
      ? {
          leaseDurationMs: durationFlag('leader-elect-lease-duration', flag('leader-elect-lease-duration')),
          renewDeadlineMs: durationFlag('leader-elect-renew-deadline', flag('leader-elect-renew-deadline')),
          retryPeriodMs: durationFlag('leader-elect-retry-period', flag('leader-elect-retry-period')),
        }
      : undefined,
  });
  await writeKubeconfig(kubeconfigPath, server.url, { caCert: pki?.caCert, token: adminToken });
  uiMount.attach(server.url, pki?.caCert);
  process.stdout.write(`Cascade API server listening on ${server.url} — export KUBECONFIG=${kubeconfigPath}\n`);
  process.stdout.write(`Web UI at ${server.url.replace(/\/$/, '')}/ui/\n`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    Promise.all([uiMount.close(), server.close()]).then(
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

/** kube-apiserver's audit options: both a log path and a policy file, else no audit log (it warns as Cascade does). */
async function auditOptions(logPath: string | undefined, policyFile: string | undefined): Promise<AuditOptions | undefined> {
  if (logPath === undefined || logPath === '') return undefined;
  if (policyFile === undefined || policyFile === '') {
    process.stderr.write('No audit policy file provided, no events will be recorded for log backend\n');
    return undefined;
  }
  let policy: AuditPolicy;
  try {
    policy = AuditPolicy.parse(await readFile(resolve(policyFile), 'utf8'));
  } catch (err) {
    throw new Error(`loading audit policy file: ${policyFile}: ${(err as Error).message}`);
  }
  return { logPath: logPath === '-' ? '-' : resolve(logPath), policy };
}
