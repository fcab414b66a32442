import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeKubernetesProtobuf, encodeKubernetesProtobuf } from '../../protobuf/decode.js';
import { BUILTIN_DEFINITIONS } from '../definitions.js';

const roundTrip = (obj: Record<string, unknown>): Record<string, unknown> =>
  decodeKubernetesProtobuf(encodeKubernetesProtobuf(obj, BUILTIN_DEFINITIONS), BUILTIN_DEFINITIONS);

test('an Ingress survives protobuf, the rule value inlined into its rule', () => {
  const ingress = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      ingressClassName: 'nginx',
      rules: [
        {
          host: 'foo.com',
          http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'svc', port: { number: 80 } } } }] },
        },
      ],
      tls: [{ hosts: ['foo.com'], secretName: 'cert' }],
    },
    status: { loadBalancer: { ingress: [{ ip: '10.0.0.1', ports: [{ port: 443, protocol: 'TCP', error: 'Pending' }] }] } },
  };
  assert.deepEqual(roundTrip(ingress), ingress);
});

test('a NetworkPolicy survives protobuf, numeric and named ports alike', () => {
  const policy = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'db', namespace: 'default' },
    spec: {
      podSelector: { matchLabels: { role: 'db' } },
      ingress: [
        { from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ protocol: 'TCP', port: 5432, endPort: 5440 }] },
      ],
      egress: [{ to: [{ namespaceSelector: {} }], ports: [{ protocol: 'UDP', port: 'dns' }] }],
      policyTypes: ['Ingress', 'Egress'],
    },
  };
  assert.deepEqual(roundTrip(policy), policy);
});
