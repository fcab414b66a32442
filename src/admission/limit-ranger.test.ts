import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { defaultPodResources, limitViolations } from './limit-ranger.js';

const range = (limits: unknown[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'lr', namespace: 'default' },
  spec: { limits },
});
const pod = (containers: unknown[], initContainers?: unknown[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers, ...(initContainers ? { initContainers } : {}) },
});

describe('LimitRanger (plugin/pkg/admission/limitranger)', () => {
  it('fills unset limits and requests from default and defaultRequest, and says so in the annotation', () => {
    const p = pod([{ name: 'web', resources: { limits: { cpu: '300m' } } }], [{ name: 'setup' }]);
    defaultPodResources(p, [
      range([{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } }]),
    ]);
    const spec = p.spec as { containers: { resources: unknown }[]; initContainers: { resources: unknown }[] };
    assert.deepEqual(spec.containers[0]?.resources, {
      limits: { cpu: '300m', memory: '256Mi' },
      requests: { cpu: '100m', memory: '128Mi' },
    });
    assert.deepEqual(spec.initContainers[0]?.resources, {
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: '100m', memory: '128Mi' },
    });
    assert.equal(
      p.metadata.annotations?.['kubernetes.io/limit-ranger'],
      'LimitRanger plugin set: cpu, memory request for container web; memory limit for container web; ' +
        'cpu, memory request for init container setup; cpu, memory limit for init container setup',
    );
  });

  it('holds containers to min, max and the limit/request ratio with Kubernetes’ messages', () => {
    const ranges = [
      range([{ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1', memory: '1Gi' }, maxLimitRequestRatio: { cpu: '2' } }]),
    ];
    assert.deepEqual(
      limitViolations('pods', pod([{ name: 'a', resources: { requests: { cpu: '50m' }, limits: { cpu: '2', memory: '512Mi' } } }]), ranges),
      [
        'minimum cpu usage per Container is 100m, but request is 50m',
        'maximum cpu usage per Container is 1, but limit is 2',
        'cpu max limit to request ratio per Container is 2, but provided ratio is 40.000000',
      ],
    );
    assert.deepEqual(limitViolations('pods', pod([{ name: 'a', resources: { requests: { cpu: '200m' } } }]), ranges), [
      'maximum cpu usage per Container is 1.  No limit is specified',
      'maximum memory usage per Container is 1Gi.  No limit is specified',
      'cpu max limit to request ratio per Container is 2, but no limit is specified or limit is 0',
    ]);
  });

  it('sums a pod’s containers for a Pod item and checks a claim’s request for a PersistentVolumeClaim item', () => {
    const perPod = [range([{ type: 'Pod', max: { cpu: '1' } }])];
    const two = pod([
      { name: 'a', resources: { requests: { cpu: '600m' }, limits: { cpu: '600m' } } },
      { name: 'b', resources: { requests: { cpu: '600m' }, limits: { cpu: '600m' } } },
    ]);
    assert.deepEqual(limitViolations('pods', two, perPod), ['maximum cpu usage per Pod is 1, but limit is 1200m']);
    const claim: KubeObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c' },
      spec: { resources: { requests: { storage: '500Mi' } } },
    };
    assert.deepEqual(
      limitViolations('persistentvolumeclaims', claim, [
        range([{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '2Gi' } }]),
      ]),
      ['minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi'],
    );
  });
});
