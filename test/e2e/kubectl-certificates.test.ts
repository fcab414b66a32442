import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** A PEM CERTIFICATE REQUEST made by openssl, as users make them for `kubectl certificate approve`. */
function certificateRequest(dir: string, subject: string, extra: string[] = []): string {
  const out = join(dir, `${subject.replace(/\W/g, '_')}.csr`);
  execFileSync(
    'openssl',
    [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      `${out}.key`,
      '-subj',
      subject,
      ...extra,
      '-out',
      out,
    ],
    { stdio: 'ignore' },
  );
  return readFileSync(out).toString('base64');
}

/** Who the server says a client certificate authenticates as (a SelfSubjectReview made with it). */
function whoAmI(url: string, ca: string, cert: string, key: string): Promise<{ username: string; groups: string[] }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `${url}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      { method: 'POST', ca, cert, key, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve(JSON.parse(body).status.userInfo));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }));
  });
}

const csr = (name: string, request: string, spec: Record<string, unknown>): string =>
  JSON.stringify({
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request, ...spec },
  });

describe('certificates.k8s.io/v1 CertificateSigningRequests with kubectl (issue 31)', () => {
  let ts: TestServer;
  let dir: string;
  before(async () => {
    ts = await startTestServer({ secure: {} });
    dir = mkdtempSync(join(tmpdir(), 'cascade-csr-'));
  });
  after(async () => {
    await ts.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records the requester, and signs an approved kube-apiserver-client request with the cluster CA', async () => {
    const request = certificateRequest(dir, '/CN=alice/O=dev');
    const spec = {
      signerName: 'kubernetes.io/kube-apiserver-client',
      usages: ['client auth'],
      expirationSeconds: 86400,
      username: 'mallory',
    };
    await ts.kubectlOk(['create', '-f', '-'], { input: csr('alice', request, spec) });
    const pending = (await ts.kubectlOk(['get', 'csr']))
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s+/));
    assert.deepEqual(pending[0], ['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION']);
    assert.deepEqual(
      [pending[1]?.[0], ...(pending[1]?.slice(2) ?? [])],
      ['alice', 'kubernetes.io/kube-apiserver-client', 'cascade-admin', '24h', 'Pending'],
    );
    assert.equal(await ts.kubectlOk(['certificate', 'approve', 'alice']), 'certificatesigningrequest.certificates.k8s.io/alice approved\n');
    const issued = await waitFor(async () => {
      const obj = JSON.parse(await ts.kubectlOk(['get', 'csr', 'alice', '-o', 'json']));
      return typeof obj.status?.certificate === 'string' ? obj : undefined;
    });
    assert.equal(issued.spec.username, 'cascade-admin');
    assert.deepEqual(
      issued.status.conditions.map((c: { type: string; reason: string }) => [c.type, c.reason]),
      [['Approved', 'KubectlApprove']],
    );
    const certificate = new X509Certificate(Buffer.from(issued.status.certificate, 'base64'));
    assert.equal(certificate.subject, 'CN=alice\nO=dev');
    assert.ok(certificate.verify(new X509Certificate(ts.pki?.caCert ?? '').publicKey));
    const lifetimeHours = (Date.parse(certificate.validTo) - Date.parse(certificate.validFrom)) / 3600_000;
    assert.ok(Math.abs(lifetimeHours - 24 - 5 / 60) < 0.01, `validity ${lifetimeHours}h`);
    assert.match(await ts.kubectlOk(['get', 'csr', 'alice']), /Approved,Issued/);
    // The certificate is one the server's client-certificate authenticator accepts: CN is the user, O the group.
    const key = readFileSync(join(dir, '_CN_alice_O_dev.csr.key'), 'utf8');
    const who = await whoAmI(ts.url, ts.pki?.caCert ?? '', Buffer.from(issued.status.certificate, 'base64').toString(), key);
    assert.equal(who.username, 'alice');
    assert.ok(who.groups.includes('dev'));
  });

  it('fails a kubelet-serving request whose subject is not a node; denies with kubectl certificate deny', async () => {
    const request = certificateRequest(dir, '/CN=web/O=dev');
    await ts.kubectlOk(['create', '-f', '-'], {
      input: csr('not-a-node', request, { signerName: 'kubernetes.io/kubelet-serving', usages: ['server auth', 'digital signature'] }),
    });
    await ts.kubectlOk(['certificate', 'approve', 'not-a-node']);
    const failed = await waitFor(async () => {
      const obj = JSON.parse(await ts.kubectlOk(['get', 'csr', 'not-a-node', '-o', 'json']));
      return obj.status?.conditions?.find((c: { type: string }) => c.type === 'Failed');
    });
    assert.deepEqual([failed.reason, failed.message], ['SignerValidationFailure', 'subject organization is not system:nodes']);
    await ts.kubectlOk(['create', '-f', '-'], { input: csr('bob', request, { signerName: 'example.com/mine', usages: ['client auth'] }) });
    assert.equal(await ts.kubectlOk(['certificate', 'deny', 'bob']), 'certificatesigningrequest.certificates.k8s.io/bob denied\n');
    assert.match(await ts.kubectlOk(['get', 'csr', 'bob']), /example\.com\/mine\s+cascade-admin\s+<none>\s+Denied/);
    // Signers find their requests with the one field selector CSRs have.
    assert.equal(
      await ts.kubectlOk(['get', 'csr', '--field-selector=spec.signerName=example.com/mine', '-o', 'name']),
      'certificatesigningrequest.certificates.k8s.io/bob\n',
    );
    const unknown = await ts.kubectl(['get', 'csr', '--field-selector=spec.username=alice']);
    assert.match(unknown.stderr, /field label not supported: spec\.username/);
  });

  it('refuses an invalid request with Kubernetes messages', async () => {
    const bad = csr('bad', Buffer.from('hi').toString('base64'), {
      signerName: 'example',
      usages: ['client auth', 'flying'],
      expirationSeconds: 60,
    });
    const res = await ts.kubectl(['create', '-f', '-'], { input: bad });
    assert.equal(
      res.stderr.trim(),
      'The CertificateSigningRequest "bad" is invalid: \n' +
        '* spec.request: Invalid value: []byte{0x68, 0x69}: PEM block type must be CERTIFICATE REQUEST\n' +
        '* spec.usages[1]: Unsupported value: "flying": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"\n' +
        '* spec.signerName: Invalid value: "example": must be a fully qualified domain and path of the form \'example.com/signer-name\'\n' +
        '* spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)',
    );
  });
});
