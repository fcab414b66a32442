import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { KubeObject } from '../src/api/types.js';
import type { ResourceRef } from '../src/client/interface.js';
import { DEPLOYMENT } from '../src/kinds/apps-v1/deployment.js';
import { POD } from '../src/kinds/core-v1/pod.js';
import type { KindDefinition } from '../src/kinds/define/kind-definition.js';
import { BUILTIN_DEFINITIONS } from '../src/kinds/definitions.js';
import { startApiServer } from '../src/server/api-server.js';
import { createInProcessClient } from '../src/server/in-process-client.js';
import { createMemoryBackend } from '../src/storage/memory/backend.js';
import { processCpuSeconds } from './cpu.js';
import { CREATE_CONCURRENCY, CREATE_LOAD_MS, postLoad } from './load.js';
import { startProcess } from './process.js';
import { median } from './stats.js';

/**
 * Issue 30's figure: the share of a create that the kind's validation takes, for a typical Pod and Deployment.
 * Creates go through the in-process client (registry, defaulting, validation, admission, managedFields, memory
 * storage, no HTTP), so the share is an upper bound of what an HTTP client sees. Validation is then timed alone on
 * the objects those creates stored (defaulted, as the store validates them). Goal: ≤ 10 %.
 */
const OBJECTS = 2000;
const ROUNDS = 3;
const GOAL = 0.1;

const CONTAINER = {
  name: 'web',
  image: 'registry.example.com/team/web:1.27.3',
  ports: [
    { name: 'http', containerPort: 8080, protocol: 'TCP' },
    { name: 'metrics', containerPort: 9090 },
  ],
  env: [
    { name: 'MODE', value: 'production' },
    { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
  ],
  resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
  readinessProbe: { httpGet: { path: '/ready', port: 'http' }, periodSeconds: 5 },
  livenessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: 10 },
  volumeMounts: [
    { name: 'config', mountPath: '/etc/web' },
    { name: 'cache', mountPath: '/var/cache/web' },
  ],
  securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
};

const POD_SPEC = {
  containers: [CONTAINER],
  volumes: [
    { name: 'config', configMap: { name: 'web-config' } },
    { name: 'cache', emptyDir: { sizeLimit: '1Gi' } },
  ],
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
};

const LABELS = { app: 'web', tier: 'frontend' };

function pod(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: LABELS }, spec: structuredClone(POD_SPEC) };
}

function deployment(name: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: LABELS },
    spec: { replicas: 3, selector: { matchLabels: LABELS }, template: { metadata: { labels: LABELS }, spec: structuredClone(POD_SPEC) } },
  };
}

interface Subject {
  readonly label: string;
  readonly path: string;
  readonly ref: ResourceRef;
  readonly kind: KindDefinition;
  readonly build: (name: string) => KubeObject;
}

const SUBJECTS: readonly Subject[] = [
  { label: 'Pod', path: '/api/v1/namespaces/default/pods', ref: { group: '', version: 'v1', resource: 'pods' }, kind: POD, build: pod },
  {
    label: 'Deployment',
    path: '/apis/apps/v1/namespaces/default/deployments',
    ref: { group: 'apps', version: 'v1', resource: 'deployments' },
    kind: DEPLOYMENT,
    build: deployment,
  },
];

/** Microseconds per validation of each stored object, looping until at least 50 ms have passed for a stable figure. */
function validationMicros(kind: KindDefinition, stored: readonly KubeObject[]): number {
  const validate = kind.strategy?.validate;
  if (validate === undefined) return 0;
  let calls = 0;
  const start = performance.now();
  do {
    for (const obj of stored) {
      if (validate(obj).length > 0) throw new Error(`${obj.kind} ${obj.metadata.name} stored but invalid`);
      calls++;
    }
  } while (performance.now() - start < 50);
  return ((performance.now() - start) * 1000) / calls;
}

/**
 * Server CPU per create of `subject` over HTTP, as a client sees a create: a `cascade serve` process on memory
 * storage, without the workload controllers (their own writes would be counted), CPU read from /proc.
 */
async function serverCpuPerHttpCreate(subject: Subject): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'cascade-bench-validation-'));
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
    const pid = server.child.pid ?? 0;
    const before = processCpuSeconds(pid) ?? Number.NaN;
    const load = await postLoad({
      url: server.url,
      path: subject.path,
      concurrency: CREATE_CONCURRENCY,
      durationMs: CREATE_LOAD_MS / 2,
      expectStatus: 201,
      body: (i) => JSON.stringify(subject.build(`http-${i}`)),
    });
    if (load.failures > 0) throw new Error(`${load.failures} HTTP creates of ${subject.label} failed`);
    const after = processCpuSeconds(pid) ?? Number.NaN;
    return ((after - before) / Math.max(load.requests, 1)) * 1e6;
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchValidation(): Promise<string[][]> {
  // The workload controllers would turn each Deployment into ReplicaSets and pods on the same event loop, inside
  // the timed creates: off, so the figure is the create alone (as over HTTP below).
  const server = await startApiServer({
    backend: createMemoryBackend(),
    port: 0,
    controllers: { replicaSetController: false, replicationController: false, deploymentController: false },
  });
  const client = createInProcessClient(server.registry, BUILTIN_DEFINITIONS);
  const rows: string[][] = [];
  try {
    for (const subject of SUBJECTS) {
      const createMicros: number[] = [];
      const validateMicros: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const stored: KubeObject[] = [];
        const start = performance.now();
        for (let i = 0; i < OBJECTS; i++) stored.push(await client.create(subject.ref, 'default', subject.build(`r${round}-${i}`)));
        createMicros.push(((performance.now() - start) * 1000) / OBJECTS);
        validateMicros.push(validationMicros(subject.kind, stored));
      }
      const create = median(createMicros);
      const validate = median(validateMicros);
      const share = validate / create;
      const httpCpu = await serverCpuPerHttpCreate(subject);
      const httpShare = validate / httpCpu;
      process.stdout.write(
        `${subject.label} validation: ${validate.toFixed(1)} µs of a ${create.toFixed(1)} µs create (${(share * 100).toFixed(1)} %)\n`,
      );
      rows.push([
        `${subject.label} validation share of a typical create, in-process client, memory (median of ${ROUNDS} × ${OBJECTS}; goal ≤ ${GOAL * 100} %: ${share <= GOAL ? 'PASS' : 'FAIL'})`,
        `${validate.toFixed(1)} µs`,
        `${create.toFixed(1)} µs (the whole create)`,
        `${(share * 100).toFixed(1)} %`,
      ]);
      rows.push([
        `${subject.label} validation share of the server's CPU per HTTP create (cascade serve, memory, ${CREATE_CONCURRENCY} connections, ${CREATE_LOAD_MS / 2000} s; goal ≤ ${GOAL * 100} %: ${httpShare <= GOAL ? 'PASS' : 'FAIL'})`,
        `${validate.toFixed(1)} µs`,
        `${httpCpu.toFixed(0)} µs (server CPU per create, /proc)`,
        `${(httpShare * 100).toFixed(1)} %`,
      ]);
    }
  } finally {
    await server.close();
  }
  return rows;
}
