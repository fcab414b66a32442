import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCertificateAuthority, issueClientCertificate } from '../../src/pki/issue.js';
import { type EtcdCluster, etcdUnavailableReason, startEtcdCluster } from '../support/etcd-cluster.js';
import { startKubectl } from '../support/kubectl-process.js';
import { startTestServer, type TestServer, WITHOUT_WORKLOAD_CONTROLLERS } from '../support/test-server.js';

/** Short, so that the test is quick; a frozen member is left after some 1 s of silence. */
const CALL_TIMEOUT_MS = 8_000;
const KEEPALIVE_MS = 500;
const NS = 'etcd-failover';

/** `cascade serve` on the cluster with these etcd flags; resolves with its exit code and stderr once it exits. */
async function serveUntilExit(
  endpoints: readonly string[],
  dataDir: string,
  flags: readonly string[],
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      'dist/src/cli/main.js',
      'serve',
      '--storage=etcd',
      `--etcd-servers=${endpoints.join(',')}`,
      ...flags,
      `--data-dir=${dataDir}`,
      '--secure-port=0',
      '--insecure-http=true',
      '--etcd-request-timeout=5s',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, stderr };
}

describe('kubectl on a 3-member mTLS etcd cluster (issue 25)', { skip: etcdUnavailableReason(), timeout: 90_000 }, () => {
  let cluster: EtcdCluster;
  let ts: TestServer;
  before(async () => {
    cluster = await startEtcdCluster(3);
    const { ca, cert, key } = cluster.credentials;
    ts = await startTestServer({
      etcd: {
        endpoints: cluster.endpoints,
        tls: { ca, cert, key },
        callTimeoutMs: CALL_TIMEOUT_MS,
        keepaliveTimeMs: KEEPALIVE_MS,
        keepaliveTimeoutMs: KEEPALIVE_MS,
      },
      controllers: WITHOUT_WORKLOAD_CONTROLLERS,
    });
  });
  after(async () => {
    cluster?.thaw(0);
    await ts?.stop();
    await cluster?.stop();
  });

  it('keeps serving reads, writes and a watch without gap or duplicate when the member in use freezes', async () => {
    await ts.kubectlOk(['create', 'namespace', NS]);
    for (let i = 0; i < 3; i++) await ts.kubectlOk(['create', 'configmap', `before-${i}`, '-n', NS]);
    const watch = startKubectl(ts, ['get', 'configmaps', '-n', NS, '-w', '-o', 'custom-columns=NAME:.metadata.name', '--no-headers']);
    try {
      await watch.waitForStdout(/before-2\n/, 10_000);
      // The channel starts on the first member: freeze it. A read moves on once the member misses its PING.
      cluster.freeze(0);
      const started = Date.now();
      const read = await ts.kubectl(['get', 'configmap', 'before-1', '-n', NS, '-o', 'name']);
      assert.deepEqual([read.code, read.stdout, read.stderr], [0, 'configmap/before-1\n', '']);
      assert.ok(Date.now() - started < CALL_TIMEOUT_MS, `the read took ${Date.now() - started} ms`);
      for (let i = 0; i < 3; i++) await ts.kubectlOk(['create', 'configmap', `after-${i}`, '-n', NS]);
      await watch.waitForStdout(/after-2\n/, 15_000);
      const names = watch
        .stdout()
        .split('\n')
        .filter((line) => /^(before|after)-/.test(line));
      assert.deepEqual(names, ['before-0', 'before-1', 'before-2', 'after-0', 'after-1', 'after-2']);

      // The member comes back and catches up; everything written meanwhile is there.
      cluster.thaw(0);
      await cluster.waitHealthy(0);
      assert.equal(
        await ts.kubectlOk(['get', 'configmaps', '-n', NS, '-o', 'name']),
        'configmap/after-0\nconfigmap/after-1\nconfigmap/after-2\nconfigmap/before-0\nconfigmap/before-1\nconfigmap/before-2\n',
      );
    } finally {
      cluster.thaw(0);
      await watch.stop();
    }
  });

  it('refuses to start, exiting non-zero, with a key that is not the certificate’s, a CA that does not verify the members, no client certificate, or bad etcd flags', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cascade-etcd-badtls-'));
    try {
      const otherCa = createCertificateAuthority('another-ca');
      const otherClient = issueClientCertificate(otherCa, 'someone', []);
      const otherKey = join(dir, 'other.key');
      const otherCaFile = join(dir, 'other-ca.crt');
      await writeFile(otherKey, otherClient.key);
      await writeFile(otherCaFile, otherCa.cert);
      const { caFile, certFile, keyFile } = cluster.credentials;

      const mismatched = await serveUntilExit(cluster.endpoints, join(dir, 'a'), [
        `--etcd-cafile=${caFile}`,
        `--etcd-certfile=${certFile}`,
        `--etcd-keyfile=${otherKey}`,
      ]);
      assert.equal(mismatched.code, 1);
      assert.equal(
        mismatched.stderr,
        'cascade: unable to load the etcd client certificate --etcd-certfile with --etcd-keyfile: tls: private key does not match public key\n',
      );

      const unverified = await serveUntilExit(cluster.endpoints, join(dir, 'b'), [
        `--etcd-cafile=${otherCaFile}`,
        `--etcd-certfile=${certFile}`,
        `--etcd-keyfile=${keyFile}`,
      ]);
      assert.equal(unverified.code, 1);
      assert.match(unverified.stderr, /^cascade: TLS handshake with etcd at https:\/\/127\.0\.0\.1:\d+ failed: x509: /);

      const badTransport = await serveUntilExit(cluster.endpoints, join(dir, 'd'), ['--etcd-transport=grpc']);
      assert.deepEqual(badTransport, { code: 1, stderr: 'cascade: --etcd-transport must be one of fast, node-http2, got grpc\n' });
      const noKeepalive = await serveUntilExit(cluster.endpoints, join(dir, 'e'), ['--etcd-keepalive-timeout=0']);
      assert.deepEqual(noKeepalive, { code: 1, stderr: 'cascade: --etcd-keepalive-timeout must be greater than 0, got 0\n' });

      const anonymous = await serveUntilExit(cluster.endpoints, join(dir, 'c'), [`--etcd-cafile=${caFile}`]);
      assert.equal(anonymous.code, 1);
      assert.match(
        anonymous.stderr,
        /^cascade: etcd at https:\/\/127\.0\.0\.1:\d+ refused the client certificate \(tls: alert [a-z ]+\)\n$/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
