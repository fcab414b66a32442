import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import type { Server } from 'node:https';
import { after, before, describe, test } from 'node:test';
import { checkServerIdentity } from 'node:tls';
import type { PeerCertificate } from 'node:tls';
import { createCertificateAuthority, issueClientCertificate, issueServingCertificate } from './issue.js';
import { getJson, startEchoServer, stopServer } from './tls-test-helpers.js';

// Real handshakes through node:https: the certificates must satisfy OpenSSL's chain, purpose and
// hostname checks, not only parse.
const ca = createCertificateAuthority('test-ca');
const serving = issueServingCertificate(ca, 'kube-apiserver', ['127.0.0.1', '::1', 'localhost']);

describe('serving certificate over TLS', () => {
  let ipv4: { server: Server; port: number };
  let ipv6: { server: Server; port: number } | undefined;

  before(async () => {
    ipv4 = await startEchoServer({ cert: serving.cert, key: serving.key }, '127.0.0.1');
    try {
      ipv6 = await startEchoServer({ cert: serving.cert, key: serving.key }, '::1');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EADDRNOTAVAIL' && code !== 'EAFNOSUPPORT') throw error;
    }
  });
  after(async () => {
    await stopServer(ipv4.server);
    if (ipv6) await stopServer(ipv6.server);
  });

  test('a client trusting only the CA connects to 127.0.0.1', async () => {
    const report = await getJson({ host: '127.0.0.1', port: ipv4.port, ca: ca.cert });
    assert.equal(report.subject, null, 'no client certificate was sent');
  });

  test('a client trusting only the CA connects to localhost', async () => {
    await getJson({ host: 'localhost', family: 4, port: ipv4.port, ca: ca.cert });
  });

  test('a client trusting only the CA connects to [::1]', async (t) => {
    if (!ipv6) {
      t.skip('this machine has no IPv6 loopback');
      return;
    }
    await getJson({ host: '::1', port: ipv6.port, ca: ca.cert });
  });

  test('hostname verification fails for a name not in the SANs', async () => {
    await assert.rejects(getJson({ host: '127.0.0.1', servername: 'not-listed.example.test', port: ipv4.port, ca: ca.cert }), {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
  });

  test('an IP address not in the SANs is refused by the identity check', () => {
    const peer = { subject: {}, subjectaltname: new X509Certificate(serving.cert).subjectAltName } as PeerCertificate;
    assert.equal(checkServerIdentity('127.0.0.1', peer), undefined);
    assert.ok(checkServerIdentity('127.0.0.2', peer) instanceof Error);
  });

  test('a client that does not trust the CA is refused', async () => {
    const stranger = createCertificateAuthority('stranger-ca');
    await assert.rejects(getJson({ host: '127.0.0.1', port: ipv4.port, ca: stranger.cert }), {
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
  });
});

describe('client certificate over TLS', () => {
  let server: { server: Server; port: number };

  before(async () => {
    server = await startEchoServer(
      { cert: serving.cert, key: serving.key, ca: ca.cert, requestCert: true, rejectUnauthorized: false },
      '127.0.0.1',
    );
  });
  after(() => stopServer(server.server));

  test('is accepted and presents the user as CN and groups as an O array', async () => {
    const client = issueClientCertificate(ca, 'alice', ['system:masters', 'developers']);
    const report = await getJson({ host: '127.0.0.1', port: server.port, ca: ca.cert, cert: client.cert, key: client.key });
    assert.equal(report.authorized, true, report.authorizationError ?? '');
    assert.equal(report.subject?.CN, 'alice');
    // Node joins repeated attributes into an array, in certificate order.
    assert.deepEqual(report.subject?.O, ['system:masters', 'developers']);
  });

  test('a single group comes through as a plain string', async () => {
    const client = issueClientCertificate(ca, 'bob', ['viewers']);
    const report = await getJson({ host: '127.0.0.1', port: server.port, ca: ca.cert, cert: client.cert, key: client.key });
    assert.equal(report.authorized, true);
    assert.deepEqual(report.subject, { O: 'viewers', CN: 'bob' });
  });

  test('a certificate from another CA is not authorized', async () => {
    const stranger = issueClientCertificate(createCertificateAuthority('stranger-ca'), 'mallory', []);
    const report = await getJson({
      host: '127.0.0.1',
      port: server.port,
      ca: ca.cert,
      cert: stranger.cert,
      key: stranger.key,
    });
    assert.equal(report.authorized, false);
    assert.equal(report.authorizationError, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    assert.equal(report.subject?.CN, 'mallory');
  });

  test('a serving certificate is not accepted as a client certificate (extKeyUsage)', async () => {
    const report = await getJson({
      host: '127.0.0.1',
      port: server.port,
      ca: ca.cert,
      cert: serving.cert,
      key: serving.key,
    });
    assert.equal(report.authorized, false);
    assert.equal(report.authorizationError, 'INVALID_PURPOSE');
  });
});
