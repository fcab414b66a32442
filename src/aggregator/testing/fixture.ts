/**
 * An aggregator over a real registry (memory backend, in-process client) and a running sample API server, wired
 * the way a cluster wires metrics-server: Service wardle/api port 443 → Endpoints 127.0.0.1:<backend port>, and
 * the APIService v1alpha1.wardle.example.com pointing at it with the serving CA as caBundle.
 */

import type { KubeObject } from '../../api/types.js';
import { createInProcessClient } from '../../server/in-process-client.js';
import type { ApiClient } from '../../client/interface.js';
import { BUILTIN_DEFINITIONS } from '../../kinds/definitions.js';
import { BUILTIN_RESOURCES } from '../../kinds/index.js';
import { Registry } from '../../registry/registry.js';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import { type SampleApiServer, startSampleApiServer, WARDLE_GROUP, WARDLE_VERSION } from '../../../test/support/sample-api-server.js';
import { type Aggregator, createAggregator } from '../aggregator.js';
import { APISERVICES, type AvailableCondition, availableConditionOf, ENDPOINTS, SERVICES } from '../api-service.js';
import { createTestPki, type TestPki } from './test-pki.js';

export const SERVICE_NAMESPACE = 'wardle';
export const SERVICE_NAME = 'api';
export const API_SERVICE_NAME = `${WARDLE_VERSION}.${WARDLE_GROUP}`;

let sharedPki: TestPki | undefined;
/** One PKI per test process: openssl is slow enough to matter. */
export function testPki(): TestPki {
  sharedPki ??= createTestPki([`${SERVICE_NAME}.${SERVICE_NAMESPACE}.svc`]);
  return sharedPki;
}

export interface AggregatorFixture {
  readonly registry: Registry;
  readonly client: ApiClient;
  readonly pki: TestPki;
  readonly backend: SampleApiServer;
  readonly aggregator: Aggregator;
  /** The Service, Endpoints and APIService of a healthy setup. */
  wireAll(): Promise<void>;
  createService(ports?: readonly { name: string; port: number }[]): Promise<void>;
  createEndpoints(subsets?: unknown[]): Promise<void>;
  createApiService(spec?: Record<string, unknown>): Promise<void>;
  availability(): Promise<AvailableCondition | undefined>;
  /** Polls until the stored Available condition satisfies `check`; returns it. */
  waitForCondition(check: (c: AvailableCondition) => boolean, what: string, timeoutMs?: number): Promise<AvailableCondition>;
  close(): Promise<void>;
}

export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function startAggregatorFixture(options: { recheckIntervalMs?: number; start?: boolean } = {}): Promise<AggregatorFixture> {
  const pki = testPki();
  const registry = new Registry({ backend: createMemoryBackend(), resources: BUILTIN_RESOURCES });
  const client = createInProcessClient(registry, BUILTIN_DEFINITIONS);
  const backend = await startSampleApiServer({ cert: pki.serving.cert, key: pki.serving.key, frontProxyCa: pki.frontProxyCa });
  const aggregator = createAggregator({
    client,
    frontProxy: pki.frontProxyClient,
    recheckIntervalMs: options.recheckIntervalMs ?? 200,
    discoveryTimeoutMs: 1000,
  });
  if (options.start !== false) await aggregator.start();

  const fixture: AggregatorFixture = {
    registry,
    client,
    pki,
    backend,
    aggregator,
    async createService(ports = [{ name: 'https', port: 443 }]) {
      const service: KubeObject = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: SERVICE_NAME, namespace: SERVICE_NAMESPACE },
        spec: { ports: ports.map((p) => ({ ...p, protocol: 'TCP', targetPort: backend.port })) },
      };
      await client.create(SERVICES, SERVICE_NAMESPACE, service);
    },
    async createEndpoints(
      subsets = [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: backend.port, protocol: 'TCP' }] }],
    ) {
      await client.create(ENDPOINTS, SERVICE_NAMESPACE, {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: SERVICE_NAME, namespace: SERVICE_NAMESPACE },
        subsets,
      });
    },
    async createApiService(spec = {}) {
      await client.create(APISERVICES, undefined, {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: API_SERVICE_NAME },
        spec: {
          group: WARDLE_GROUP,
          version: WARDLE_VERSION,
          groupPriorityMinimum: 1000,
          versionPriority: 15,
          service: { namespace: SERVICE_NAMESPACE, name: SERVICE_NAME, port: 443 },
          caBundle: Buffer.from(pki.servingCa).toString('base64'),
          ...spec,
        },
      });
    },
    async wireAll() {
      await fixture.createService();
      await fixture.createEndpoints();
      await fixture.createApiService();
    },
    async availability() {
      return availableConditionOf(await client.get(APISERVICES, undefined, API_SERVICE_NAME));
    },
    async waitForCondition(check, what, timeoutMs = 5000) {
      let found: AvailableCondition | undefined;
      await until(
        async () => {
          found = await fixture.availability();
          return found !== undefined && check(found);
        },
        `${what} (last: ${JSON.stringify(found)})`,
        timeoutMs,
      );
      return found as AvailableCondition;
    },
    async close() {
      await aggregator.stop();
      await backend.stop();
    },
  };
  return fixture;
}
