import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createOk, DEFAULTED_TEMPLATE, type Json, META, NS, stable, startWireServer, TEMPLATE } from '../support/wire-fixtures.js';
import type { TestServer } from '../support/test-server.js';

/**
 * Issue 19, wire fidelity: workloads, Jobs, cluster objects (Node, PersistentVolume, Namespace) and the small core and
 * rbac kinds come back with the defaults a 1.32 server fills in on create.
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
    it('apps/v1 workloads: pod templates without pod-only defaults, and their empty or zero-valued statuses', async () => {
      const selector = { matchLabels: { app: 'web' } };
      const base = { selector, template: TEMPLATE };
      const rs = await create(`/apis/apps/v1/namespaces/${NS}/replicasets`, {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'rs' },
        spec: base,
      });
      assert.deepEqual(stable(rs), {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: META('rs', NS, { generation: 1 }),
        spec: { replicas: 1, selector, template: DEFAULTED_TEMPLATE },
        status: { replicas: 0 },
      });
      const deploy = await create(`/apis/apps/v1/namespaces/${NS}/deployments`, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd' },
        spec: base,
      });
      assert.deepEqual(stable(deploy), {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: META('d', NS, { generation: 1 }),
        spec: {
          progressDeadlineSeconds: 600,
          replicas: 1,
          revisionHistoryLimit: 10,
          selector,
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
          template: DEFAULTED_TEMPLATE,
        },
        status: {},
      });
      const sts = await create(`/apis/apps/v1/namespaces/${NS}/statefulsets`, {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'sts' },
        spec: {
          ...base,
          serviceName: 'web',
          volumeClaimTemplates: [
            { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
          ],
        },
      });
      assert.deepEqual(stable(sts), {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: META('sts', NS, { generation: 1 }),
        spec: {
          persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
          podManagementPolicy: 'OrderedReady',
          replicas: 1,
          revisionHistoryLimit: 10,
          selector,
          serviceName: 'web',
          template: DEFAULTED_TEMPLATE,
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
          volumeClaimTemplates: [
            {
              metadata: { name: 'data' },
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
              status: { phase: 'Pending' },
            },
          ],
        },
        status: { replicas: 0, availableReplicas: 0 },
      });
      const ds = await create(`/apis/apps/v1/namespaces/${NS}/daemonsets`, {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'ds' },
        spec: base,
      });
      assert.deepEqual(stable(ds), {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        // The template generation kube-apiserver keeps in this annotation from the first write (R12.10).
        metadata: META('ds', NS, { generation: 1, annotations: { 'deprecated.daemonset.template.generation': '1' } }),
        spec: {
          revisionHistoryLimit: 10,
          selector,
          template: DEFAULTED_TEMPLATE,
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
        },
        status: { currentNumberScheduled: 0, desiredNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0 },
      });
    });

    it('Job: failure policy patterns default to status True and replacement to Failed; status starts empty', async () => {
      const job = await create(`/apis/batch/v1/namespaces/${NS}/jobs`, {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'j' },
        spec: {
          podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] },
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36' }] } },
        },
      });
      assert.deepEqual(job.spec.podFailurePolicy, {
        rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
      });
      assert.equal(job.spec.podReplacementPolicy, 'Failed');
      assert.equal(job.spec.backoffLimit, 6);
      assert.deepEqual(job.status, {});
      // A Job without labels takes its template's, the generated selector labels included.
      const uid = job.metadata.uid;
      const generated = {
        'batch.kubernetes.io/controller-uid': uid,
        'batch.kubernetes.io/job-name': 'j',
        'controller-uid': uid,
        'job-name': 'j',
      };
      assert.deepEqual(job.metadata.labels, generated);
      assert.deepEqual(job.spec.template.metadata.labels, generated);
    });

    it('Job: labels of its own are kept', async () => {
      const job = await create(`/apis/batch/v1/namespaces/${NS}/jobs`, {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'j-labelled', labels: { team: 'a' } },
        spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36' }] } } },
      });
      assert.deepEqual(job.metadata.labels, { team: 'a' });
    });

    it('Node, PersistentVolume, PersistentVolumeClaim and Namespace', async () => {
      const node = await create('/api/v1/nodes', {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'wire-node' },
        status: { capacity: { cpu: '4', pods: '110' } },
      });
      assert.deepEqual(stable(node), {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: META('wire-node'),
        spec: {},
        status: {
          allocatable: { cpu: '4', pods: '110' },
          capacity: { cpu: '4', pods: '110' },
          daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
          nodeInfo: {
            architecture: '',
            bootID: '',
            containerRuntimeVersion: '',
            kernelVersion: '',
            kubeProxyVersion: '',
            kubeletVersion: '',
            machineID: '',
            operatingSystem: '',
            osImage: '',
            systemUUID: '',
          },
        },
      });
      const pv = await create('/api/v1/persistentvolumes', {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: 'wire-pv' },
        spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], rbd: { monitors: ['10.0.0.1:6789'], image: 'img' } },
      });
      assert.deepEqual(stable(pv), {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: META('wire-pv', undefined, { finalizers: ['kubernetes.io/pv-protection'] }),
        spec: {
          accessModes: ['ReadWriteOnce'],
          capacity: { storage: '1Gi' },
          persistentVolumeReclaimPolicy: 'Retain',
          rbd: { monitors: ['10.0.0.1:6789'], image: 'img', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' },
          volumeMode: 'Filesystem',
        },
        status: { phase: 'Pending', lastPhaseTransitionTime: '<creationTimestamp>' },
      });
      const pvc = await create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'claim' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      });
      assert.deepEqual(stable(pvc), {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: META('claim', NS, { finalizers: ['kubernetes.io/pvc-protection'] }),
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
        status: { phase: 'Pending' },
      });
      const ns = await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wire-ns' } });
      assert.deepEqual(stable(ns), {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: META('wire-ns', undefined, { labels: { 'kubernetes.io/metadata.name': 'wire-ns' } }),
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      });
    });

    it('Endpoints, EndpointSlice, RoleBinding, Lease and Event', async () => {
      const ep = await create(`/api/v1/namespaces/${NS}/endpoints`, {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'web' },
        subsets: [{ addresses: [{ ip: '10.1.0.1' }], ports: [{ port: 80 }] }],
      });
      assert.deepEqual(stable(ep), {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: META('web', NS),
        subsets: [{ addresses: [{ ip: '10.1.0.1' }], ports: [{ port: 80, protocol: 'TCP' }] }],
      });
      const slice = await create(`/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices`, {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'web-1' },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.1.0.1'] }],
        ports: [{ port: 80 }],
      });
      assert.deepEqual(stable(slice), {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        // endpointSliceStrategy.PrepareForCreate starts EndpointSlices at generation 1.
        metadata: META('web-1', NS, { generation: 1 }),
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.1.0.1'] }],
        ports: [{ name: '', port: 80, protocol: 'TCP' }],
      });
      const binding = await create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'b' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [
          { kind: 'User', name: 'alice' },
          { kind: 'Group', name: 'devs' },
          { kind: 'ServiceAccount', name: 'default', namespace: NS },
        ],
      });
      assert.deepEqual(binding.subjects, [
        { kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'ServiceAccount', name: 'default', namespace: NS },
      ]);
      const lease = await create(`/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`, {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'l' },
        spec: { holderIdentity: 'me', leaseDurationSeconds: 15 },
      });
      assert.deepEqual(stable(lease), {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: META('l', NS),
        spec: { holderIdentity: 'me', leaseDurationSeconds: 15 },
      });
      const event = await create(`/api/v1/namespaces/${NS}/events`, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'e' },
        involvedObject: { kind: 'Pod', name: 'p', namespace: NS },
        reason: 'Tested',
        message: 'hello',
        type: 'Normal',
      });
      assert.deepEqual(stable(event), {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: META('e', NS),
        involvedObject: { kind: 'Pod', name: 'p', namespace: NS },
        reason: 'Tested',
        message: 'hello',
        type: 'Normal',
      });
    });
  });
});
