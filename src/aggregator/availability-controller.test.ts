import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { APISERVICES, ENDPOINT_SLICES, ENDPOINTS } from './api-service.js';
import { API_SERVICE_NAME, SERVICE_NAME, SERVICE_NAMESPACE, startAggregatorFixture } from './testing/fixture.js';

const probeUrl = (port: number): string => `https://127.0.0.1:${port}/apis/wardle.example.com/v1alpha1`;

describe('APIService availability (kube-aggregator status controllers)', () => {
  test('a reachable backend passes: Available=True, reason Passed', async () => {
    const f = await startAggregatorFixture();
    try {
      await f.wireAll();
      const condition = await f.waitForCondition((c) => c.status === 'True', 'Available=True');
      assert.equal(condition.reason, 'Passed');
      assert.equal(condition.message, 'all checks passed');
      assert.match(condition.lastTransitionTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      // The probe ran as the aggregator, presenting the front-proxy certificate.
      const probe = f.backend.requests.find((r) => r.url === '/apis/wardle.example.com/v1alpha1');
      assert.equal(probe?.user, 'system:kube-aggregator');
      assert.deepEqual(probe?.groups, ['system:masters']);
    } finally {
      await f.close();
    }
  });

  test('no Service: ServiceNotFound', async () => {
    const f = await startAggregatorFixture();
    try {
      await f.createApiService();
      const condition = await f.waitForCondition((c) => c.reason === 'ServiceNotFound', 'ServiceNotFound');
      assert.equal(condition.status, 'False');
      assert.equal(condition.message, `service/${SERVICE_NAME} in "${SERVICE_NAMESPACE}" is not present`);
    } finally {
      await f.close();
    }
  });

  test('a Service without the APIService port: ServicePortError', async () => {
    const f = await startAggregatorFixture();
    try {
      await f.createService([{ name: 'https', port: 8443 }]);
      await f.createEndpoints();
      await f.createApiService();
      const condition = await f.waitForCondition((c) => c.reason === 'ServicePortError', 'ServicePortError');
      assert.equal(condition.status, 'False');
      assert.equal(condition.message, `service/${SERVICE_NAME} in "${SERVICE_NAMESPACE}" is not listening on port 443`);
    } finally {
      await f.close();
    }
  });

  test('no Endpoints nor EndpointSlices: EndpointsNotFound; endpoints without addresses: MissingEndpoints', async () => {
    const f = await startAggregatorFixture();
    try {
      await f.createService();
      await f.createApiService();
      const missing = await f.waitForCondition((c) => c.reason === 'EndpointsNotFound', 'EndpointsNotFound');
      assert.equal(missing.message, `cannot find endpoints for service/${SERVICE_NAME} in "${SERVICE_NAMESPACE}"`);
      await f.createEndpoints([{ notReadyAddresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: f.backend.port }] }]);
      const empty = await f.waitForCondition((c) => c.reason === 'MissingEndpoints', 'MissingEndpoints');
      assert.equal(empty.status, 'False');
      assert.equal(
        empty.message,
        `endpoints for service/${SERVICE_NAME} in "${SERVICE_NAMESPACE}" have no addresses with port name "https"`,
      );
      // Still False: the transition time is the one of the first failure.
      assert.equal(empty.lastTransitionTime, missing.lastTransitionTime);
    } finally {
      await f.close();
    }
  });

  test('EndpointSlices locate the backend when the Service has no Endpoints object', async () => {
    const f = await startAggregatorFixture();
    try {
      await f.createService();
      await f.client.create(ENDPOINT_SLICES, SERVICE_NAMESPACE, {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: `${SERVICE_NAME}-abcde`, namespace: SERVICE_NAMESPACE, labels: { 'kubernetes.io/service-name': SERVICE_NAME } },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready: true } }],
        ports: [{ name: 'https', port: f.backend.port, protocol: 'TCP' }],
      });
      await f.createApiService();
      const condition = await f.waitForCondition((c) => c.status === 'True', 'Available=True');
      assert.equal(condition.reason, 'Passed');
    } finally {
      await f.close();
    }
  });

  test('backend down: FailedDiscoveryCheck with the dial error; back up: Passed again without anyone touching it', async () => {
    const f = await startAggregatorFixture();
    try {
      await f.wireAll();
      const up = await f.waitForCondition((c) => c.status === 'True', 'Available=True');
      await f.backend.stop();
      const firstDown = await f.waitForCondition((c) => c.status === 'False', 'Available=False');
      // A probe caught mid-shutdown may see a reset first; the next one finds nobody listening.
      const down = await f.waitForCondition((c) => (c.message ?? '').includes('connection refused'), 'connection refused');
      assert.equal(down.lastTransitionTime, firstDown.lastTransitionTime);
      const url = probeUrl(f.backend.port);
      assert.equal(down.reason, 'FailedDiscoveryCheck');
      assert.equal(
        down.message,
        `failing or missing response from ${url}: Get "${url}": dial tcp 127.0.0.1:${f.backend.port}: connect: connection refused`,
      );
      // Periodic re-checks while down rewrite nothing: the transition time stays.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal((await f.availability())?.lastTransitionTime, down.lastTransitionTime);
      await f.backend.start();
      const again = await f.waitForCondition((c) => c.status === 'True', 'Available=True again');
      assert.equal(again.reason, 'Passed');
      assert.ok((again.lastTransitionTime ?? '') >= (up.lastTransitionTime ?? ''));
    } finally {
      await f.close();
    }
  });

  test('a caBundle that did not sign the serving certificate fails the check; insecureSkipTLSVerify skips verification', async () => {
    const f = await startAggregatorFixture();
    try {
      await f.createService();
      await f.createEndpoints();
      await f.createApiService({ caBundle: Buffer.from(f.pki.otherCa).toString('base64') });
      const condition = await f.waitForCondition((c) => c.reason === 'FailedDiscoveryCheck', 'FailedDiscoveryCheck');
      const url = probeUrl(f.backend.port);
      assert.equal(
        condition.message,
        `failing or missing response from ${url}: Get "${url}": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
      );
      const stored = await f.client.get(APISERVICES, undefined, API_SERVICE_NAME);
      await f.client.update(APISERVICES, undefined, {
        ...stored,
        spec: { ...(stored.spec as object), caBundle: undefined, insecureSkipTLSVerify: true },
      });
      await f.waitForCondition((c) => c.status === 'True', 'Available=True with insecureSkipTLSVerify');
    } finally {
      await f.close();
    }
  });

  test('an APIService without a service is local: Available=True, reason Local', async () => {
    const f = await startAggregatorFixture();
    try {
      await f.createApiService({ service: undefined, caBundle: undefined });
      const condition = await f.waitForCondition((c) => c.status === 'True', 'Available=True');
      assert.equal(condition.reason, 'Local');
      assert.equal(condition.message, 'Local APIServices are always available');
    } finally {
      await f.close();
    }
  });

  test('an Endpoints change is noticed without waiting for the periodic re-check', async () => {
    const f = await startAggregatorFixture({ recheckIntervalMs: 60_000 });
    try {
      await f.createService();
      await f.createApiService();
      await f.waitForCondition((c) => c.reason === 'EndpointsNotFound', 'EndpointsNotFound');
      await f.createEndpoints();
      await f.waitForCondition((c) => c.status === 'True', 'Available=True after the Endpoints appeared', 3000);
      await f.client.delete(ENDPOINTS, SERVICE_NAMESPACE, SERVICE_NAME);
      await f.waitForCondition((c) => c.reason === 'EndpointsNotFound', 'EndpointsNotFound after deletion', 3000);
    } finally {
      await f.close();
    }
  });
});
