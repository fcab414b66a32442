import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitFor } from '../../src/embed/index.js';

const HPAS = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';

function rows(output: string): string[] {
  return output
    .trim()
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '));
}

describe('autoscaling/v2 HorizontalPodAutoscalers with kubectl (issue 31)', () => {
  let ts: TestServer;
  before(async () => {
    // The HPA controller's 15 s period, shortened so the test sees its passes.
    ts = await startTestServer({ controllers: { hpaSyncPeriodMs: 200 } });
  });
  after(async () => {
    await ts.stop();
  });

  it('kubectl autoscale posts autoscaling/v1; the HPA is served at v1 and v2 and printed by kubectl get hpa', async () => {
    await ts.kubectlOk(['create', 'deployment', 'web', '--image=nginx']);
    assert.equal(
      await ts.kubectlOk(['autoscale', 'deployment', 'web', '--min=2', '--max=5', '--cpu-percent=70']),
      'horizontalpodautoscaler.autoscaling/web autoscaled\n',
    );
    const v2 = JSON.parse(await ts.kubectlOk(['get', 'hpa', 'web', '-o', 'json']));
    assert.equal(v2.apiVersion, 'autoscaling/v2');
    assert.deepEqual(v2.spec, {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 2,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
    });
    const v1 = JSON.parse(await ts.kubectlOk(['get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'json']));
    assert.equal(v1.apiVersion, 'autoscaling/v1');
    assert.deepEqual(v1.spec, {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 2,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 70,
    });
    // A v1 patch changes the one stored object, which v2 readers see.
    await ts.kubectlOk(['patch', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-p', '{"spec":{"targetCPUUtilizationPercentage":80}}']);
    for (const resource of ['hpa', 'horizontalpodautoscalers.v1.autoscaling']) {
      const table = rows(await ts.kubectlOk(['get', resource]));
      assert.equal(table[0], 'NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE');
      assert.match(table[1] ?? '', /^web Deployment\/web cpu: <unknown>\/80% 2 5 \d+ \S+$/);
    }
    assert.match(await ts.kubectlOk(['get', 'all']), /horizontalpodautoscaler\.autoscaling\/web/);
    // Without a metrics API the controller only enforces the bounds: the Deployment goes from 1 to minReplicas.
    await waitFor(async () => (await ts.kubectlOk(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}'])) === '2', {
      intervalMs: 100,
    });
    await waitFor(
      async () => {
        const status = JSON.parse(await ts.kubectlOk(['get', 'hpa', 'web', '-o', 'jsonpath={.status}']));
        return status.currentReplicas === 2 && (status.conditions ?? []).some((c: { type: string }) => c.type === 'ScalingActive');
      },
      { intervalMs: 100 },
    );
    const status = JSON.parse(await ts.kubectlOk(['get', 'hpa', 'web', '-o', 'jsonpath={.status}']));
    assert.deepEqual(status.currentMetrics, [{ type: '' }]);
    assert.deepEqual(
      status.conditions.map((c: Record<string, string>) => [c.type, c.status, c.reason, c.message]),
      [
        ['AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale"],
        [
          'ScalingActive',
          'False',
          'FailedGetResourceMetric',
          'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
        ],
      ],
    );
    const events = await ts.kubectlOk(['get', 'events', '--field-selector', 'involvedObject.kind=HorizontalPodAutoscaler', '-o', 'json']);
    const reasons = new Set(JSON.parse(events).items.map((e: { reason: string }) => e.reason));
    assert.deepEqual([...reasons].sort(), ['FailedComputeMetricsReplicas', 'FailedGetResourceMetric', 'SuccessfulRescale']);
    const discovery = JSON.parse(await ts.kubectlOk(['get', '--raw', '/apis/autoscaling']));
    assert.deepEqual(
      discovery.versions.map((v: { version: string }) => v.version),
      ['v2', 'v1'],
    );
    assert.equal(discovery.preferredVersion.version, 'v2');
    await ts.kubectlOk(['delete', 'hpa', 'web']);
  });

  it('an autoscaling/v2 HPA applied is defaulted, and its other metrics reach v1 readers as annotations', async () => {
    const manifest = JSON.stringify({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 2,
        maxReplicas: 5,
        metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } }],
      },
    });
    await ts.kubectlOk(['apply', '-f', '-'], { input: manifest });
    const v1 = JSON.parse(await ts.kubectlOk(['get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'json']));
    assert.equal(v1.spec.targetCPUUtilizationPercentage, undefined);
    assert.equal(
      v1.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'],
      '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}}]',
    );
  });

  it('defaults minReplicas, the cpu metric and the behavior rules of a bare HPA', async () => {
    const manifest = JSON.stringify({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'bare' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web' },
        maxReplicas: 3,
        behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
      },
    });
    await ts.kubectlOk(['apply', '-f', '-'], { input: manifest });
    const spec = JSON.parse(await ts.kubectlOk(['get', 'hpa', 'bare', '-o', 'jsonpath={.spec}']));
    assert.equal(spec.minReplicas, 1);
    assert.equal(spec.metrics[0].resource.target.averageUtilization, 80);
    assert.deepEqual(spec.behavior, {
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
    });
  });

  it('refuses invalid HPAs with the messages of pkg/apis/autoscaling/validation', async () => {
    const manifest = JSON.stringify({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'bad' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: '' }, minReplicas: 0, maxReplicas: 3 },
    });
    const result = await ts.kubectl(['apply', '-f', '-'], { input: manifest });
    assert.notEqual(result.code, 0);
    assert.equal(
      result.stderr.trim(),
      'The HorizontalPodAutoscaler "bad" is invalid: \n' +
        '* spec.minReplicas: Invalid value: 0: must be greater than or equal to 1\n' +
        '* spec.scaleTargetRef.name: Required value\n' +
        '* spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    );
    const res = await ts.request('POST', HPAS, {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'pods' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web' },
        maxReplicas: 1,
        minReplicas: 2,
        metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'Value' } } }],
      },
    });
    assert.equal(res.status, 422, res.text);
    assert.equal(
      res.json.message,
      'HorizontalPodAutoscaler.autoscaling "pods" is invalid: [spec.maxReplicas: Invalid value: 1: must be greater than or equal to `minReplicas`, spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue]',
    );
  });

  it('a /status write keeps the spec and refuses negative replica counts', async () => {
    const patch = (status: Record<string, unknown>) =>
      ts.request('PATCH', `${HPAS}/web/status`, { status, spec: { maxReplicas: 9 } }, { 'Content-Type': 'application/merge-patch+json' });
    const ok = await patch({ currentReplicas: 1, desiredReplicas: 2 });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.spec.maxReplicas, 5);
    assert.equal(ok.json.status.currentReplicas, 1);
    const bad = await patch({ desiredReplicas: -1 });
    assert.equal(bad.status, 422, bad.text);
    assert.equal(
      bad.json.message,
      'HorizontalPodAutoscaler.autoscaling "web" is invalid: status.desiredReplicas: Invalid value: -1: must be greater than or equal to 0',
    );
  });
});
