import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { test } from 'node:test';
import { firstPemBlock, parseCertificateRequest } from './certificate-request.js';
import { createCertificateAuthority } from './issue.js';
import { signRequest } from './sign-request.js';

/** CN=alice, O=dev on a P-256 key, made with `openssl req -new`. */
const REQUEST_PEM = `-----BEGIN CERTIFICATE REQUEST-----
MIHZMIGAAgEAMB4xDjAMBgNVBAMMBWFsaWNlMQwwCgYDVQQKDANkZXYwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAAQxacgOx/xJ3Z82WlFztzUIBVpR73+xK5S5QpIp
+FD/G1R3msLXMqK7e1guA4BZja6NTM4fnxexTlZyBokwF7MOoAAwCgYIKoZIzj0E
AwIDSAAwRQIgR4XbgRVG1CHybDlgeC7aUNPOQDfd5iiblTwkkQQh96cCIQDMUWTj
48y/3HMXFoWK24yhp0rr/rVnlQ9uJo7RsddfJw==
-----END CERTIFICATE REQUEST-----
`;

test('a request is parsed with its subject and verified self-signature; a tampered one is refused', () => {
  const block = firstPemBlock(REQUEST_PEM);
  assert.equal(block?.type, 'CERTIFICATE REQUEST');
  const request = parseCertificateRequest(block?.der ?? Buffer.alloc(0));
  assert.equal(request.publicKey.asymmetricKeyType, 'ec');
  const tampered = Buffer.from(block?.der ?? Buffer.alloc(0));
  tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
  assert.throws(() => parseCertificateRequest(tampered), /verification failure|asn1/);
});

test('the issued certificate carries the request subject and key, the requested usages, and is signed by the CA', () => {
  const ca = createCertificateAuthority('test-ca');
  const request = parseCertificateRequest(firstPemBlock(REQUEST_PEM)?.der ?? Buffer.alloc(0));
  const now = Date.UTC(2026, 0, 1);
  const cert = new X509Certificate(signRequest(ca, request, ['digital signature', 'client auth'], 3600_000, now));
  assert.equal(cert.subject, 'CN=alice\nO=dev');
  assert.ok(cert.publicKey.equals(request.publicKey));
  assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  assert.equal(cert.ca, false);
  assert.ok(cert.verify(new X509Certificate(ca.cert).publicKey));
  assert.equal(Date.parse(cert.validFrom), now - 5 * 60_000);
  assert.equal(Date.parse(cert.validTo), now + 3600_000);
});
