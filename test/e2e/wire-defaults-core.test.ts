import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createOk, type Json, META, NS, stable, startWireServer } from '../support/wire-fixtures.js';
import type { TestServer } from '../support/test-server.js';

/**
 * Issue 19, wire fidelity: Services and Pods come back with the defaults a 1.32 server fills in on create, and Pod
 * admission resolves priorities and tolerations as 1.32 does.
 */

describe('wire fidelity: schemas, create defaults and replicationcontrollers (issue 19)', () => {
  let ts: TestServer;

  before(async () => {
    ts = await startWireServer();
  });
  after(async () => {
    await ts.stop();
  });

  const create = (path: string, body: Json): Promise<Json> => createOk(ts, path, body);

  describe('defaults filled on create, as 1.32 returns the created object', () => {
    it('Service: status.loadBalancer, ClientIP affinity timeout, port protocol and target port', async () => {
      const svc = await create(`/api/v1/namespaces/${NS}/services`, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web' },
        spec: { selector: { app: 'web' }, ports: [{ port: 80 }], sessionAffinity: 'ClientIP' },
      });
      const ip = svc.spec.clusterIP;
      assert.match(ip, /^10\./);
      assert.deepEqual(stable(svc), {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: META('web', NS),
        spec: {
          clusterIP: ip,
          clusterIPs: [ip],
          internalTrafficPolicy: 'Cluster',
          ipFamilies: ['IPv4'],
          ipFamilyPolicy: 'SingleStack',
          ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
          selector: { app: 'web' },
          sessionAffinity: 'ClientIP',
          sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
          type: 'ClusterIP',
        },
        status: { loadBalancer: {} },
      });
    });

    it('Pod: pod-only defaults, probes, field references, volume modes and sources, status', async () => {
      const pod = await create(`/api/v1/namespaces/${NS}/pods`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'full' },
        spec: {
          hostNetwork: true,
          containers: [
            {
              name: 'c',
              image: 'nginx',
              ports: [{ containerPort: 8080 }],
              resources: { limits: { cpu: '500m', memory: '128Mi' } },
              readinessProbe: { httpGet: { port: 8080 } },
              env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
            },
          ],
          volumes: [
            { name: 'scratch' },
            { name: 'cfg', configMap: { name: 'c' } },
            { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } },
            { name: 'host', hostPath: { path: '/tmp' } },
          ],
        },
      });
      assert.deepEqual(stable(pod), {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: META('full', NS),
        spec: {
          containers: [
            {
              name: 'c',
              image: 'nginx',
              imagePullPolicy: 'Always',
              ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
              resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '500m', memory: '128Mi' } },
              readinessProbe: {
                httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
                timeoutSeconds: 1,
                periodSeconds: 10,
                successThreshold: 1,
                failureThreshold: 3,
              },
              env: [{ name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
            },
          ],
          dnsPolicy: 'ClusterFirst',
          enableServiceLinks: true,
          hostNetwork: true,
          preemptionPolicy: 'PreemptLowerPriority',
          priority: 0,
          restartPolicy: 'Always',
          schedulerName: 'default-scheduler',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
          tolerations: [
            { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
            { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
          ],
          volumes: [
            { name: 'scratch', emptyDir: {} },
            { name: 'cfg', configMap: { name: 'c', defaultMode: 420 } },
            { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }], defaultMode: 420 } },
            { name: 'host', hostPath: { path: '/tmp', type: '' } },
          ],
        },
        status: { phase: 'Pending', qosClass: 'Guaranteed' },
      });
    });

    it('Pod admission: Priority resolves the class (403 for an unknown one or a conflicting value), DefaultTolerationSeconds keeps tolerations already given', async () => {
      const podSpec = (extra: Record<string, unknown>) => ({ containers: [{ name: 'c', image: 'nginx' }], ...extra });
      const critical = await create(`/api/v1/namespaces/${NS}/pods`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'critical' },
        spec: podSpec({
          priorityClassName: 'system-cluster-critical',
          tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }],
        }),
      });
      assert.equal(critical.spec.priority, 2000000000);
      assert.equal(critical.spec.preemptionPolicy, 'PreemptLowerPriority');
      assert.deepEqual(critical.spec.tolerations, [
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 },
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ]);
      const refused = async (name: string, extra: Record<string, unknown>, message: string): Promise<void> => {
        const res = await ts.request('POST', `/api/v1/namespaces/${NS}/pods`, {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name },
          spec: podSpec(extra),
        });
        assert.equal(res.status, 403, res.text);
        assert.equal(res.json.reason, 'Forbidden');
        assert.equal(res.json.message, `pods "${name}" is forbidden: ${message}`);
      };
      await refused('unknown-class', { priorityClassName: 'high' }, 'no PriorityClass with name high was found');
      await refused(
        'own-priority',
        { priority: 7 },
        'the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
      );
    });
  });
});
