import assert from 'node:assert/strict';
import type { ApiServer } from '../../src/server/api-server.js';
import type { Json, Requester } from './gc-fixtures.js';
import { waitFor } from '../../src/embed/index.js';

/**
 * CustomResourceDefinitions and custom resources for the end-to-end suites (test/e2e/crd-*.test.ts): manifests,
 * paths, and the waits that CRD establishment and finalization need. Everything goes through the HTTP API.
 */

export const CRDS_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/** A served custom resource: what a path and an ownerReference need. */
export interface CustomKind {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

export function apiVersionOf(k: CustomKind): string {
  return `${k.group}/${k.version}`;
}

export function crCollectionPath(k: CustomKind, namespace?: string): string {
  const root = `/apis/${k.group}/${k.version}`;
  if (!k.namespaced) return `${root}/${k.plural}`;
  assert.ok(namespace, `${k.kind} needs a namespace`);
  return `${root}/namespaces/${namespace}/${k.plural}`;
}

export function crPath(k: CustomKind, namespace: string | undefined, name: string): string {
  return `${crCollectionPath(k, namespace)}/${name}`;
}

export function customResource(k: CustomKind, namespace: string | undefined, name: string, body: Json = {}, meta: Json = {}): Json {
  const metadata = k.namespaced ? { name, namespace, ...meta } : { name, ...meta };
  return { apiVersion: apiVersionOf(k), kind: k.kind, metadata, ...body };
}

export interface CrdOptions {
  readonly singular?: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  /** Defaults to one served storage version `k.version` with an open schema. */
  readonly versions?: readonly Json[];
}

/** A CRD manifest serving `k`. */
export function crdFor(k: CustomKind, options: CrdOptions = {}): Json {
  const names: Json = { plural: k.plural, kind: k.kind };
  if (options.singular !== undefined) names.singular = options.singular;
  if (options.shortNames !== undefined) names.shortNames = [...options.shortNames];
  if (options.categories !== undefined) names.categories = [...options.categories];
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${k.plural}.${k.group}` },
    spec: {
      group: k.group,
      scope: k.namespaced ? 'Namespaced' : 'Cluster',
      names,
      versions: options.versions ?? [crdVersion(k.version, { storage: true })],
    },
  };
}

export const OPEN_SCHEMA: Json = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

/** One entry of spec.versions. */
export function crdVersion(name: string, options: { storage: boolean; served?: boolean; schema?: Json; extra?: Json }): Json {
  return {
    name,
    served: options.served ?? true,
    storage: options.storage,
    schema: { openAPIV3Schema: options.schema ?? OPEN_SCHEMA },
    ...(options.extra ?? {}),
  };
}

export const WIDGET: CustomKind = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };

/**
 * The schema every kubectl scenario exercises: defaults, an enum, a minimum, an int-or-string, a
 * preserve-unknown-fields subtree, an embedded resource, and a status the /status subresource owns.
 */
export const WIDGET_SCHEMA: Json = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      description: 'WidgetSpec is the desired state of a widget.',
      properties: {
        size: { type: 'integer', minimum: 1, default: 3, description: 'How many parts the widget has.' },
        color: { type: 'string', enum: ['red', 'green', 'blue'], default: 'red', description: 'The paint.' },
        port: { 'x-kubernetes-int-or-string': true, description: 'A port number or name.' },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    status: { type: 'object', properties: { phase: { type: 'string' }, observed: { type: 'integer' } } },
  },
};

export const WIDGET_PRINTER_COLUMNS: readonly Json[] = [
  { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
  { name: 'Color', type: 'string', jsonPath: '.spec.color' },
  { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
];

export function widgetCrd(): Json {
  return crdFor(WIDGET, {
    singular: 'widget',
    shortNames: ['wd'],
    categories: ['all', 'gadgets'],
    versions: [
      crdVersion('v1', {
        storage: true,
        schema: WIDGET_SCHEMA,
        extra: { subresources: { status: {} }, additionalPrinterColumns: [...WIDGET_PRINTER_COLUMNS] },
      }),
    ],
  });
}

export function conditionOf(crd: Json, type: string): Json | undefined {
  return ((crd.status?.conditions ?? []) as Json[]).find((c) => c.type === type);
}

export function isEstablished(crd: Json): boolean {
  return conditionOf(crd, 'Established')?.status === 'True';
}

/** HTTP operations on CRDs and custom resources. */
export interface CrdApi {
  /** POSTs the CRD and waits until it is Established; returns the established CRD. */
  createEstablished(crd: Json, timeoutMs?: number): Promise<Json>;
  getCrd(name: string): Promise<Json | undefined>;
  /** Polls the CRD until `check` accepts it. */
  waitForCrd(name: string, check: (crd: Json) => boolean, what: string, timeoutMs?: number): Promise<Json>;
  /** DELETEs the CRD and waits until it is gone (its instances removed first). */
  deleteCrd(name: string, timeoutMs?: number): Promise<void>;
  create(k: CustomKind, obj: Json): Promise<Json>;
  get(k: CustomKind, obj: Json): Promise<Json | undefined>;
  waitForGone(k: CustomKind, obj: Json, timeoutMs?: number): Promise<void>;
}

export function crdApi(ts: Requester): CrdApi {
  const api: CrdApi = {
    async createEstablished(crd, timeoutMs = 2000) {
      const res = await ts.request('POST', CRDS_PATH, crd);
      assert.equal(res.status, 201, `create CRD ${crd.metadata.name}: ${res.text}`);
      return api.waitForCrd(crd.metadata.name, isEstablished, `CRD ${crd.metadata.name} to be Established`, timeoutMs);
    },
    async getCrd(name) {
      const res = await ts.request('GET', `${CRDS_PATH}/${name}`);
      if (res.status === 404) return undefined;
      assert.equal(res.status, 200, res.text);
      return res.json;
    },
    async waitForCrd(name, check, what, timeoutMs = 3000) {
      let last: Json | undefined;
      try {
        return await waitFor(
          async () => {
            last = await api.getCrd(name);
            return last !== undefined && check(last) ? last : undefined;
          },
          { timeoutMs, what },
        );
      } catch (err) {
        throw new Error(`${String(err)}; last seen: ${JSON.stringify({ metadata: last?.metadata, status: last?.status })}`);
      }
    },
    async deleteCrd(name, timeoutMs = 5000) {
      const res = await ts.request('DELETE', `${CRDS_PATH}/${name}`);
      assert.ok(res.status === 200 || res.status === 202, `delete CRD ${name}: ${res.text}`);
      await waitFor(async () => ((await api.getCrd(name)) === undefined ? true : undefined), { timeoutMs, what: `CRD ${name} to be gone` });
    },
    async create(k, obj) {
      const res = await ts.request('POST', crCollectionPath(k, obj.metadata.namespace), obj);
      assert.equal(res.status, 201, `create ${k.kind} ${obj.metadata.name}: ${res.text}`);
      return res.json;
    },
    async get(k, obj) {
      const res = await ts.request('GET', crPath(k, obj.metadata.namespace, obj.metadata.name));
      if (res.status === 404) return undefined;
      assert.equal(res.status, 200, res.text);
      return res.json;
    },
    async waitForGone(k, obj, timeoutMs = 5000) {
      await waitFor(async () => ((await api.get(k, obj)) === undefined ? true : undefined), {
        timeoutMs,
        what: `${k.kind} ${obj.metadata.name} to be gone`,
      });
    },
  };
  return api;
}

/**
 * Waits until the in-process garbage collector has observed the object through its own monitor (a graph node
 * that is not merely virtual). New resources join the collector's monitors on its next discovery pass, so a
 * test that deletes a CRD right after creating instances must wait for this, as Kubernetes' collector only
 * knows owners its monitors have seen (D4).
 */
export async function waitForCollectorToObserve(server: ApiServer, uid: string, timeoutMs = 2000): Promise<void> {
  const gc = server.controllers.garbageCollector;
  assert.ok(gc, 'the garbage collector runs');
  await waitFor(() => (gc.builder.graph.get(uid)?.virtual === false ? true : undefined), {
    timeoutMs,
    what: `the collector to observe ${uid}`,
  });
}
