import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { describe, test } from 'node:test';
import { createCertificateAuthority, issueClientCertificate, issueServingCertificate } from './issue.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const SERVING_HOSTS = ['127.0.0.1', '::1', 'localhost', 'api.example.test'];

function serialBytes(cert: X509Certificate): Buffer {
  return Buffer.from(cert.serialNumber, 'hex');
}

describe('certificate authority', () => {
  const ca = createCertificateAuthority('test-ca');
  const cert = new X509Certificate(ca.cert);

  test('is a self-signed P-256 CA valid for about ten years from a few minutes ago', () => {
    assert.equal(cert.ca, true);
    assert.equal(cert.subject, 'CN=test-ca');
    assert.equal(cert.issuer, 'CN=test-ca');
    assert.equal(cert.verify(cert.publicKey), true);
    assert.equal(cert.checkPrivateKey(createPrivateKey(ca.key)), true);
    assert.equal(cert.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    const notBefore = Date.parse(cert.validFrom);
    const notAfter = Date.parse(cert.validTo);
    assert.ok(notBefore < Date.now() - 60_000, 'notBefore is back-dated for clock skew');
    assert.ok(notBefore > Date.now() - 60 * 60_000);
    assert.ok(Math.abs(notAfter - notBefore - 3650 * DAY_MS) < 60 * 60_000);
  });

  test('keys are PKCS#8 PEM', () => {
    assert.match(ca.key, /^-----BEGIN PRIVATE KEY-----\n/);
  });

  test('serial numbers are 16 random bytes, positive', () => {
    const serials = [cert, new X509Certificate(createCertificateAuthority('other').cert)].map(serialBytes);
    for (const serial of serials) {
      assert.equal(serial.length, 16);
      assert.equal(serial[0]! & 0x80, 0);
    }
    assert.notDeepEqual(serials[0], serials[1]);
  });
});

describe('leaf certificates', () => {
  const ca = createCertificateAuthority('test-ca');
  const caCert = new X509Certificate(ca.cert);

  test('a serving certificate carries serverAuth and every host as a SAN, signed by the CA', () => {
    const serving = issueServingCertificate(ca, 'kube-apiserver', SERVING_HOSTS);
    const cert = new X509Certificate(serving.cert);
    assert.equal(cert.ca, false);
    assert.equal(cert.subject, 'CN=kube-apiserver');
    assert.equal(cert.issuer, 'CN=test-ca');
    assert.equal(cert.verify(caCert.publicKey), true);
    assert.equal(cert.checkIssued(caCert), true);
    assert.equal(cert.checkPrivateKey(createPrivateKey(serving.key)), true);
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
    assert.equal(cert.checkIP('127.0.0.1'), '127.0.0.1');
    assert.equal(cert.checkIP('::1'), '::1');
    assert.equal(cert.checkHost('localhost'), 'localhost');
    assert.equal(cert.checkHost('api.example.test'), 'api.example.test');
    assert.equal(cert.checkHost('elsewhere.example.test'), undefined);
    const lifetime = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
    assert.ok(Math.abs(lifetime - 365 * DAY_MS) < 60 * 60_000);
  });

  test('a leaf is not trusted by an unrelated CA', () => {
    const other = new X509Certificate(createCertificateAuthority('other-ca').cert);
    const cert = new X509Certificate(issueServingCertificate(ca, 'kube-apiserver', SERVING_HOSTS).cert);
    assert.equal(cert.verify(other.publicKey), false);
    assert.equal(cert.checkIssued(other), false);
  });

  test('a client certificate names the user in CN and each group in its own O', () => {
    const client = issueClientCertificate(ca, 'alice', ['system:masters', 'developers']);
    const cert = new X509Certificate(client.cert);
    assert.equal(cert.subject, 'O=system:masters\nO=developers\nCN=alice');
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    assert.equal(cert.verify(caCert.publicKey), true);
    assert.equal(cert.subjectAltName, undefined);
  });

  test('every leaf gets its own key pair', () => {
    const a = issueClientCertificate(ca, 'a', []);
    const b = issueClientCertificate(ca, 'b', []);
    assert.notEqual(a.key, b.key);
    assert.equal(new X509Certificate(a.cert).checkPrivateKey(createPrivateKey(b.key)), false);
  });
});
