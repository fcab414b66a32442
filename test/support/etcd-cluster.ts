import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificateAuthority, issueClientCertificate, issueServingCertificate } from '../../src/pki/issue.js';
import { etcdUnavailableReason, findEtcd } from './etcd-server.js';

export { etcdUnavailableReason };

/** Client TLS material, as files (for `cascade serve`'s flags) and as PEM (for the programmatic options). */
export interface ClusterCredentials {
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
  readonly ca: Buffer;
  readonly cert: Buffer;
  readonly key: Buffer;
}

export interface EtcdMember {
  readonly name: string;
  /** https://127.0.0.1:<port> */
  readonly endpoint: string;
  readonly pid: number;
  readonly running: boolean;
}

export interface EtcdCluster {
  readonly members: readonly EtcdMember[];
  readonly endpoints: readonly string[];
  readonly credentials: ClusterCredentials;
  /** SIGKILL, as a crash would; resolves once the process is gone. */
  kill(index: number): Promise<void>;
  /** SIGSTOP: the member keeps its sockets but answers nothing, as a frozen host would. */
  freeze(index: number): void;
  thaw(index: number): void;
  /** Starts a killed member again on its data and ports, and waits until it serves. */
  restart(index: number): Promise<void>;
  /** Waits until the member answers /health. */
  waitHealthy(index: number): Promise<void>;
  /** Kills every member (frozen ones too) and removes all files. Safe to call twice. */
  stop(): Promise<void>;
  /** The last lines of a member's log, for failure messages. */
  logTail(index: number): string;
}

const READY_TIMEOUT_MS = 20_000;

/** Every cluster's processes, killed when this process exits however it exits. */
const live = new Set<ChildProcess>();
const roots = new Set<string>();
let hooked = false;
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const child of live) child.kill('SIGKILL');
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
}

/**
 * A `size`-member etcd cluster on loopback whose client URLs are https with client-certificate authentication
 * (--client-cert-auth, as kubeadm sets it up); peers talk plain HTTP, which is not under test. Certificates come
 * from Cascade's own PKI helpers.
 */
export async function startEtcdCluster(size = 3): Promise<EtcdCluster> {
  const binary = findEtcd();
  if (binary === undefined) throw new Error(etcdUnavailableReason());
  hookExit();
  const root = await mkdtemp(join(tmpdir(), 'cascade-etcd-cluster-'));
  roots.add(root);
  const ca = createCertificateAuthority('cascade-test-etcd-ca');
  const server = issueServingCertificate(ca, 'etcd', ['127.0.0.1', 'localhost']);
  const client = issueClientCertificate(ca, 'cascade-apiserver', []);
  const file = async (name: string, contents: string): Promise<string> => {
    const path = join(root, name);
    await writeFile(path, contents, { mode: 0o600 });
    return path;
  };
  const credentials: ClusterCredentials = {
    caFile: await file('ca.crt', ca.cert),
    certFile: await file('client.crt', client.cert),
    keyFile: await file('client.key', client.key),
    ca: Buffer.from(ca.cert),
    cert: Buffer.from(client.cert),
    key: Buffer.from(client.key),
  };
  const serverCert = await file('server.crt', server.cert);
  const serverKey = await file('server.key', server.key);
  const ports = await freePorts(size * 2);
  const names = Array.from({ length: size }, (_, i) => `m${i}`);
  const peerUrl = (i: number): string => `http://127.0.0.1:${ports[2 * i + 1]}`;
  const clientUrl = (i: number): string => `https://127.0.0.1:${ports[2 * i]}`;
  const initialCluster = names.map((name, i) => `${name}=${peerUrl(i)}`).join(',');
  const children: (ChildProcess | undefined)[] = new Array(size).fill(undefined);
  const exits: Promise<void>[] = new Array(size).fill(Promise.resolve());

  const launch = async (i: number): Promise<void> => {
    const dataDir = join(root, `data-${i}`);
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const log = openSync(join(root, `${names[i]}.log`), 'a');
    let child: ChildProcess;
    try {
      child = spawn(
        binary,
        [
          `--name=${names[i]}`,
          `--data-dir=${dataDir}`,
          `--listen-client-urls=${clientUrl(i)}`,
          `--advertise-client-urls=${clientUrl(i)}`,
          `--listen-peer-urls=${peerUrl(i)}`,
          `--initial-advertise-peer-urls=${peerUrl(i)}`,
          `--initial-cluster=${initialCluster}`,
          '--initial-cluster-state=new',
          '--initial-cluster-token=cascade-test',
          `--cert-file=${serverCert}`,
          `--key-file=${serverKey}`,
          `--trusted-ca-file=${credentials.caFile}`,
          '--client-cert-auth',
          // Elections in about a second keep failover tests short.
          '--heartbeat-interval=100',
          '--election-timeout=1000',
          '--logger=zap',
        ],
        { stdio: ['ignore', log, log] },
      );
    } finally {
      closeSync(log);
    }
    live.add(child);
    children[i] = child;
    exits[i] = new Promise<void>((resolve) => {
      child.once('exit', () => {
        live.delete(child);
        resolve();
      });
      child.once('error', () => resolve());
    });
  };

  const health = (i: number): Promise<boolean> =>
    new Promise((resolve) => {
      const req = request(
        `${clientUrl(i)}/health`,
        { ca: credentials.ca, cert: credentials.cert, key: credentials.key, timeout: 1_000 },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve(res.statusCode === 200 && body.includes('"true"')));
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(false));
      req.end();
    });

  const logTail = (i: number): string => {
    try {
      return readFileSync(join(root, `${names[i]}.log`), 'utf8')
        .split('\n')
        .slice(-15)
        .join('\n');
    } catch {
      return '(no log)';
    }
  };

  const waitHealthy = async (i: number): Promise<void> => {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(await health(i))) {
      if (children[i]?.exitCode !== null) throw new Error(`etcd member ${names[i]} exited\n${logTail(i)}`);
      if (Date.now() > deadline) throw new Error(`etcd member ${names[i]} not healthy within ${READY_TIMEOUT_MS} ms\n${logTail(i)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  let stopped: Promise<void> | undefined;
  const cluster: EtcdCluster = {
    get members() {
      return names.map((name, i) => ({
        name,
        endpoint: clientUrl(i),
        pid: children[i]?.pid ?? 0,
        running: children[i] !== undefined && children[i]?.exitCode === null && children[i]?.signalCode === null,
      }));
    },
    endpoints: names.map((_, i) => clientUrl(i)),
    credentials,
    async kill(i) {
      children[i]?.kill('SIGKILL');
      await exits[i];
    },
    freeze(i) {
      children[i]?.kill('SIGSTOP');
    },
    thaw(i) {
      children[i]?.kill('SIGCONT');
    },
    async restart(i) {
      await launch(i);
      await waitHealthy(i);
    },
    waitHealthy,
    logTail,
    stop() {
      stopped ??= (async () => {
        for (const child of children) child?.kill('SIGKILL');
        await Promise.all(exits);
        await rm(root, { recursive: true, force: true });
        roots.delete(root);
      })();
      return stopped;
    },
  };
  try {
    for (let i = 0; i < size; i++) await launch(i);
    await Promise.all(names.map((_, i) => waitHealthy(i)));
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

/** Ports the kernel hands out as free, all held together so that they differ. */
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
