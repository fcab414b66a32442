import type { ServerResponse } from 'node:http';
import type { Backend } from '../storage/backend.js';
import { notFoundPath } from '../api/errors.js';
import { sendText } from './respond.js';

/**
 * kube-apiserver's --etcd-healthcheck-timeout and --etcd-readycheck-timeout defaults: an etcd that does not
 * answer a read within this fails the `etcd` check of /livez and /healthz, and `etcd-readiness` of /readyz.
 */
export const ETCD_CHECK_TIMEOUT_MS = 2_000;

interface HealthCheck {
  readonly name: string;
  check(): Promise<void>;
}

const HEALTH_ROOTS = ['healthz', 'livez', 'readyz'] as const;
type HealthRoot = (typeof HEALTH_ROOTS)[number];

/** Whether `pathname` is one of the health endpoints or one of their single checks. */
export function isHealthPath(pathname: string): boolean {
  return HEALTH_ROOTS.some((root) => pathname === `/${root}` || pathname.startsWith(`/${root}/`));
}

/**
 * The checks of /healthz, /livez and /readyz and the answers kube-apiserver's healthz handler gives: "ok", or
 * with ?verbose one line per check and "<name> check passed"; on failure status 500 with every line, the failed
 * ones' reasons withheld (these paths are public), and "<name> check failed". /<root>/<check> runs one check and
 * gives its reason. ?exclude=<check> skips a check. The etcd checks exist only for a store outside the process.
 */
export async function serveHealth(
  res: ServerResponse,
  pathname: string,
  query: URLSearchParams,
  backend: Backend | undefined,
  isReady: () => boolean,
): Promise<void> {
  const [root, ...rest] = pathname.slice(1).split('/') as [HealthRoot, ...string[]];
  const checks = checksOf(root, backend, isReady);
  if (rest.length > 0) {
    const check = rest.length === 1 ? checks.find((c) => c.name === rest[0]) : undefined;
    // Check names with a slash (poststarthook/...) are not served here: Cascade has none. An unknown check is
    // answered as every path nothing serves is.
    if (check === undefined) throw notFoundPath();
    try {
      await check.check();
      sendText(res, 200, 'ok');
    } catch (error) {
      sendText(res, 500, `internal server error: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return;
  }
  const excluded = new Set(query.getAll('exclude'));
  const results = await Promise.all(
    checks.map(async (check): Promise<string> => {
      if (excluded.delete(check.name)) return `[+]${check.name} excluded: ok\n`;
      try {
        await check.check();
        return `[+]${check.name} ok\n`;
      } catch (error) {
        console.error(`cascade: ${root} check ${check.name} failed: ${error instanceof Error ? error.message : String(error)}`);
        return `[-]${check.name} failed: reason withheld\n`;
      }
    }),
  );
  let lines = results.join('');
  if (excluded.size > 0) {
    lines += `warn: some health checks cannot be excluded: no matches for ${[...excluded].map((name) => JSON.stringify(name)).join(',')}\n`;
  }
  if (results.some((line) => line.startsWith('[-]'))) {
    sendText(res, 500, `${lines}${root} check failed\n`);
    return;
  }
  sendText(res, 200, query.has('verbose') ? `${lines}${root} check passed\n` : 'ok');
}

function checksOf(root: HealthRoot, backend: Backend | undefined, isReady: () => boolean): HealthCheck[] {
  const checks: HealthCheck[] = [
    { name: 'ping', check: async () => {} },
    { name: 'log', check: async () => {} },
  ];
  const storeCheck = backend?.checkHealth?.bind(backend);
  if (storeCheck !== undefined) checks.push({ name: 'etcd', check: () => storeCheck(ETCD_CHECK_TIMEOUT_MS) });
  if (root === 'readyz') {
    if (storeCheck !== undefined) checks.push({ name: 'etcd-readiness', check: () => storeCheck(ETCD_CHECK_TIMEOUT_MS) });
    checks.push({
      name: 'shutdown',
      check: async () => {
        if (!isReady()) throw new Error('the server is starting or shutting down');
      },
    });
  }
  return checks;
}
