import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstPemBlock, parseCertificateRequest } from '../../pki/certificate-request.js';
import { KUBE_APISERVER_CLIENT, KUBELET_CLIENT, KUBELET_SERVING, signerRefusal } from './signer-policy.js';

/** CN=alice, O=dev: a user, not a node. */
const REQUEST_PEM = `-----BEGIN CERTIFICATE REQUEST-----
MIHZMIGAAgEAMB4xDjAMBgNVBAMMBWFsaWNlMQwwCgYDVQQKDANkZXYwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAAQxacgOx/xJ3Z82WlFztzUIBVpR73+xK5S5QpIp
+FD/G1R3msLXMqK7e1guA4BZja6NTM4fnxexTlZyBokwF7MOoAAwCgYIKoZIzj0E
AwIDSAAwRQIgR4XbgRVG1CHybDlgeC7aUNPOQDfd5iiblTwkkQQh96cCIQDMUWTj
48y/3HMXFoWK24yhp0rr/rVnlQ9uJo7RsddfJw==
-----END CERTIFICATE REQUEST-----
`;
const request = parseCertificateRequest(firstPemBlock(REQUEST_PEM)?.der ?? Buffer.alloc(0));

test('kube-apiserver-client signs client certificates only', () => {
  assert.equal(signerRefusal(KUBE_APISERVER_CLIENT, request, ['client auth', 'digital signature']), undefined);
  assert.equal(signerRefusal(KUBE_APISERVER_CLIENT, request, ['server auth']), 'invalid usage for client certificate: server auth');
  assert.equal(
    signerRefusal(KUBE_APISERVER_CLIENT, request, ['digital signature']),
    'missing required usage for client certificate: client auth',
  );
});

test('the kubelet signers sign for node identities only', () => {
  assert.equal(signerRefusal(KUBELET_CLIENT, request, ['client auth']), 'subject organization is not system:nodes');
  assert.equal(signerRefusal(KUBELET_SERVING, request, ['server auth']), 'subject organization is not system:nodes');
});
