import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeKubernetesProtobuf, encodeKubernetesProtobuf } from '../../protobuf/decode.js';
import { BUILTIN_DEFINITIONS } from '../definitions.js';

const roundTrip = (obj: Record<string, unknown>): Record<string, unknown> =>
  decodeKubernetesProtobuf(encodeKubernetesProtobuf(obj, BUILTIN_DEFINITIONS), BUILTIN_DEFINITIONS);

test('a ResourceQuota with scopes, a scope selector and usage survives protobuf (issue 31)', () => {
  const quota = {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'q', namespace: 'default' },
    spec: {
      hard: { pods: '2', 'limits.cpu': '1500m' },
      scopes: ['NotTerminating'],
      scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] },
    },
    status: { hard: { pods: '2' }, used: { pods: '1' } },
  };
  assert.deepEqual(roundTrip(quota), quota);
});

test('a LimitRange and a PodTemplate survive protobuf (issue 31)', () => {
  const limitRange = {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'lr', namespace: 'default' },
    spec: {
      limits: [
        {
          type: 'Container',
          max: { cpu: '2' },
          min: { cpu: '100m' },
          default: { cpu: '1' },
          defaultRequest: { cpu: '500m' },
          maxLimitRequestRatio: { cpu: '4' },
        },
      ],
    },
  };
  assert.deepEqual(roundTrip(limitRange), limitRange);
  const podTemplate = {
    apiVersion: 'v1',
    kind: 'PodTemplate',
    metadata: { name: 'pt', namespace: 'default' },
    template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  };
  assert.deepEqual(roundTrip(podTemplate), podTemplate);
});

test('a RuntimeClass with overhead and scheduling survives protobuf (issue 31)', () => {
  const rc = {
    apiVersion: 'node.k8s.io/v1',
    kind: 'RuntimeClass',
    metadata: { name: 'gvisor' },
    handler: 'runsc',
    overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
    scheduling: { nodeSelector: { sandbox: 'true' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
  };
  assert.deepEqual(roundTrip(rc), rc);
});
