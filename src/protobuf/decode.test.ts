import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../api/errors.js';
import { BUILTIN_DEFINITIONS } from '../kinds/definitions.js';
import { decodeKubernetesProtobuf, encodeKubernetesProtobuf, ProtobufDecodeError } from './decode.js';

const defs = BUILTIN_DEFINITIONS;

const roundTrip = (obj: Record<string, unknown>): Record<string, unknown> =>
  decodeKubernetesProtobuf(encodeKubernetesProtobuf(obj, defs), defs);

const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text.replace(/\s+/g, ''), 'hex'));
const ascii = (text: string): number[] => [...Buffer.from(text, 'latin1')];

/** Bytes of a message field: key (field << 3 | 2), length, payload. Lengths here stay below 128. */
const len = (field: number, payload: number[]): number[] => [(field << 3) | 2, payload.length, ...payload];

function decodeError(body: Uint8Array): ProtobufDecodeError {
  try {
    decodeKubernetesProtobuf(body, defs);
  } catch (err) {
    assert.ok(err instanceof ProtobufDecodeError, `expected ProtobufDecodeError, got ${String(err)}`);
    return err;
  }
  assert.fail('decoding should have failed');
}

describe('decodeKubernetesProtobuf wire format (fixture built from the proto definitions)', () => {
  it('decodes a ConfigMap laid out by hand', () => {
    const configMap = [
      // metadata (1): ObjectMeta { name (1) = "a", namespace (3) = "" }
      ...len(1, [...len(1, ascii('a')), ...len(3, [])]),
      // data (2): map entry { key (1) = "x", value (2) = "1" }
      ...len(2, [...len(1, ascii('x')), ...len(2, ascii('1'))]),
      // an unknown varint field 15 = 300 must be skipped
      0x78,
      0xac,
      0x02,
      // immutable (4) = false: a pointer in Go, so an explicit false survives
      0x20,
      0x00,
    ];
    const unknown = [...len(1, [...len(1, ascii('v1')), ...len(2, ascii('ConfigMap'))]), ...len(2, configMap)];
    const body = Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...unknown]);
    assert.deepEqual(decodeKubernetesProtobuf(body, defs), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a' },
      data: { x: '1' },
      immutable: false,
    });
  });

  it('decodes the bytes kubectl 1.32 sends for `kubectl create configmap x --from-literal=a=b`', () => {
    const body = hex(`6b3873000a0f0a0276311209436f6e6669674d6170121b0a110a017812001a0022002a0032003800420012060a01611201621a002200`);
    // The same object kubectl sends as JSON: non-pointer zero values are dropped, the zero Time is null.
    assert.deepEqual(decodeKubernetesProtobuf(body, defs), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', creationTimestamp: null },
      data: { a: 'b' },
    });
  });

  it('decodes the bytes kubectl 1.32 sends for `kubectl create deployment web2 --image=nginx`', () => {
    const body = hex(`
      6b3873000a150a07617070732f7631120a4465706c6f796d656e7412af010a210a047765623212001a0022002a003200380042005a0b0a0361
      7070120477656232127c0801120d0a0b0a036170701204776562321a610a1d0a0012001a0022002a003200380042005a0b0a036170701204
      77656232124012220a056e67696e7812056e67696e782a0042006a007200800100880100900100a201001a00320042004a00520058006000
      68008201008a01009a0100c2010022020a00280038001a0c0800100018002000280038001a002200`);
    // Exactly the JSON body kubectl sends for the same command.
    assert.deepEqual(decodeKubernetesProtobuf(body, defs), {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web2', creationTimestamp: null, labels: { app: 'web2' } },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web2' } },
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'web2' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] },
        },
        strategy: {},
      },
      status: {},
    });
  });

  it('accepts packed repeated numbers as well as unpacked ones', () => {
    const securityContext = [...len(4, [0x05, 0x07])];
    const podSpec = [...len(14, securityContext)];
    const pod = [...len(1, len(1, ascii('p'))), ...len(2, podSpec)];
    const body = Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...len(1, [...len(1, ascii('v1')), ...len(2, ascii('Pod'))]), ...len(2, pod)]);
    const spec = decodeKubernetesProtobuf(body, defs).spec as Record<string, unknown>;
    assert.deepEqual(spec.securityContext, { supplementalGroups: [5, 7] });
  });
});

describe('encodeKubernetesProtobuf / decodeKubernetesProtobuf round trips', () => {
  it('round-trips a ConfigMap with binary data', () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'prod', labels: { app: 'web' }, annotations: { note: 'hello' } },
      data: { 'a.conf': 'x=1\ny=2', empty: '' },
      binaryData: { blob: 'AAECAw==' },
      immutable: true,
    };
    assert.deepEqual(roundTrip(cm), cm);
  });

  it('decodes map<string, ExtraValue>: list values travel in a wrapper message (SubjectAccessReview spec.extra)', () => {
    const review = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      metadata: {},
      spec: { user: 'alice', extra: { scopes: ['read', 'write'], empty: [] }, resourceAttributes: { verb: 'get', resource: 'pods' } },
    };
    const decoded = roundTrip(review) as { spec: { extra: Record<string, string[]> } };
    assert.deepEqual(decoded.spec.extra, { scopes: ['read', 'write'], empty: [] });
  });

  it('round-trips a Secret: map<string, bytes> values are base64 strings', () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'creds', namespace: 'default' },
      type: 'Opaque',
      data: { password: Buffer.from('s3cr3t\u0000\u00ff', 'latin1').toString('base64'), empty: '' },
    };
    assert.deepEqual(roundTrip(secret), secret);
  });

  it('round-trips a Deployment with a full pod template', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'web',
        namespace: 'default',
        uid: '6f1d3c1e-0d0b-4b4e-9f39-4a3d2d4b1a01',
        resourceVersion: '42',
        generation: 3,
        creationTimestamp: '2024-05-06T07:08:09Z',
        labels: { app: 'web', tier: 'frontend' },
        annotations: { 'deployment.kubernetes.io/revision': '2' },
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u-1', controller: true, blockOwnerDeletion: false }],
        finalizers: ['example.com/keep'],
        managedFields: [
          {
            manager: 'kubectl-create',
            operation: 'Update',
            apiVersion: 'apps/v1',
            time: '2024-05-06T07:08:09Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:spec': { 'f:replicas': {} } },
          },
        ],
      },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['frontend', 'edge'] }] },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'web' } },
          spec: {
            terminationGracePeriodSeconds: 0,
            automountServiceAccountToken: false,
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoExecute', tolerationSeconds: 30 }],
            affinity: {
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [
                  {
                    weight: 100,
                    podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' },
                  },
                ],
              },
            },
            securityContext: { runAsNonRoot: true, runAsUser: 1000, fsGroup: 2000, supplementalGroups: [3000, 4000] },
            volumes: [
              { name: 'config', configMap: { name: 'settings', defaultMode: 420, items: [{ key: 'a.conf', path: 'a.conf' }] } },
              { name: 'scratch', emptyDir: { sizeLimit: '1Gi' } },
            ],
            containers: [
              {
                name: 'nginx',
                image: 'nginx:1.27',
                command: ['nginx'],
                args: ['-g', 'daemon off;'],
                ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
                env: [
                  { name: 'MODE', value: 'prod' },
                  { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
                  { name: 'KEY', valueFrom: { secretKeyRef: { name: 'creds', key: 'password', optional: false } } },
                ],
                envFrom: [{ prefix: 'CFG_', configMapRef: { name: 'settings' } }],
                resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m', memory: '64Mi' } },
                volumeMounts: [{ name: 'config', mountPath: '/etc/nginx/conf.d', readOnly: true }],
                livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, initialDelaySeconds: 5, periodSeconds: 10 },
                readinessProbe: { tcpSocket: { port: 80 }, failureThreshold: 3 },
                lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
                securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
                imagePullPolicy: 'IfNotPresent',
              },
            ],
          },
        },
      },
      status: {
        observedGeneration: 3,
        replicas: 2,
        conditions: [
          {
            type: 'Available',
            status: 'True',
            lastUpdateTime: '2024-05-06T07:08:10Z',
            lastTransitionTime: '2024-05-06T07:08:10Z',
            reason: 'MinimumReplicasAvailable',
            message: 'Deployment has minimum availability.',
          },
        ],
      },
    };
    assert.deepEqual(roundTrip(deployment), deployment);
  });

  it('round-trips a Service whose targetPort is a number or a name', () => {
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: {
        type: 'ClusterIP',
        selector: { app: 'web' },
        ports: [
          { name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 },
          { name: 'metrics', protocol: 'TCP', port: 9090, targetPort: 'metrics' },
        ],
        clusterIPs: ['10.0.0.10'],
        ipFamilies: ['IPv4'],
      },
    };
    assert.deepEqual(roundTrip(service), service);
  });

  it('round-trips an Event with MicroTime and a Lease with microsecond renew times', () => {
    const event = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e1', namespace: 'default' },
      eventTime: '2024-05-06T07:08:09.123456Z',
      reportingController: 'example.com/ctl',
      reportingInstance: 'ctl-1',
      action: 'Created',
      reason: 'Created',
      regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
      type: 'Normal',
    };
    assert.deepEqual(roundTrip(event), event);
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'leader', namespace: 'kube-system' },
      spec: { holderIdentity: '', leaseDurationSeconds: 15, renewTime: '2024-05-06T07:08:09.000001Z', leaseTransitions: 0 },
    };
    assert.deepEqual(roundTrip(lease), lease);
  });

  it('round-trips a CustomResourceDefinition with a recursive JSONSchemaProps', () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'] },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
            selectableFields: [{ jsonPath: '.spec.color' }],
            additionalPrinterColumns: [{ name: 'Color', type: 'string', jsonPath: '.spec.color' }],
            schema: {
              openAPIV3Schema: {
                type: 'object',
                required: ['spec'],
                'x-kubernetes-validations': [{ rule: 'self.spec.size < 10', message: 'too big', reason: 'FieldValueInvalid' }],
                properties: {
                  spec: {
                    type: 'object',
                    properties: {
                      color: { type: 'string', enum: ['red', 'blue'], default: 'red' },
                      size: { type: 'integer', minimum: 0.5, maximum: 9, 'x-kubernetes-int-or-string': true },
                      tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                      extra: { type: 'object', additionalProperties: { type: 'string' } },
                      open: { type: 'object', additionalProperties: false, 'x-kubernetes-preserve-unknown-fields': true },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    };
    assert.deepEqual(roundTrip(crd), crd);
  });

  it('round-trips RBAC and autoscaling/v1 Scale objects', () => {
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'r' },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
    };
    assert.deepEqual(roundTrip(role), role);
    const scale = {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'web' },
      spec: { replicas: 5 },
      status: { replicas: 3, selector: 'app=web' },
    };
    assert.deepEqual(roundTrip(scale), scale);
  });
});

describe('Go JSON omitempty semantics', () => {
  it('drops zero values of non-pointer fields but keeps pointer and required zeros', () => {
    const encoded = encodeKubernetesProtobuf(
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd', namespace: '', generation: 0 },
        spec: {
          replicas: 0,
          minReadySeconds: 0,
          paused: false,
          template: { spec: { containers: [{ name: 'c', image: '', ports: [{ containerPort: 0, hostPort: 0 }] }] } },
        },
      },
      defs,
    );
    assert.deepEqual(decodeKubernetesProtobuf(encoded, defs), {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { replicas: 0, template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 0 }] }] } } },
    });
  });

  it('renders an empty Time as null and an IntOrString zero as 0', () => {
    const encoded = encodeKubernetesProtobuf(
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's', creationTimestamp: null },
        spec: { ports: [{ port: 80, targetPort: 0 }] },
      },
      defs,
    );
    const decoded = decodeKubernetesProtobuf(encoded, defs);
    assert.deepEqual(decoded.metadata, { name: 's', creationTimestamp: null });
    assert.deepEqual(decoded.spec, { ports: [{ port: 80, targetPort: 0 }] });
  });
});

describe('decodeKubernetesProtobuf errors (R9.8)', () => {
  const configMapBody = encodeKubernetesProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } }, defs);

  it('rejects a body without the k8s\\0 prefix', () => {
    const err = decodeError(new TextEncoder().encode('{"kind":"ConfigMap"}'));
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 400);
    assert.equal(err.reason, 'BadRequest');
    assert.equal(err.detail, 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
    assert.equal(
      err.forExpectedKind('ConfigMap', new TextEncoder().encode('{"kind":"ConfigMap"}')).message,
      'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"ConfigMap"})',
    );
    assert.equal(decodeError(new Uint8Array(0)).detail, 'empty data');
  });

  it('rejects a truncated message', () => {
    const err = decodeError(configMapBody.subarray(0, configMapBody.length - 8));
    assert.equal(err.detail, 'unexpected EOF');
  });

  it('rejects a malformed varint', () => {
    const body = Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...new Array(10).fill(0xff), 0x01]);
    assert.equal(decodeError(body).detail, 'proto: integer overflow');
  });

  it('rejects a field with the wrong wire type', () => {
    const raw = [0x08, 0x01]; // metadata (1) as a varint
    const body = Uint8Array.from([
      0x6b,
      0x38,
      0x73,
      0x00,
      ...len(1, [...len(1, ascii('v1')), ...len(2, ascii('ConfigMap'))]),
      ...len(2, raw),
    ]);
    const err = decodeError(body);
    assert.equal(err.detail, 'proto: wrong wireType = 0 for field metadata');
    assert.equal(
      err.forExpectedKind('ConfigMap', body).message,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: wrong wireType = 0 for field metadata',
    );
  });

  it('rejects a kind that is not registered, in kube-apiserver words', () => {
    const body = Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...len(1, [...len(1, ascii('batch/v1')), ...len(2, ascii('Widget'))])]);
    const err = decodeError(body);
    assert.equal(err.detail, 'no kind "Widget" is registered for version "batch/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"');
    assert.deepEqual(err.envelope, { apiVersion: 'batch/v1', kind: 'Widget' });
  });

  it('fills an empty envelope kind from the defaults, and rejects it without them', () => {
    const body = Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...len(1, len(1, ascii('v1'))), ...len(2, len(1, len(1, ascii('n'))))]);
    assert.equal(decodeError(body).detail, `Object 'Kind' is missing in 'runtime.TypeMeta{APIVersion:"v1", Kind:""}'`);
    assert.deepEqual(decodeKubernetesProtobuf(body, defs, { apiVersion: 'v1', kind: 'Namespace' }), {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'n' },
    });
  });
});
