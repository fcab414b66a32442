import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { createHttpClient, type HttpClientConfig } from './http-client.js';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A throwaway CA with a server certificate for 127.0.0.1 and a client certificate for "alice". */
async function makeCertificates(dir: string): Promise<Record<'ca' | 'serverCert' | 'serverKey' | 'clientCert' | 'clientKey', Buffer>> {
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  };
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=cascade-test-ca');
  await writeFile(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\n');
  for (const [name, subject, ext] of [
    ['server', '/CN=127.0.0.1', ['-extfile', 'server.ext']],
    ['client', '/CN=alice', []],
  ] as const) {
    openssl('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '1',
      ...ext,
    );
  }
  const read = (file: string): Promise<Buffer> => readFile(join(dir, file));
  return {
    ca: await read('ca.crt'),
    serverCert: await read('server.crt'),
    serverKey: await read('server.key'),
    clientCert: await read('client.crt'),
    clientKey: await read('client.key'),
  };
}

interface Seen {
  authorization: string | undefined;
  clientCommonName: string | undefined;
  clientAuthorized: boolean;
}

describe('HTTPS with certificate authorities, client certificates, tokens and basic auth', {
  skip: !hasOpenssl() && 'openssl is not installed',
}, () => {
  let dir: string;
  let certs: Awaited<ReturnType<typeof makeCertificates>>;
  let server: Server;
  let url: string;
  let seen: Seen[];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cascade-tls-'));
    certs = await makeCertificates(dir);
    seen = [];
    server = createServer(
      { cert: certs.serverCert, key: certs.serverKey, ca: certs.ca, requestCert: true, rejectUnauthorized: false },
      (req, res) => {
        const socket = req.socket as TLSSocket;
        const peer = socket.getPeerCertificate();
        const commonName = peer?.subject?.CN;
        seen.push({
          authorization: req.headers.authorization,
          clientCommonName: Array.isArray(commonName) ? commonName[0] : commonName,
          clientAuthorized: socket.authorized,
        });
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '1' }, items: [] }));
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  async function listWith(config: Omit<HttpClientConfig, 'server'>): Promise<Seen> {
    const client = createHttpClient({ server: url, ...config });
    try {
      const list = await client.list(CONFIGMAPS, undefined);
      assert.equal(list.kind, 'ConfigMapList');
      const last = seen.at(-1);
      assert.ok(last);
      return last;
    } finally {
      client.close();
    }
  }

  test('the cluster CA verifies the server, and a bearer token is sent', async () => {
    const request = await listWith({ ca: certs.ca, token: 'abc.def' });
    assert.equal(request.authorization, 'Bearer abc.def');
    assert.equal(request.clientCommonName, undefined);
  });

  test('a client certificate authenticates the client', async () => {
    const request = await listWith({ ca: certs.ca, clientCert: certs.clientCert, clientKey: certs.clientKey });
    assert.equal(request.clientCommonName, 'alice');
    assert.equal(request.clientAuthorized, true);
  });

  test('basic authentication', async () => {
    const request = await listWith({ ca: certs.ca, username: 'alice', password: 'pw' });
    assert.equal(request.authorization, `Basic ${Buffer.from('alice:pw').toString('base64')}`);
  });

  test('an unknown CA is refused unless TLS verification is skipped', async () => {
    const client = createHttpClient({ server: url });
    try {
      await assert.rejects(
        client.list(CONFIGMAPS, undefined),
        new RegExp(`^Error: cannot reach the Kubernetes API server at ${url.replace(/\./g, '\\.')}: .*certificate`),
      );
    } finally {
      client.close();
    }
    const request = await listWith({ insecureSkipTLSVerify: true });
    assert.equal(request.authorization, undefined);
  });
});
