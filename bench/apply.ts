import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../src/api/types.js';
import { BUILTIN_DEFINITIONS } from '../src/kinds/definitions.js';
import { encodeKubernetesProtobuf } from '../src/protobuf/decode.js';
import { encodeObject } from '../src/registry/codec.js';
import { CREATE_CONCURRENCY, CREATE_LOAD_MS, requestLoad } from './load.js';
import { startProcess } from './process.js';
import { median } from './stats.js';

/**
 * Issue 20's figures. Throughput: a client applies a 20-field Deployment manifest in which one field changed, against
 * a merge patch carrying only that change, on the same server (memory storage, so storage does not dilute the
 * difference; workload controllers off, so their writes are not counted). Goal: apply ≥ 50 % of the merge patch.
 * Memory: the bytes managedFields add to an object as storage holds it (JSON, each entry in the positional form of
 * src/registry/stored-managed-fields.ts), against the bytes Kubernetes' own (protobuf) encoding of the same entries
 * takes. Applies force, as the merge patches between them take the changed field over.
 */
const OBJECTS = 64;
const ROUNDS = 3;
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const LABELS = { app: 'web', tier: 'frontend' };

/** The manifest a user applies: 20 fields they set, `revisionHistoryLimit` the one that changes between applies. */
function manifest(name: string, revisionHistoryLimit: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: LABELS },
    spec: {
      replicas: 3,
      minReadySeconds: 5,
      revisionHistoryLimit,
      progressDeadlineSeconds: 300,
      selector: { matchLabels: LABELS },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: {
        metadata: { labels: LABELS },
        spec: {
          terminationGracePeriodSeconds: 20,
          containers: [
            {
              name: 'web',
              image: 'registry.example.com/team/web:1.27.3',
              ports: [{ name: 'http', containerPort: 8080 }],
              env: [{ name: 'MODE', value: 'production' }],
              resources: { requests: { cpu: '100m', memory: '128Mi' } },
            },
          ],
        },
      },
    },
  };
}

const objectName = (i: number): string => `apply-${i % OBJECTS}`;
/** Each object's value moves on with every request to it, so every write changes the object. */
const changedValue = (i: number): number => Math.floor(i / OBJECTS) + 1;

async function send(url: string, method: string, path: string, contentType: string, body: unknown): Promise<KubeObject> {
  const res = await fetch(`${url}${path}`, { method, headers: { 'content-type': contentType }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as KubeObject;
}

/** Bytes that `metadata.managedFields` adds to `obj` in an encoding. */
function managedFieldsBytes(obj: KubeObject, encode: (o: KubeObject) => Uint8Array): number {
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return encode(obj).length - encode({ ...obj, metadata }).length;
}

export async function benchApply(): Promise<string[][]> {
  const dir = await mkdtemp(join(tmpdir(), 'cascade-bench-apply-'));
  const server = await startProcess([
    'dist/src/cli/main.js',
    'serve',
    '--secure-port',
    '0',
    '--storage',
    'memory',
    '--insecure-http=true',
    '--controllers=*,-deployment,-replicaset,-replicationcontroller',
    '--data-dir',
    dir,
  ]);
  try {
    const applyPath = (i: number): string => `${DEPLOYMENTS}/${objectName(i)}?fieldManager=bench&force=true`;
    for (let i = 0; i < OBJECTS; i++)
      await send(server.url, 'PATCH', applyPath(i), 'application/apply-patch+yaml', manifest(objectName(i), 0));
    const load = { url: server.url, method: 'PATCH', concurrency: CREATE_CONCURRENCY, durationMs: CREATE_LOAD_MS / 2, expectStatus: 200 };
    const applies: number[] = [];
    const patches: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const patch = await requestLoad({
        ...load,
        path: (i) => `${DEPLOYMENTS}/${objectName(i)}`,
        contentType: 'application/merge-patch+json',
        body: (i) => JSON.stringify({ spec: { revisionHistoryLimit: changedValue(i) + round * 1_000_000 } }),
      });
      const apply = await requestLoad({
        ...load,
        path: applyPath,
        contentType: 'application/apply-patch+yaml',
        body: (i) => JSON.stringify(manifest(objectName(i), changedValue(i) + round * 1_000_000 + 500_000)),
      });
      if (patch.failures + apply.failures > 0) throw new Error(`${patch.failures} merge patches and ${apply.failures} applies failed`);
      patches.push(patch.perSecond);
      applies.push(apply.perSecond);
    }
    const applyRate = median(applies);
    const patchRate = median(patches);
    const stored = await send(server.url, 'PATCH', applyPath(0), 'application/apply-patch+yaml', manifest(objectName(0), 7));
    const cascadeBytes = managedFieldsBytes(stored, encodeObject);
    const kubernetesBytes = managedFieldsBytes(stored, (o) => encodeKubernetesProtobuf(o, BUILTIN_DEFINITIONS));
    const entries = stored.metadata.managedFields?.length ?? 0;
    return [
      [
        `Apply of a 20-field Deployment changing one field vs a merge patch of the change (cascade serve, memory, ${CREATE_CONCURRENCY} connections, median of ${ROUNDS}; goal ≥ 50 %: ${applyRate >= patchRate / 2 ? 'PASS' : 'FAIL'})`,
        `${applyRate.toFixed(0)} applies/s`,
        `${patchRate.toFixed(0)} merge patches/s`,
        `${((applyRate / patchRate) * 100).toFixed(0)} %`,
      ],
      [
        `Bytes managedFields add to that stored Deployment (${entries} entries; Cascade stores JSON with positional entries, Kubernetes protobuf; goal ≤ Kubernetes: ${cascadeBytes <= kubernetesBytes ? 'PASS' : 'FAIL'})`,
        `${cascadeBytes} B`,
        `${kubernetesBytes} B (Kubernetes' protobuf encoding)`,
        `${(cascadeBytes / kubernetesBytes).toFixed(2)}×`,
      ],
    ];
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
