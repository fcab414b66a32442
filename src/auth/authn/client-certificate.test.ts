import assert from 'node:assert/strict';
import { createHash, X509Certificate } from 'node:crypto';
import { request as httpsRequest, createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createCertificateAuthority, issueClientCertificate, issueServingCertificate, type CertificateAndKey } from '../../pki/issue.js';
import { clientCertificateAuthenticator } from './client-certificate.js';
import { probe, readOutcome, respondWith, type Outcome } from './testing-http.js';

const authenticate = clientCertificateAuthenticator();

describe('clientCertificateAuthenticator over real TLS', () => {
  const clusterCa = createCertificateAuthority('cascade-ca');
  const strangerCa = createCertificateAuthority('someone-else');
  const serving = issueServingCertificate(clusterCa, 'kube-apiserver', ['127.0.0.1']);
  const server = createHttpsServer(
    { cert: serving.cert, key: serving.key, ca: clusterCa.cert, requestCert: true, rejectUnauthorized: false },
    respondWith(authenticate),
  );
  let port = 0;

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());

  function send(client?: CertificateAndKey): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/api',
          ca: clusterCa.cert,
          agent: false,
          ...(client === undefined ? {} : { cert: client.cert, key: client.key }),
        },
        (res) => readOutcome(res).then(resolve, reject),
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('takes the user from CN and every O as a group, with the certificate fingerprint as credential id', async () => {
    const client = issueClientCertificate(clusterCa, 'system:node:worker-1', ['system:nodes', 'team-a']);
    const fingerprint = createHash('sha256').update(new X509Certificate(client.cert).raw).digest('hex');
    assert.deepEqual(await send(client), {
      status: 200,
      body: {
        result: {
          name: 'system:node:worker-1',
          groups: ['system:nodes', 'team-a'],
          extra: { 'authentication.kubernetes.io/credential-id': [`X509SHA256=${fingerprint}`] },
        },
      },
    });
  });

  it('gives a certificate with a single O one group and one without O none', async () => {
    const admin = await send(issueClientCertificate(clusterCa, 'admin', ['system:masters']));
    assert.deepEqual((admin.body as { result: { groups: string[] } }).result.groups, ['system:masters']);
    const plain = await send(issueClientCertificate(clusterCa, 'jane', []));
    assert.deepEqual((plain.body as { result: { name: string; groups: string[] } }).result.groups, []);
  });

  it('refuses a certificate signed by another CA with the 401 Status', async () => {
    const outcome = await send(issueClientCertificate(strangerCa, 'mallory', ['system:masters']));
    assert.deepEqual(outcome, {
      status: 401,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      },
    });
  });

  it('refuses a certificate of the cluster CA not meant for client authentication', async () => {
    const outcome = await send(issueServingCertificate(clusterCa, 'not-a-client', ['127.0.0.1']));
    assert.equal(outcome.status, 401);
  });

  it('sees no credential when the client presents no certificate', async () => {
    assert.deepEqual(await send(), { status: 200, body: { result: null } });
  });

  it('sees no credential on a plain HTTP connection', async () => {
    assert.deepEqual(await probe(authenticate, {}), { status: 200, body: { result: null } });
  });
});
