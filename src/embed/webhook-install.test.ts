import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:https';
import { test } from 'node:test';
import { StatusError } from '../api/errors.js';
import { startTestServer } from './test-server.js';

// startTestServer({ webhooks }) as envtest's WebhookInstallOptions (issue 21): the configuration, installed before
// the server is handed over, already calls the test's own HTTPS server at the generated certificate's address.

test('startTestServer({ webhooks }) points the configurations at the test’s webhook server and trusts its CA', async () => {
  const ts = await startTestServer({
    webhooks: {
      configurations: [
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'ValidatingWebhookConfiguration',
          metadata: { name: 'envtest-style' },
          webhooks: [
            {
              name: 'deny.example.com',
              clientConfig: { service: { namespace: 'system', name: 'webhook-service', path: '/validate-configmap' } },
              rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
              sideEffects: 'None',
              admissionReviewVersions: ['v1'],
            },
          ],
        },
      ],
    },
  });
  const serving = ts.webhookServing;
  assert.ok(serving !== undefined);
  const paths: string[] = [];
  const hooks = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    paths.push(req.url ?? '');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { request } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid: request.uid, allowed: false, status: { message: 'from the test webhook' } },
        }),
      );
    });
  });
  hooks.listen(serving.port, serving.host);
  await once(hooks, 'listening');
  try {
    const stored = await ts.client.get(
      { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations' },
      undefined,
      'envtest-style',
    );
    assert.deepEqual((stored.webhooks as { clientConfig: unknown }[])[0]?.clientConfig, {
      url: `${serving.url}/validate-configmap`,
      caBundle: serving.caBundle,
    });
    await assert.rejects(
      ts.httpClient().create({ group: '', version: 'v1', resource: 'configmaps' }, 'default', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'first' },
      }),
      (err: StatusError) =>
        err instanceof StatusError && err.message === 'admission webhook "deny.example.com" denied the request: from the test webhook',
    );
    assert.deepEqual(paths, ['/validate-configmap?timeout=10s']);
  } finally {
    hooks.closeAllConnections();
    hooks.close();
    await ts.stop();
  }
});
