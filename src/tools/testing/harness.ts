import type { KubeObject, OwnerReference } from '../../api/types.js';
import { createInProcessClient } from '../../server/in-process-client.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { BUILTIN_DEFINITIONS } from '../../kinds/definitions.js';
import { type ApiServer, type ApiServerOptions, startApiServer } from '../../server/api-server.js';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import type { CommandIo, OutputStream } from '../command-io.js';

/** An in-process Cascade (with its garbage collector and namespace controller) and a client for the tools. */
export interface ToolServer {
  readonly server: ApiServer;
  readonly client: ApiClient;
  stop(): Promise<void>;
}

export async function startToolServer(controllers: ApiServerOptions['controllers'] = {}): Promise<ToolServer> {
  // The tools' tests build Deployment → ReplicaSet → Pod trees by hand to compare the tools with the collector; the
  // workload controllers would adopt those objects and add their own, so they stay off here.
  const withoutWorkloadControllers = { replicaSetController: false, replicationController: false, deploymentController: false };
  const server = await startApiServer({
    backend: createMemoryBackend(),
    port: 0,
    controllers: { ...withoutWorkloadControllers, ...controllers },
  });
  return { server, client: createInProcessClient(server.registry, BUILTIN_DEFINITIONS), stop: () => server.close() };
}

export interface CapturedIo extends CommandIo {
  readonly out: () => string;
  readonly err: () => string;
}

/** Streams that collect what a command writes. */
export function captureIo(): CapturedIo {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const stream = (chunks: string[]): OutputStream => ({ write: (chunk: string) => chunks.push(chunk) });
  return { stdout: stream(stdout), stderr: stream(stderr), out: () => stdout.join(''), err: () => stderr.join('') };
}

export const HOLD = 'example.com/hold';

export const REFS = {
  namespaces: { group: '', version: 'v1', resource: 'namespaces' },
  configmaps: { group: '', version: 'v1', resource: 'configmaps' },
  secrets: { group: '', version: 'v1', resource: 'secrets' },
  pods: { group: '', version: 'v1', resource: 'pods' },
  deployments: { group: 'apps', version: 'v1', resource: 'deployments' },
  replicasets: { group: 'apps', version: 'v1', resource: 'replicasets' },
  clusterroles: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' },
  crds: { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' },
  widgets: { group: 'example.com', version: 'v1', resource: 'widgets' },
} as const satisfies Record<string, ResourceRef>;

export function ownerRef(owner: KubeObject, options: { blockOwnerDeletion?: boolean; controller?: boolean } = {}): OwnerReference {
  return {
    apiVersion: owner.apiVersion ?? '',
    kind: owner.kind ?? '',
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    ...options,
  };
}

type Meta = KubeObject['metadata'];

export const objects = {
  namespace: (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
  configMap: (namespace: string, name: string, meta: Partial<Meta> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, ...meta },
    data: { k: 'v' },
  }),
  secret: (namespace: string, name: string, meta: Partial<Meta> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace, ...meta },
    type: 'Opaque',
  }),
  pod: (namespace: string, name: string, meta: Partial<Meta> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, ...meta },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  }),
  deployment: (namespace: string, name: string, meta: Partial<Meta> = {}): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, ...meta },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  }),
  replicaSet: (namespace: string, name: string, meta: Partial<Meta> = {}): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace, ...meta },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  }),
  clusterRole: (name: string, meta: Partial<Meta> = {}): KubeObject => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, ...meta },
    rules: [],
  }),
  widget: (namespace: string, name: string, meta: Partial<Meta> = {}): KubeObject => ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace, ...meta },
    spec: {},
  }),
};

export const WIDGET_CRD: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

/** Polls until `check` returns something other than undefined. */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last === undefined ? '' : `: ${String(last)}`}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Creates the Widget CRD and waits until it is served and the garbage collector watches it. */
export async function installWidgets(ts: ToolServer): Promise<void> {
  await ts.client.create(REFS.crds, undefined, WIDGET_CRD);
  await eventually(
    async () => ((await ts.client.discover()).some((r) => r.group === 'example.com' && r.plural === 'widgets') ? true : undefined),
    'widgets to be served',
  );
  // The collector re-reads discovery every 500 ms (R4.7); a probe object shows when its monitor has synced.
  const probe = await ts.client.create(REFS.widgets, 'default', objects.widget('default', 'probe'));
  const gc = ts.server.controllers.garbageCollector;
  await eventually(
    async () => (gc?.graphOf(probe.metadata.uid ?? '') === undefined ? undefined : true),
    'the garbage collector to watch widgets',
  );
  await ts.client.delete(REFS.widgets, 'default', 'probe');
}

/** The object with this uid still exists. */
export async function exists(client: ApiClient, ref: ResourceRef, obj: KubeObject): Promise<boolean> {
  const list = await client.list(ref, obj.metadata.namespace);
  return list.items.some((item) => item.metadata.uid === obj.metadata.uid);
}
