import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate, KeyUsageFlags, id_kp_serverAuth } from '@peculiar/asn1-x509';
import { signCertificate } from './certificate-builder.js';
import { encodeDistinguishedName } from './distinguished-name.js';
import { basicConstraints, extendedKeyUsage, keyUsage, subjectAltName } from './extensions.js';
import { subjectAltNamesFor } from './hosts.js';
import { pemDecode, pemEncode } from './pem.js';
import { loadOrCreateServingPki, servingPkiPaths } from './serving-pki.js';

function tempDataDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'cascade-pki-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const DAY_MS = 24 * 60 * 60 * 1000;

test('first start writes a CA, a serving certificate and the front-proxy pair', (t) => {
  const dataDir = tempDataDir(t);
  const started = performance.now();
  const pki = loadOrCreateServingPki(dataDir, ['0.0.0.0', '192.0.2.10', 'cascade.example.test']);
  t.diagnostic(`first-start generation took ${(performance.now() - started).toFixed(1)} ms`);

  const paths = servingPkiPaths(dataDir);
  assert.deepEqual(pki.paths, paths);
  assert.equal(statSync(paths.dir).mode & 0o777, 0o700);
  for (const key of [paths.caKey, paths.serverKey, paths.frontProxyCaKey, paths.frontProxyClientKey]) {
    assert.equal(statSync(key).mode & 0o777, 0o600, key);
  }
  assert.equal(readFileSync(paths.caCert, 'utf8'), pki.caCert);
  assert.equal(readFileSync(paths.serverKey, 'utf8'), pki.serverKey);
  assert.deepEqual(readdirSync(paths.dir).sort(), [
    'apiserver.crt',
    'apiserver.key',
    'ca.crt',
    'ca.key',
    'front-proxy-ca.crt',
    'front-proxy-ca.key',
    'front-proxy-client.crt',
    'front-proxy-client.key',
  ]);

  const ca = new X509Certificate(pki.caCert);
  const server = new X509Certificate(pki.serverCert);
  assert.equal(ca.ca, true);
  assert.equal(server.verify(ca.publicKey), true);
  assert.equal(server.checkPrivateKey(createPrivateKey(pki.serverKey)), true);
  for (const ip of ['127.0.0.1', '::1', '192.0.2.10']) assert.equal(server.checkIP(ip), ip);
  for (const host of ['localhost', 'cascade.example.test', 'kubernetes.default.svc']) {
    assert.equal(server.checkHost(host), host);
  }
  assert.equal(server.checkIP('0.0.0.0'), undefined, 'a wildcard listen address is not an identity');

  const frontProxyCa = new X509Certificate(pki.frontProxyCaCert);
  const frontProxyClient = new X509Certificate(pki.frontProxyClientCert);
  assert.equal(frontProxyClient.subject, 'CN=front-proxy-client');
  assert.deepEqual(frontProxyClient.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  assert.equal(frontProxyClient.verify(frontProxyCa.publicKey), true);
  assert.equal(frontProxyClient.verify(ca.publicKey), false, 'the front-proxy chain is separate from the main CA');
  assert.equal(frontProxyClient.checkPrivateKey(createPrivateKey(pki.frontProxyClientKey)), true);
});

test('a later start reuses every file unchanged', (t) => {
  const dataDir = tempDataDir(t);
  const first = loadOrCreateServingPki(dataDir, ['10.0.0.5']);
  const second = loadOrCreateServingPki(dataDir, ['10.0.0.5']);
  assert.deepEqual(second, first);
  const third = loadOrCreateServingPki(dataDir, []);
  assert.deepEqual(third, first, 'fewer hosts than the certificate covers is no reason to re-issue');
});

test('a new host re-issues only the serving certificate, under the same CA', (t) => {
  const dataDir = tempDataDir(t);
  const first = loadOrCreateServingPki(dataDir, ['10.0.0.5']);
  const second = loadOrCreateServingPki(dataDir, ['10.0.0.5', 'fd00::7', 'new.example.test']);
  assert.equal(second.caCert, first.caCert);
  assert.equal(second.caKey, first.caKey);
  assert.equal(second.frontProxyClientCert, first.frontProxyClientCert);
  assert.notEqual(second.serverCert, first.serverCert);
  assert.notEqual(second.serverKey, first.serverKey);
  const server = new X509Certificate(second.serverCert);
  assert.equal(server.verify(new X509Certificate(first.caCert).publicKey), true);
  assert.equal(server.checkIP('fd00::7'), 'fd00::7');
  assert.equal(server.checkIP('10.0.0.5'), '10.0.0.5');
  assert.equal(server.checkHost('new.example.test'), 'new.example.test');
  assert.equal(readFileSync(servingPkiPaths(dataDir).serverCert, 'utf8'), second.serverCert);
});

test('a serving certificate expiring within 30 days is re-issued', (t) => {
  const dataDir = tempDataDir(t);
  const first = loadOrCreateServingPki(dataDir, []);
  const paths = servingPkiPaths(dataDir);
  const caSubject = AsnConvert.parse(pemDecode(first.caCert, 'CERTIFICATE'), Certificate).tbsCertificate.subject;
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const shortLived = signCertificate(
    {
      subject: encodeDistinguishedName({ commonName: 'kube-apiserver' }),
      publicKey,
      notBefore: new Date(Date.now() - DAY_MS),
      notAfter: new Date(Date.now() + 10 * DAY_MS),
      extensions: [
        basicConstraints(false),
        keyUsage(KeyUsageFlags.digitalSignature),
        extendedKeyUsage([id_kp_serverAuth]),
        subjectAltName(subjectAltNamesFor(['127.0.0.1', '::1', 'localhost'])),
      ],
    },
    { name: caSubject, privateKey: createPrivateKey(first.caKey) },
  );
  writeFileSync(paths.serverCert, pemEncode('CERTIFICATE', shortLived));
  writeFileSync(paths.serverKey, privateKey.export({ type: 'pkcs8', format: 'pem' }));

  const second = loadOrCreateServingPki(dataDir, []);
  assert.equal(second.caCert, first.caCert);
  const renewed = new X509Certificate(second.serverCert);
  assert.ok(Date.parse(renewed.validTo) - Date.now() > 300 * DAY_MS);
});

test('a serving certificate from a replaced CA is re-issued under the current one', (t) => {
  const dataDir = tempDataDir(t);
  const paths = servingPkiPaths(dataDir);
  const first = loadOrCreateServingPki(dataDir, []);
  unlinkSync(paths.caCert);
  unlinkSync(paths.caKey);
  const second = loadOrCreateServingPki(dataDir, []);
  assert.notEqual(second.caCert, first.caCert);
  assert.equal(new X509Certificate(second.serverCert).verify(new X509Certificate(second.caCert).publicKey), true);
});

test('a truncated key file is reported with its path', (t) => {
  const dataDir = tempDataDir(t);
  const paths = servingPkiPaths(dataDir);
  loadOrCreateServingPki(dataDir, []);
  truncateSync(paths.serverKey, 100);
  assert.throws(() => loadOrCreateServingPki(dataDir, []), {
    message: `PKI file ${paths.serverKey} is not a valid PEM private key; remove it and its certificate to have both regenerated`,
  });
  truncateSync(paths.caKey, 40);
  assert.throws(
    () => loadOrCreateServingPki(dataDir, []),
    (error: Error) => error.message.includes(paths.caKey),
  );
});

test('a corrupt certificate file is reported with its path', (t) => {
  const dataDir = tempDataDir(t);
  const paths = servingPkiPaths(dataDir);
  loadOrCreateServingPki(dataDir, []);
  writeFileSync(paths.frontProxyCaCert, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
  assert.throws(() => loadOrCreateServingPki(dataDir, []), {
    message: `PKI file ${paths.frontProxyCaCert} is not a valid PEM certificate; remove it and its key to have both regenerated`,
  });
});

test('a certificate paired with the wrong key is refused', (t) => {
  const dataDir = tempDataDir(t);
  const paths = servingPkiPaths(dataDir);
  const pki = loadOrCreateServingPki(dataDir, []);
  writeFileSync(paths.caKey, pki.frontProxyCaKey);
  assert.throws(
    () => loadOrCreateServingPki(dataDir, []),
    (error: Error) => error.message.includes(`${paths.caCert} and ${paths.caKey} do not belong together`),
  );
});

test('a CA certificate without its key is an error, not a silent new CA', (t) => {
  const dataDir = tempDataDir(t);
  const paths = servingPkiPaths(dataDir);
  loadOrCreateServingPki(dataDir, []);
  unlinkSync(paths.caKey);
  assert.throws(
    () => loadOrCreateServingPki(dataDir, []),
    (error: Error) => error.message.includes(`${paths.caKey} is missing`),
  );
});

test('a CA key left without its certificate (first write interrupted) is replaced', (t) => {
  const dataDir = tempDataDir(t);
  const paths = servingPkiPaths(dataDir);
  const first = loadOrCreateServingPki(dataDir, []);
  unlinkSync(paths.caCert);
  const second = loadOrCreateServingPki(dataDir, []);
  assert.notEqual(second.caKey, first.caKey);
  assert.equal(new X509Certificate(second.caCert).checkPrivateKey(createPrivateKey(second.caKey)), true);
});
