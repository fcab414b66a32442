import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorBody, type FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { createCertificateAuthority } from '../../pki/issue.js';
import { decodeKubernetesProtobuf, encodeKubernetesProtobuf } from '../../protobuf/decode.js';
import { BUILTIN_DEFINITIONS } from '../definitions.js';
import { CERTIFICATE_SIGNING_REQUEST } from './certificate-signing-request.js';
import {
  validateCsrApprovalUpdate,
  validateCsrCreate,
  validateCsrStatusUpdate,
  validateCsrUpdate,
  validateSignerName,
} from './certificate-signing-request-validation.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

/** A real PKCS#10 request (CN=alice, O=dev, P-256), made with `openssl req -new`. */
const REQUEST_PEM = `-----BEGIN CERTIFICATE REQUEST-----
MIHZMIGAAgEAMB4xDjAMBgNVBAMMBWFsaWNlMQwwCgYDVQQKDANkZXYwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAAQxacgOx/xJ3Z82WlFztzUIBVpR73+xK5S5QpIp
+FD/G1R3msLXMqK7e1guA4BZja6NTM4fnxexTlZyBokwF7MOoAAwCgYIKoZIzj0E
AwIDSAAwRQIgR4XbgRVG1CHybDlgeC7aUNPOQDfd5iiblTwkkQQh96cCIQDMUWTj
48y/3HMXFoWK24yhp0rr/rVnlQ9uJo7RsddfJw==
-----END CERTIFICATE REQUEST-----
`;
const REQUEST = Buffer.from(REQUEST_PEM).toString('base64');

const csr = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject => ({
  metadata: { name: 'alice' },
  spec: { request: REQUEST, signerName: 'example.com/signer', usages: ['client auth'], ...spec },
  ...(status === undefined ? {} : { status }),
});

describe('CertificateSigningRequest validation (pkg/apis/certificates/validation, 1.32)', () => {
  it('accepts a signed PEM request with a signer and usages', () => {
    assert.deepEqual(validateCsrCreate(csr({})), []);
  });

  it('validateCertificateSigningRequest: request, usages, signerName, expirationSeconds', () => {
    const tampered = Buffer.from(REQUEST_PEM.replace('AwIDSAAwRQIgR4Xb', 'AwIDSAAwRQIgR4Xc')).toString('base64');
    assert.deepEqual(render(validateCsrCreate(csr({ request: tampered }))), [
      'spec.request: Invalid value: ' +
        `[]byte{${[...Buffer.from(tampered, 'base64')].map((b) => `0x${b.toString(16)}`).join(', ')}}` +
        ': x509: signature verification failure',
    ]);
    assert.deepEqual(render(validateCsrCreate(csr({ usages: [], signerName: 'kubernetes.io/legacy-unknown', expirationSeconds: 599 }))), [
      'spec.usages: Required value',
      'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)',
    ]);
  });

  it('ValidateSignerName: required, one slash, a dotted domain, a path of subdomains', () => {
    assert.deepEqual(render(validateSignerName('s', '')), ['s: Required value']);
    assert.deepEqual(render(validateSignerName('s', 'a/b/c')), [
      's: Invalid value: "a/b/c": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
    ]);
    assert.deepEqual(render(validateSignerName('s', 'example/Bad')), [
      's: Invalid value: "example": should be a domain with at least two segments separated by dots',
      "s: Invalid value: \"Bad\": validating label \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });

  it('validateConditions: statuses, Approved and Denied exclusive, duplicates', () => {
    const conditions = [
      { type: 'Approved', status: 'False' },
      { type: 'Denied', status: 'True' },
      { type: 'Denied', status: 'True' },
      { type: 'X' },
    ];
    assert.deepEqual(render(validateCsrCreate(csr({}, { conditions }))), [
      'status.conditions[0].status: Unsupported value: "False": supported values: "True"',
      'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
      'status.conditions[2].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
      'status.conditions[2].type: Duplicate value: "Denied"',
      'status.conditions[3].status: Required value',
    ]);
  });

  it('the three update paths: conditions only through approval, certificate only through status and only once', () => {
    const old = csr({});
    const approved = csr({}, { conditions: [{ type: 'Approved', status: 'True' }] });
    assert.deepEqual(render(validateCsrUpdate(approved, old)), [
      'status.conditions: Forbidden: updates may not add a condition of type "Approved"',
    ]);
    assert.deepEqual(render(validateCsrStatusUpdate(approved, old)), [
      'status.conditions: Forbidden: updates may not add a condition of type "Approved"',
    ]);
    assert.deepEqual(validateCsrApprovalUpdate(approved, old), []);
    assert.deepEqual(render(validateCsrApprovalUpdate(old, approved)), [
      'status.conditions: Forbidden: updates may not remove a condition of type "Approved"',
    ]);
    const ca = createCertificateAuthority('test-ca');
    const withCert = csr({}, { conditions: [{ type: 'Approved', status: 'True' }], certificate: Buffer.from(ca.cert).toString('base64') });
    assert.deepEqual(validateCsrStatusUpdate(withCert, approved), []);
    assert.deepEqual(render(validateCsrApprovalUpdate(withCert, approved)), [
      'status.certificate: Forbidden: updates may not set certificate content',
    ]);
    const other = csr(
      {},
      {
        conditions: [{ type: 'Approved', status: 'True' }],
        certificate: Buffer.from(createCertificateAuthority('b').cert).toString('base64'),
      },
    );
    assert.deepEqual(render(validateCsrStatusUpdate(other, withCert)), [
      'status.certificate: Forbidden: updates may not modify existing certificate content',
    ]);
    const garbage = csr({}, { certificate: Buffer.from('junk').toString('base64') });
    assert.deepEqual(render(validateCsrStatusUpdate(garbage, old)), [
      'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
    ]);
  });
});

describe('CertificateSigningRequest strategy and printer', () => {
  const strategy = CERTIFICATE_SIGNING_REQUEST.strategy;
  it('records the creating user, not the one the body names', () => {
    const obj = csr({ username: 'mallory', groups: ['x'] });
    strategy?.prepareForCreate?.(obj, { name: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'], extra: { scope: ['a'] } });
    const spec = obj.spec as Record<string, unknown>;
    assert.deepEqual(
      [spec.username, spec.uid, spec.groups, spec.extra],
      ['alice', 'u1', ['dev', 'system:authenticated'], { scope: ['a'] }],
    );
  });

  it('the approval subresource keeps everything but the conditions and stamps their times', () => {
    const old = csr({ username: 'alice' }, { certificate: 'x' });
    const next = csr({ signerName: 'changed.io/x' }, { conditions: [{ type: 'Approved', status: 'True', reason: 'R' }] });
    strategy?.subresourceUpdates?.approval?.prepare(next, old);
    assert.equal((next.spec as Record<string, unknown>).signerName, 'example.com/signer');
    const status = next.status as { certificate: string; conditions: Record<string, unknown>[] };
    assert.equal(status.certificate, 'x');
    assert.match(String(status.conditions[0]?.lastUpdateTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(status.conditions[0]?.lastTransitionTime, status.conditions[0]?.lastUpdateTime);
  });

  it('prints signer, requestor, requested duration and the condition summary (printCertificateSigningRequest)', () => {
    const now = new Date();
    const obj = csr(
      { username: 'alice', expirationSeconds: 3600 },
      {
        conditions: [
          { type: 'Approved', status: 'True' },
          { type: 'Failed', status: 'True' },
        ],
        certificate: 'eA==',
      },
    );
    obj.metadata.creationTimestamp = now.toISOString();
    assert.deepEqual(CERTIFICATE_SIGNING_REQUEST.printer?.row(obj, now), [
      'alice',
      '0s',
      'example.com/signer',
      'alice',
      '60m',
      'Approved,Failed,Issued',
    ]);
  });

  it('survives protobuf, extra map and pointer expiration included', () => {
    const obj = {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'alice' },
      spec: {
        request: REQUEST,
        signerName: 'example.com/s',
        expirationSeconds: 600,
        usages: ['client auth'],
        username: 'alice',
        uid: 'u',
        groups: ['g'],
        extra: { scope: ['a', 'b'] },
      },
      status: {
        conditions: [
          {
            type: 'Approved',
            status: 'True',
            reason: 'R',
            message: 'm',
            lastUpdateTime: '2026-01-01T00:00:00Z',
            lastTransitionTime: '2026-01-01T00:00:00Z',
          },
        ],
        certificate: 'eA==',
      },
    };
    assert.deepEqual(decodeKubernetesProtobuf(encodeKubernetesProtobuf(obj, BUILTIN_DEFINITIONS), BUILTIN_DEFINITIONS), obj);
  });
});
