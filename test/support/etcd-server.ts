import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface EtcdServer {
  /** The client URL, e.g. http://127.0.0.1:41234. */
  readonly endpoint: string;
  readonly clientPort: number;
  readonly peerPort: number;
  readonly dataDir: string;
  /** Where etcd's stdout and stderr go; read it when a test fails. */
  readonly logFile: string;
  readonly pid: number;
  /** Terminates etcd gracefully (SIGKILL after a bound) and removes the directory this call created. */
  stop(): Promise<void>;
  /** SIGKILL at once, as a crash would; stop() still waits for the exit and cleans up. */
  kill(): void;
}

export interface StartEtcdOptions {
  /**
   * Run on this existing data directory (e.g. to restart an etcd on the data a previous one left); the caller
   * owns it and stop() leaves it in place. Default: a fresh temporary directory that stop() removes.
   */
  readonly dataDir?: string;
  /**
   * Listen on these ports instead of free ones, e.g. to restart a killed etcd where its clients and its recorded
   * peer URL expect it. Give both or neither.
   */
  readonly ports?: { readonly client: number; readonly peer: number };
}

const READY_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 5_000;
/** Another process can take a free port between our probe and etcd's bind; a new pair of ports then fixes it. */
const START_ATTEMPTS = 3;

/**
 * Running etcds and their directories, killed and removed (best effort) when this process exits, so that a test
 * run that crashes or forces its exit leaves no etcd behind.
 */
const running = new Map<ChildProcess, string>();
let exitHookInstalled = false;

function track(child: ChildProcess, root: string): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const [orphan, dir] of running) {
        orphan.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
  running.set(child, root);
  child.once('exit', () => running.delete(child));
}

/** The etcd binary on PATH, or undefined. */
export function findEtcd(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'etcd');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/**
 * Why etcd tests cannot run here, or undefined when they can. Pass it as the `skip` option of describe/it so a
 * machine without etcd reports skipped tests with the reason instead of failures.
 */
export function etcdUnavailableReason(): string | undefined {
  return findEtcd() === undefined ? 'etcd is not installed (apt-get install etcd-server)' : undefined;
}

/** Starts a single-member etcd on free loopback ports and resolves once a client read succeeds. */
export async function startEtcd(options: StartEtcdOptions = {}): Promise<EtcdServer> {
  const binary = findEtcd();
  if (binary === undefined) throw new Error(etcdUnavailableReason());
  const root = await mkdtemp(join(tmpdir(), 'cascade-etcd-'));
  const dataDir = options.dataDir ?? join(root, 'data');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  let lastError: unknown;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    const logFile = join(root, `etcd-${attempt}.log`);
    try {
      const ports = options.ports ?? (await freePortPair());
      return await startOn(binary, root, dataDir, logFile, ports.client, ports.peer);
    } catch (error) {
      lastError = error;
      // A half-started member records its peer URL in a fresh directory; the next attempt starts clean.
      if (options.dataDir === undefined) {
        await rm(dataDir, { recursive: true, force: true });
        await mkdir(dataDir, { mode: 0o700 });
      }
    }
  }
  await rm(root, { recursive: true, force: true });
  throw lastError;
}

async function startOn(
  binary: string,
  root: string,
  dataDir: string,
  logFile: string,
  clientPort: number,
  peerPort: number,
): Promise<EtcdServer> {
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const log = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(
      binary,
      [
        '--name=cascade-test',
        `--data-dir=${dataDir}`,
        `--listen-client-urls=${endpoint}`,
        `--advertise-client-urls=${endpoint}`,
        `--listen-peer-urls=${peer}`,
        `--initial-advertise-peer-urls=${peer}`,
        `--initial-cluster=cascade-test=${peer}`,
        '--logger=zap',
      ],
      { stdio: ['ignore', log, log] },
    );
  } finally {
    closeSync(log);
  }
  track(child, root);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    // Spawning itself failed (no exit event follows).
    child.once('error', () => resolve());
  });
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });

  try {
    await waitUntilReadable(endpoint, () => hasExited);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`${(error as Error).message}\n--- ${logFile} (tail) ---\n${tail(logFile)}`);
  }

  let stopping: Promise<void> | undefined;
  return {
    endpoint,
    clientPort,
    peerPort,
    dataDir,
    logFile,
    pid: child.pid ?? 0,
    kill() {
      if (!hasExited) child.kill('SIGKILL');
    },
    stop() {
      stopping ??= (async () => {
        if (!hasExited) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
          await exited;
          clearTimeout(timer);
        }
        // The logs always live in root; the data too unless the caller brought its own directory.
        await rm(root, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}

/** A linearizable read through etcd's gRPC gateway: it succeeds only once the member has a leader and serves. */
async function waitUntilReadable(endpoint: string, hasExited: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const body = JSON.stringify({ key: Buffer.from('cascade-health').toString('base64') });
  for (;;) {
    if (hasExited()) throw new Error('etcd exited during startup');
    try {
      const res = await fetch(`${endpoint}/v3/kv/range`, { method: 'POST', body, signal: AbortSignal.timeout(1_000) });
      if (res.ok) return;
      await res.body?.cancel();
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`etcd at ${endpoint} did not serve reads within ${READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function freePortPair(): Promise<{ client: number; peer: number }> {
  const [client, peer] = await freePorts(2);
  if (client === undefined || peer === undefined) throw new Error('no free ports');
  return { client, peer };
}

/** Ports the kernel hands out as free; all are held open together so that they differ. */
async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  try {
    return await Promise.all(
      servers.map(
        (server) =>
          new Promise<number>((resolve, reject) => {
            server.once('error', reject);
            server.listen(0, '127.0.0.1', () => {
              const address = server.address();
              if (address === null || typeof address === 'string') reject(new Error('no port assigned'));
              else resolve(address.port);
            });
          }),
      ),
    );
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '(no log)';
  }
}
