import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { add, formatQuantity, parseQuantity } from './quantity.js';
import { matchingResources, podConstraintViolation, quotaCovers, usageOf } from './usage.js';

const pod = (spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default' },
  spec,
  status,
});
const container = (name: string, requests?: Record<string, string>, limits?: Record<string, string>) => ({
  name,
  image: 'nginx',
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
});
const printed = (usage: Map<string, ReturnType<typeof parseQuantity>>) =>
  Object.fromEntries([...usage].map(([k, q]) => [k, formatQuantity(q)]).sort(([a], [b]) => String(a).localeCompare(String(b))));

describe('quota quantities (resource.Quantity arithmetic and canonical form)', () => {
  it('adds exactly and prints in the first operand’s format', () => {
    assert.equal(formatQuantity(add(parseQuantity('500m'), parseQuantity('600m'))), '1100m');
    assert.equal(formatQuantity(add(parseQuantity('500m'), parseQuantity('500m'))), '1');
    assert.equal(formatQuantity(add(parseQuantity('1Gi'), parseQuantity('512Mi'))), '1536Mi');
    assert.equal(formatQuantity(parseQuantity('0.5')), '500m');
    assert.equal(formatQuantity(parseQuantity('2000')), '2k');
    assert.equal(formatQuantity(parseQuantity('1e3')), '1k');
  });
});

describe('quota usage (pkg/quota/v1/evaluator/core)', () => {
  it('charges a pod its count, requests and limits, the largest init container counting as a floor', () => {
    const usage = usageOf(
      '',
      'pods',
      pod({
        containers: [container('a', { cpu: '100m', memory: '64Mi' }, { cpu: '200m' }), container('b', { cpu: '150m' })],
        initContainers: [container('init', { cpu: '1' })],
      }),
      0,
    );
    assert.deepEqual(printed(usage), {
      'count/pods': '1',
      cpu: '1',
      'limits.cpu': '200m',
      memory: '64Mi',
      pods: '1',
      'requests.cpu': '1',
      'requests.memory': '64Mi',
    });
  });

  it('charges a finished pod only its object count', () => {
    assert.deepEqual(printed(usageOf('', 'pods', pod({ containers: [container('a', { cpu: '1' })] }, { phase: 'Succeeded' }), 0)), {
      'count/pods': '1',
    });
  });

  it('charges services their load balancers and node ports, claims their storage per class', () => {
    const svc: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { type: 'NodePort', ports: [{}, {}] } };
    assert.deepEqual(printed(usageOf('', 'services', svc, 0)), { 'count/services': '1', services: '1', 'services.nodeports': '2' });
    const claim: KubeObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c' },
      spec: { storageClassName: 'fast', resources: { requests: { storage: '5Gi' } } },
    };
    assert.deepEqual(printed(usageOf('', 'persistentvolumeclaims', claim, 0)), {
      'count/persistentvolumeclaims': '1',
      'fast.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
      'fast.storageclass.storage.k8s.io/requests.storage': '5Gi',
      persistentvolumeclaims: '1',
      'requests.storage': '5Gi',
    });
  });

  it('matches quota names to the resources that charge them', () => {
    const names = ['pods', 'requests.cpu', 'count/deployments.apps', 'secrets', 'services.nodeports'];
    assert.deepEqual(matchingResources('', 'pods', names), ['pods', 'requests.cpu']);
    assert.deepEqual(matchingResources('apps', 'deployments', names), ['count/deployments.apps']);
    assert.deepEqual(matchingResources('', 'secrets', names), ['secrets']);
    assert.deepEqual(matchingResources('', 'services', names), ['services.nodeports']);
  });

  it('requires every container to request what a quota tracks of cpu and memory, in Kubernetes’ words', () => {
    const p = pod({ containers: [container('a', { cpu: '1' }), container('b')] });
    assert.equal(
      podConstraintViolation(p, ['limits.cpu', 'pods', 'requests.cpu']),
      'must specify limits.cpu for: a,b; requests.cpu for: b',
    );
    assert.equal(podConstraintViolation(p, ['pods', 'requests.storage']), undefined);
  });

  it('applies scopes and scope selectors to pods only', () => {
    const quota = (spec: Record<string, unknown>): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'q' },
      spec,
    });
    const bestEffort = pod({ containers: [container('a')] });
    const burstable = pod({ containers: [container('a', { cpu: '1' })], priorityClassName: 'high', activeDeadlineSeconds: 30 });
    assert.equal(quotaCovers(quota({ scopes: ['BestEffort'] }), '', 'pods', bestEffort), true);
    assert.equal(quotaCovers(quota({ scopes: ['BestEffort'] }), '', 'pods', burstable), false);
    assert.equal(quotaCovers(quota({ scopes: ['NotBestEffort', 'Terminating'] }), '', 'pods', burstable), true);
    const byClass = quota({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } });
    assert.equal(quotaCovers(byClass, '', 'pods', burstable), true);
    assert.equal(quotaCovers(byClass, '', 'pods', bestEffort), false);
    assert.equal(quotaCovers(quota({ scopes: ['BestEffort'] }), '', 'secrets', bestEffort), false);
  });
});
