import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { printerFor } from './printers.js';

const NOW = new Date('2024-06-01T12:00:00Z');
const CREATED = '2024-06-01T11:58:00Z';
const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, namespace: 'ns', creationTimestamp: CREATED, ...extra });
const row = (kind: string, group: string, obj: KubeObject): unknown[] => printerFor(kind, group).row(obj, NOW);
const template = {
  spec: {
    containers: [
      { name: 'web', image: 'nginx:1' },
      { name: 'log', image: 'busybox' },
    ],
  },
};

describe('printer rows', () => {
  const cases: [title: string, kind: string, group: string, obj: KubeObject, cells: unknown[]][] = [
    [
      'config map counts data and binaryData',
      'ConfigMap',
      '',
      { metadata: meta('c'), data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } },
      ['c', 3, '2m'],
    ],
    ['secret', 'Secret', '', { metadata: meta('s'), type: 'Opaque', data: { a: 'YQ==' } }, ['s', 'Opaque', 1, '2m']],
    ['service account', 'ServiceAccount', '', { metadata: meta('sa'), secrets: [{ name: 'x' }] }, ['sa', 1, '2m']],
    [
      'namespace without creation time',
      'Namespace',
      '',
      { metadata: { name: 'n' }, status: { phase: 'Terminating' } },
      ['n', 'Terminating', '<unknown>'],
    ],
    [
      'cluster IP service',
      'Service',
      '',
      {
        metadata: meta('svc'),
        spec: {
          type: 'ClusterIP',
          clusterIP: '10.96.0.10',
          clusterIPs: ['10.96.0.10'],
          ports: [
            { port: 53, protocol: 'UDP' },
            { port: 80, protocol: 'TCP' },
          ],
          selector: { k8s: 'dns', app: 'x' },
        },
      },
      ['svc', 'ClusterIP', '10.96.0.10', '<none>', '53/UDP,80/TCP', '2m', 'app=x,k8s=dns'],
    ],
    [
      'pending load balancer with node port',
      'Service',
      '',
      {
        metadata: meta('lb'),
        spec: { type: 'LoadBalancer', clusterIPs: ['10.0.0.1'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] },
      },
      ['lb', 'LoadBalancer', '10.0.0.1', '<pending>', '80:30080/TCP', '2m', '<none>'],
    ],
    [
      'load balancer with ingress and external IPs',
      'Service',
      '',
      {
        metadata: meta('lb'),
        spec: { type: 'LoadBalancer', clusterIPs: ['10.0.0.1'], externalIPs: ['1.1.1.1'], ports: [] },
        status: { loadBalancer: { ingress: [{ ip: '2.2.2.2' }, { hostname: 'lb.example.com' }] } },
      },
      ['lb', 'LoadBalancer', '10.0.0.1', '2.2.2.2,lb.example.com,1.1.1.1', '<none>', '2m', '<none>'],
    ],
    [
      'external name service',
      'Service',
      '',
      { metadata: meta('ext'), spec: { type: 'ExternalName', externalName: 'db.example.com' } },
      ['ext', 'ExternalName', '<none>', 'db.example.com', '<none>', '2m', '<none>'],
    ],
    ['endpoints without subsets', 'Endpoints', '', { metadata: meta('e') }, ['e', '<none>', '2m']],
    [
      'endpoints truncated after three',
      'Endpoints',
      '',
      {
        metadata: meta('e'),
        subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }, { ip: 'fd00::3' }, { ip: '10.0.0.4' }], ports: [{ port: 8080 }] }],
      },
      ['e', '10.0.0.1:8080,10.0.0.2:8080,[fd00::3]:8080 + 1 more...', '2m'],
    ],
    [
      'node',
      'Node',
      '',
      {
        metadata: {
          name: 'n1',
          creationTimestamp: CREATED,
          labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'master' },
        },
        spec: { unschedulable: true },
        status: {
          conditions: [{ type: 'Ready', status: 'False' }],
          nodeInfo: { kubeletVersion: 'v1.32.0', osImage: 'Debian', kernelVersion: '6.1', containerRuntimeVersion: 'containerd://1.7' },
          addresses: [{ type: 'InternalIP', address: '192.168.0.2' }],
        },
      },
      [
        'n1',
        'NotReady,SchedulingDisabled',
        'control-plane,master',
        '2m',
        'v1.32.0',
        '192.168.0.2',
        '<none>',
        'Debian',
        '6.1',
        'containerd://1.7',
      ],
    ],
    [
      'node without conditions',
      'Node',
      '',
      { metadata: { name: 'n2', creationTimestamp: CREATED } },
      ['n2', 'Unknown', '<none>', '2m', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>'],
    ],
    [
      'core event',
      'Event',
      '',
      {
        metadata: meta('p.1'),
        involvedObject: { kind: 'Pod', name: 'p', fieldPath: 'spec.containers{web}' },
        reason: 'Pulled',
        message: ' Pulled image \n',
        type: 'Normal',
        source: { component: 'kubelet', host: 'n1' },
        firstTimestamp: '2024-06-01T11:00:00Z',
        lastTimestamp: '2024-06-01T11:59:00Z',
        count: 4,
      },
      ['60s', 'Normal', 'Pulled', 'pod/p', 'spec.containers{web}', 'kubelet, n1', 'Pulled image', '60m', 4, 'p.1'],
    ],
    [
      'singleton event from the new API without timestamps',
      'Event',
      '',
      { metadata: meta('e'), involvedObject: { kind: 'Node' }, reportingController: 'ctrl', eventTime: '2024-06-01T11:59:30.000000Z' },
      ['30s', '', '', 'node', '', 'ctrl', '', '30s', 1, 'e'],
    ],
    [
      'events.k8s.io event with a series',
      'Event',
      'events.k8s.io',
      {
        metadata: meta('e2'),
        regarding: { kind: 'Deployment', name: 'd' },
        note: 'Scaled',
        reason: 'ScalingReplicaSet',
        type: 'Normal',
        reportingController: 'deployment-controller',
        reportingInstance: 'kcm-1',
        eventTime: '2024-06-01T10:00:00.000000Z',
        series: { count: 7, lastObservedTime: '2024-06-01T11:55:00.000000Z' },
      },
      ['5m', 'Normal', 'ScalingReplicaSet', 'deployment/d', '', 'deployment-controller, kcm-1', 'Scaled', '120m', 7, 'e2'],
    ],
    [
      'bound claim',
      'PersistentVolumeClaim',
      '',
      {
        metadata: meta('data', { annotations: { 'volume.beta.kubernetes.io/storage-class': 'legacy' } }),
        spec: { volumeName: 'pv-1', storageClassName: 'standard', volumeMode: 'Filesystem' },
        status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOnce'] },
      },
      ['data', 'Bound', 'pv-1', '1Gi', 'RWO,RWX', 'legacy', '<unset>', '2m', 'Filesystem'],
    ],
    [
      'terminating unbound claim',
      'PersistentVolumeClaim',
      '',
      { metadata: meta('data', { deletionTimestamp: CREATED }), spec: { storageClassName: 'standard' }, status: { phase: 'Pending' } },
      ['data', 'Terminating', '', '', '', 'standard', '<unset>', '2m', '<unset>'],
    ],
    [
      'volume',
      'PersistentVolume',
      '',
      {
        metadata: { name: 'pv-1', creationTimestamp: CREATED },
        spec: {
          capacity: { storage: '5Gi' },
          accessModes: ['ReadWriteOncePod'],
          persistentVolumeReclaimPolicy: 'Retain',
          claimRef: { namespace: 'ns', name: 'data' },
          storageClassName: 'standard',
          volumeMode: 'Block',
        },
        status: { phase: 'Bound' },
      },
      ['pv-1', '5Gi', 'RWOP', 'Retain', 'Bound', 'ns/data', 'standard', '<unset>', '', '2m', 'Block'],
    ],
    [
      'deployment',
      'Deployment',
      'apps',
      {
        metadata: meta('d'),
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] },
          template,
        },
        status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
      },
      ['d', '2/3', 3, 2, '2m', 'web,log', 'nginx:1,busybox', 'app=web,tier in (a,b)'],
    ],
    [
      'deployment with an unconvertible selector',
      'Deployment',
      'apps',
      { metadata: meta('d'), spec: { selector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] }, template: {} } },
      ['d', '0/1', 0, 0, '2m', '', '', '<invalid>'],
    ],
    [
      'replica set',
      'ReplicaSet',
      'apps',
      {
        metadata: meta('rs'),
        spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template },
        status: { replicas: 2, readyReplicas: 1 },
      },
      ['rs', 2, 2, 1, '2m', 'web,log', 'nginx:1,busybox', 'app=web'],
    ],
    [
      'replication controller: its selector is a label map, its replicas default to 1',
      'ReplicationController',
      '',
      { metadata: meta('rc'), spec: { selector: { app: 'web' }, template }, status: { replicas: 1 } },
      ['rc', 1, 1, 0, '2m', 'web,log', 'nginx:1,busybox', 'app=web'],
    ],
    [
      'replica set without a selector',
      'ReplicaSet',
      'apps',
      { metadata: meta('rs'), spec: { replicas: 0, template } },
      ['rs', 0, 0, 0, '2m', 'web,log', 'nginx:1,busybox', '<none>'],
    ],
    [
      'stateful set',
      'StatefulSet',
      'apps',
      { metadata: meta('db'), spec: { replicas: 3, template }, status: { readyReplicas: 3 } },
      ['db', '3/3', '2m', 'web,log', 'nginx:1,busybox'],
    ],
    [
      'daemon set',
      'DaemonSet',
      'apps',
      {
        metadata: meta('ds'),
        spec: {
          selector: { matchLabels: { app: 'agent' } },
          template: { spec: { ...template.spec, nodeSelector: { 'kubernetes.io/os': 'linux' } } },
        },
        status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 },
      },
      ['ds', 3, 3, 2, 3, 2, 'kubernetes.io/os=linux', '2m', 'web,log', 'nginx:1,busybox', 'app=agent'],
    ],
    [
      'completed job',
      'Job',
      'batch',
      {
        metadata: meta('j'),
        spec: { completions: 1, selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u' } }, template },
        status: {
          succeeded: 1,
          startTime: '2024-06-01T11:58:00Z',
          completionTime: '2024-06-01T11:58:42Z',
          conditions: [{ type: 'Complete', status: 'True' }],
        },
      },
      ['j', 'Complete', '1/1', '42s', '2m', 'web,log', 'nginx:1,busybox', 'batch.kubernetes.io/controller-uid=u'],
    ],
    [
      'running parallel job',
      'Job',
      'batch',
      { metadata: meta('j'), spec: { parallelism: 3, template }, status: { startTime: '2024-06-01T11:59:00Z' } },
      ['j', 'Running', '0/1 of 3', '60s', '2m', 'web,log', 'nginx:1,busybox', '<none>'],
    ],
    [
      'terminating job',
      'Job',
      'batch',
      { metadata: meta('j', { deletionTimestamp: CREATED }), spec: { completions: 2, template } },
      ['j', 'Terminating', '0/2', '', '2m', 'web,log', 'nginx:1,busybox', '<none>'],
    ],
    ['lease', 'Lease', 'coordination.k8s.io', { metadata: meta('l'), spec: { holderIdentity: 'kcm-1' } }, ['l', 'kcm-1', '2m']],
    [
      'endpoint slice',
      'EndpointSlice',
      'discovery.k8s.io',
      {
        metadata: meta('s'),
        addressType: 'IPv4',
        ports: [{ port: 80 }, { name: 'metrics' }, {}, { port: 9000 }],
        endpoints: [{ addresses: ['10.0.0.1'] }, { addresses: ['10.0.0.2', '10.0.0.3'] }],
      },
      ['s', 'IPv4', '80,metrics,* + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3', '2m'],
    ],
    [
      'empty endpoint slice',
      'EndpointSlice',
      'discovery.k8s.io',
      { metadata: meta('s'), addressType: 'IPv6' },
      ['s', 'IPv6', '<unset>', '<unset>', '2m'],
    ],
    [
      'role binding',
      'RoleBinding',
      'rbac.authorization.k8s.io',
      {
        metadata: meta('rb'),
        roleRef: { kind: 'ClusterRole', name: 'view' },
        subjects: [
          { kind: 'User', name: 'alice' },
          { kind: 'User', name: 'bob' },
          { kind: 'Group', name: 'devs' },
          { kind: 'ServiceAccount', namespace: 'ns', name: 'ci' },
        ],
      },
      ['rb', 'ClusterRole/view', '2m', 'alice, bob', 'devs', 'ns/ci'],
    ],
    [
      'unavailable APIService',
      'APIService',
      'apiregistration.k8s.io',
      {
        metadata: { name: 'v1beta1.metrics.k8s.io', creationTimestamp: CREATED },
        spec: { service: { namespace: 'kube-system', name: 'metrics-server' } },
        status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }] },
      },
      ['v1beta1.metrics.k8s.io', 'kube-system/metrics-server', 'False (MissingEndpoints)', '2m'],
    ],
  ];
  for (const [title, kind, group, obj, cells] of cases) {
    it(title, () => assert.deepEqual(row(kind, group, obj), cells));
  }

  it('produces one cell per column for every printer', () => {
    for (const [, kind, group, obj] of cases) {
      assert.equal(row(kind, group, obj).length, printerFor(kind, group).columns.length, `${group}/${kind}`);
    }
  });
});
