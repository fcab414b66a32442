import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { checkServiceEndpoints, resolveEndpoint, type ServiceLookups } from './endpoint-resolver.js';

const REF = { namespace: 'kube-system', name: 'metrics-server', port: 443 };

function lookups(objects: { service?: object; endpoints?: object; slices?: object[] }): ServiceLookups {
  const meta = { name: REF.name, namespace: REF.namespace };
  return {
    service: () => (objects.service === undefined ? undefined : ({ metadata: meta, ...objects.service } as KubeObject)),
    endpoints: () => (objects.endpoints === undefined ? undefined : ({ metadata: meta, ...objects.endpoints } as KubeObject)),
    endpointSlices: () => (objects.slices ?? []).map((s) => ({ metadata: meta, ...s }) as KubeObject),
  };
}

const SERVICE = { spec: { ports: [{ name: 'https', port: 443, targetPort: 4443 }] } };

describe('backend address resolution (--enable-aggregator-routing=true)', () => {
  test('the service port numbered like spec.service.port names the endpoint port; a ready address is used', () => {
    const resolved = resolveEndpoint(
      REF,
      lookups({
        service: SERVICE,
        endpoints: {
          subsets: [
            { addresses: [{ ip: '10.0.0.9' }], ports: [{ name: 'metrics', port: 9000 }] },
            { addresses: [{ ip: '10.0.0.5' }], notReadyAddresses: [{ ip: '10.0.0.6' }], ports: [{ name: 'https', port: 4443 }] },
          ],
        },
      }),
    );
    assert.deepEqual(resolved, { ok: true, endpoint: { host: '10.0.0.5', port: 4443 } });
  });

  test('EndpointSlices are used when the Service has no Endpoints object; not-ready endpoints are skipped', () => {
    const resolved = resolveEndpoint(
      REF,
      lookups({
        service: SERVICE,
        slices: [
          {
            endpoints: [
              { addresses: ['10.0.1.1'], conditions: { ready: false } },
              { addresses: ['10.0.1.2'], conditions: { ready: true } },
            ],
            ports: [{ name: 'https', port: 4443 }],
          },
        ],
      }),
    );
    assert.deepEqual(resolved, { ok: true, endpoint: { host: '10.0.1.2', port: 4443 } });
  });

  test('resolver errors use the apiserver proxy wording', () => {
    assert.deepEqual(resolveEndpoint(REF, lookups({})), { ok: false, error: 'service "metrics-server" not found' });
    assert.deepEqual(resolveEndpoint(REF, lookups({ service: { spec: { type: 'ExternalName', externalName: 'x.example.com' } } })), {
      ok: false,
      error: 'unsupported service type "ExternalName"',
    });
    assert.deepEqual(resolveEndpoint(REF, lookups({ service: { spec: { ports: [{ name: 'https', port: 8443 }] } } })), {
      ok: false,
      error: 'no service port 443 found for service "metrics-server"',
    });
    assert.deepEqual(resolveEndpoint(REF, lookups({ service: SERVICE })), { ok: false, error: 'endpoints "metrics-server" not found' });
    assert.deepEqual(resolveEndpoint(REF, lookups({ service: SERVICE, endpoints: { subsets: [] } })), {
      ok: false,
      error: 'no endpoints available for service "metrics-server"',
    });
  });

  test('the availability pre-checks give kube-aggregator reasons and messages', () => {
    const where = 'service/metrics-server in "kube-system"';
    assert.deepEqual(checkServiceEndpoints(REF, lookups({})), { reason: 'ServiceNotFound', message: `${where} is not present` });
    assert.deepEqual(checkServiceEndpoints(REF, lookups({ service: { spec: { ports: [{ port: 80 }] } } })), {
      reason: 'ServicePortError',
      message: `${where} is not listening on port 443`,
    });
    assert.deepEqual(checkServiceEndpoints(REF, lookups({ service: SERVICE })), {
      reason: 'EndpointsNotFound',
      message: `cannot find endpoints for ${where}`,
    });
    assert.deepEqual(
      checkServiceEndpoints(
        REF,
        lookups({ service: SERVICE, endpoints: { subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'other', port: 1 }] }] } }),
      ),
      {
        reason: 'MissingEndpoints',
        message: `endpoints for ${where} have no addresses with port name "https"`,
      },
    );
    assert.equal(
      checkServiceEndpoints(
        REF,
        lookups({
          service: SERVICE,
          endpoints: { subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'https', port: 4443 }] }] },
        }),
      ),
      undefined,
    );
    // Only ClusterIP services are checked before the probe.
    assert.equal(checkServiceEndpoints(REF, lookups({ service: { spec: { type: 'NodePort', ports: [] } } })), undefined);
  });
});
