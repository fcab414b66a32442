import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { writeEnvelope } from '../../src/protobuf/envelope.js';
import { differencesFrom132 } from '../support/k8s-1.32-schemas.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 19, wire fidelity: the served OpenAPI documents carry Kubernetes 1.32's schemas, created objects come back
 * with the defaults a 1.32 server fills in, and core/v1 replicationcontrollers are served.
 */

type Json = Record<string, any>;

/** The served definitions that are Kubernetes' own (the ProtectionRule CRD's are Cascade's). */
function kubernetesDefinitions(definitions: Json): Json {
  return Object.fromEntries(Object.entries(definitions).filter(([name]) => !name.startsWith('dev.cascade.')));
}

/**
 * A created object with the values that differ per run replaced by placeholders; its managedFields (the creator's
 * one Update entry, R10.49, checked by the server-side apply suites) are left out.
 */
function stable(obj: Json): Json {
  const copy = structuredClone(obj);
  if (copy.metadata?.managedFields !== undefined) {
    assert.deepEqual(copy.metadata.managedFields.map((e: Json) => e.operation), ['Update']);
    delete copy.metadata.managedFields;
  }
  for (const field of ['uid', 'resourceVersion', 'creationTimestamp']) {
    if (copy.metadata?.[field] !== undefined) copy.metadata[field] = `<${field}>`;
  }
  if (copy.status?.lastPhaseTransitionTime !== undefined) {
    assert.equal(copy.status.lastPhaseTransitionTime, obj.metadata.creationTimestamp, 'the phase starts at creation');
    copy.status.lastPhaseTransitionTime = '<creationTimestamp>';
  }
  return copy;
}

const META = (name: string, namespace?: string, extra: Json = {}): Json => ({
  name,
  ...(namespace === undefined ? {} : { namespace }),
  uid: '<uid>',
  resourceVersion: '<resourceVersion>',
  creationTimestamp: '<creationTimestamp>',
  ...extra,
});

const TEMPLATE = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } };
const DEFAULTED_TEMPLATE = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [
      {
        name: 'web',
        image: 'nginx:1.27',
        imagePullPolicy: 'IfNotPresent',
        resources: {},
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      },
    ],
    dnsPolicy: 'ClusterFirst',
    restartPolicy: 'Always',
    schedulerName: 'default-scheduler',
    securityContext: {},
    terminationGracePeriodSeconds: 30,
  },
};

/** Length-delimited protobuf field, for bodies built by hand from generated.proto's numbers (not Cascade's tables). */
function field(tag: number, payload: Uint8Array | string): Buffer {
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : Buffer.from(payload);
  const varint = (n: number): number[] => {
    const out: number[] = [];
    let v = n;
    while (v > 0x7f) {
      out.push((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.push(v);
    return out;
  };
  return Buffer.concat([Buffer.from(varint((tag << 3) | 2)), Buffer.from(varint(bytes.length)), bytes]);
}

describe('wire fidelity: schemas, create defaults and replicationcontrollers (issue 19)', () => {
  let ts: TestServer;
  const NS = 'wire';

  before(async () => {
    ts = await startTestServer();
    await ts.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });
  after(async () => {
    await ts.stop();
  });

  async function create(path: string, body: Json): Promise<Json> {
    const res = await ts.request('POST', path, body);
    assert.equal(res.status, 201, res.text);
    return res.json;
  }

  describe('served OpenAPI against Kubernetes 1.32', () => {
    it('every /openapi/v2 definition has 1.32’s fields, types, formats and required fields, both ways', async () => {
      const res = await ts.request('GET', '/openapi/v2');
      assert.equal(res.status, 200);
      const definitions = kubernetesDefinitions(res.json.definitions);
      assert.ok(Object.keys(definitions).length > 300, 'the whole built-in catalogue is served');
      assert.deepEqual(differencesFrom132(definitions), []);
      assert.ok(definitions['io.k8s.api.core.v1.Volume'].properties.gitRepo, 'the legacy volume sources are served');
    });

    it('every /openapi/v3 group-version document agrees with 1.32 too', async () => {
      const index = await ts.request('GET', '/openapi/v3');
      assert.equal(index.status, 200);
      const paths = Object.entries(index.json.paths as Record<string, { serverRelativeURL: string }>);
      assert.ok(paths.some(([path]) => path === 'api/v1'));
      let compared = 0;
      for (const [, { serverRelativeURL }] of paths) {
        const doc = await ts.request('GET', serverRelativeURL);
        assert.equal(doc.status, 200, serverRelativeURL);
        const schemas = kubernetesDefinitions(doc.json.components?.schemas ?? {});
        assert.deepEqual(differencesFrom132(schemas), [], serverRelativeURL);
        compared += Object.keys(schemas).length;
      }
      assert.ok(compared > 300, `only ${compared} schemas compared`);
    });

    it('kubectl apply accepts legacy volume sources under strict validation and the server defaults them', async () => {
      const manifest = `
apiVersion: v1
kind: Pod
metadata: {name: legacy, namespace: ${NS}}
spec:
  containers: [{name: c, image: busybox:1.36}]
  volumes:
  - {name: repo, gitRepo: {repository: "https://example.invalid/r.git"}}
  - {name: disk, azureDisk: {diskName: d, diskURI: "https://example.invalid/d.vhd"}}
  - {name: block, iscsi: {targetPortal: "10.0.0.1:3260", iqn: "iqn.2001-04.com.example:storage", lun: 0}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: wire-legacy-pv}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  scaleIO: {gateway: "https://gw", system: s, secretRef: {name: creds}}
`;
      const out = await ts.kubectlOk(['apply', '--validate=strict', '-f', '-'], { input: manifest });
      assert.match(out, /pod\/legacy created/);
      assert.match(out, /persistentvolume\/wire-legacy-pv created/);
      const pod = (await ts.request('GET', `/api/v1/namespaces/${NS}/pods/legacy`)).json;
      assert.deepEqual(pod.spec.volumes, [
        { name: 'repo', gitRepo: { repository: 'https://example.invalid/r.git' } },
        {
          name: 'disk',
          azureDisk: {
            diskName: 'd',
            diskURI: 'https://example.invalid/d.vhd',
            cachingMode: 'ReadWrite',
            fsType: 'ext4',
            readOnly: false,
            kind: 'Shared',
          },
        },
        {
          name: 'block',
          iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0, iscsiInterface: 'default' },
        },
      ]);
      const pv = (await ts.request('GET', '/api/v1/persistentvolumes/wire-legacy-pv')).json;
      assert.deepEqual(pv.spec.scaleIO, {
        gateway: 'https://gw',
        system: 's',
        secretRef: { name: 'creds' },
        storageMode: 'ThinProvisioned',
        fsType: 'xfs',
      });
      // An unknown field next to them is still refused.
      const bad = await ts.kubectl(['apply', '--validate=strict', '-f', '-'], {
        input: manifest.replace('gitRepo: {', 'gitRepo: {bogus: 1, '),
      });
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /unknown field "spec\.volumes\[0\]\.gitRepo\.bogus"/);
    });

    it('a protobuf body carrying a legacy volume source decodes (numbers of 1.32’s generated.proto)', async () => {
      // Pod{metadata(1){name(1)}, spec(2){volumes(1){name(1), volumeSource(2){gitRepo(5){repository(1)}}},
      // containers(2){name(1), image(2)}}}
      const pod = Buffer.concat([
        field(1, field(1, 'proto-legacy')),
        field(
          2,
          Buffer.concat([
            field(1, Buffer.concat([field(1, 'repo'), field(2, field(5, field(1, 'https://example.invalid/p.git')))])),
            field(2, Buffer.concat([field(1, 'c'), field(2, 'busybox:1.36')])),
          ]),
        ),
      ]);
      const res = await fetch(`${ts.url}/api/v1/namespaces/${NS}/pods`, {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/json' },
        body: Buffer.from(writeEnvelope('v1', 'Pod', pod)),
      });
      const created = (await res.json()) as Json;
      assert.equal(res.status, 201, JSON.stringify(created));
      assert.deepEqual(created.spec.volumes, [{ name: 'repo', gitRepo: { repository: 'https://example.invalid/p.git' } }]);
    });
  });

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
        const res = await ts.request('POST', `/api/v1/namespaces/${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: podSpec(extra) });
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
        metadata: META('ds', NS, { generation: 1 }),
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
      const generated = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'j', 'controller-uid': uid, 'job-name': 'j' };
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
        metadata: META('web-1', NS),
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

  describe('replicationcontrollers (core/v1)', () => {
    it('is created with the selector, labels and replicas defaulted from its template, generation 1 and status replicas 0', async () => {
      const rc = await create(`/api/v1/namespaces/${NS}/replicationcontrollers`, {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'legacy' },
        spec: { template: TEMPLATE },
      });
      assert.deepEqual(stable(rc), {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: META('legacy', NS, { generation: 1, labels: { app: 'web' } }),
        spec: { replicas: 1, selector: { app: 'web' }, template: DEFAULTED_TEMPLATE },
        status: { replicas: 0 },
      });
    });

    it('kubectl creates, lists (plain and wide), scales, selects by status.replicas and deletes an rc', async () => {
      const manifest = `
apiVersion: v1
kind: ReplicationController
metadata: {name: frontend, namespace: ${NS}}
spec:
  replicas: 2
  selector: {tier: frontend}
  template:
    metadata: {labels: {tier: frontend}}
    spec:
      containers: [{name: php, image: "php:8-apache"}, {name: sidecar, image: "busybox:1.36"}]
`;
      assert.match(await ts.kubectlOk(['create', '-f', '-'], { input: manifest }), /replicationcontroller\/frontend created/);
      const plain = (await ts.kubectlOk(['get', 'rc', 'frontend', '-n', NS])).trimEnd().split('\n');
      assert.match(plain[0] ?? '', /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE$/);
      assert.match(plain[1] ?? '', /^frontend\s+2\s+0\s+0\s+\d+s$/);
      const wide = (await ts.kubectlOk(['get', 'replicationcontrollers', 'frontend', '-n', NS, '-o', 'wide'])).trimEnd().split('\n');
      assert.match(wide[0] ?? '', /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR$/);
      assert.match(wide[1] ?? '', /^frontend\s+2\s+0\s+0\s+\d+s\s+php,sidecar\s+php:8-apache,busybox:1\.36\s+tier=frontend$/);

      assert.match(await ts.kubectlOk(['scale', 'rc/frontend', '-n', NS, '--replicas=5']), /replicationcontroller\/frontend scaled/);
      const scale = await ts.request('GET', `/api/v1/namespaces/${NS}/replicationcontrollers/frontend/scale`);
      assert.equal(scale.status, 200);
      assert.equal(scale.json.apiVersion, 'autoscaling/v1');
      assert.deepEqual(scale.json.spec, { replicas: 5 });
      assert.deepEqual(scale.json.status, { replicas: 0, selector: 'tier=frontend' });
      const scaled = (await ts.request('GET', `/api/v1/namespaces/${NS}/replicationcontrollers/frontend`)).json;
      assert.equal(scaled.spec.replicas, 5);
      assert.equal(scaled.metadata.generation, 2);

      const selected = await ts.kubectlOk(['get', 'rc', '-n', NS, '--field-selector', 'status.replicas=0', '-o', 'name']);
      assert.match(selected, /replicationcontroller\/frontend/);
      const none = await ts.kubectlOk(['get', 'rc', '-n', NS, '--field-selector', 'status.replicas=3', '-o', 'name']);
      assert.equal(none.trim(), '');
      const unsupported = await ts.request('GET', `/api/v1/namespaces/${NS}/replicationcontrollers?fieldSelector=spec.replicas%3D5`);
      assert.equal(unsupported.status, 400);
      assert.equal(unsupported.json.message, 'field label not supported: spec.replicas');

      const all = await ts.kubectlOk(['get', 'all', '-n', NS, '-o', 'name']);
      assert.match(all, /replicationcontroller\/frontend/);

      assert.match(await ts.kubectlOk(['delete', 'rc', 'frontend', '-n', NS]), /replicationcontroller "frontend" deleted/);
      const gone = await ts.request('GET', `/api/v1/namespaces/${NS}/replicationcontrollers/frontend`);
      assert.equal(gone.status, 404);
    });

    it('a DELETE without options orphans its dependents, as core/v1 always has', async () => {
      await create(`/api/v1/namespaces/${NS}/replicationcontrollers`, {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'orphaning', finalizers: ['example.com/hold'] },
        spec: { template: TEMPLATE },
      });
      const res = await ts.request('DELETE', `/api/v1/namespaces/${NS}/replicationcontrollers/orphaning`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.json.metadata.finalizers, ['example.com/hold', 'orphan']);
      const patch = await ts.request(
        'PATCH',
        `/api/v1/namespaces/${NS}/replicationcontrollers/orphaning`,
        { metadata: { finalizers: null } },
        { 'Content-Type': 'application/merge-patch+json' },
      );
      assert.equal(patch.status, 200);
    });
  });
});
