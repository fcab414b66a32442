import assert from 'node:assert/strict';
import { waitFor } from '../../src/embed/index.js';
import type { TestServer } from './test-server.js';

/**
 * Kinds, rules and waits for the in-use protection suites (test/e2e/protection-*.test.ts): a namespaced Provider and
 * Dependent pair served by CRDs, and a ProtectionRule that protects providers while dependents refer to them.
 */

export type Json = Record<string, any>;

export const GROUP = 'protect.example.com';
export const IN_USE_FINALIZER = 'protect.example.com/in-use';
export const RULES_PATH = '/apis/cascade.dev/v1alpha1/protectionrules';
const CRDS_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const OPEN = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

export const providersPath = (ns: string): string => `/apis/${GROUP}/v1/namespaces/${ns}/providers`;
export const dependentsPath = (ns: string): string => `/apis/${GROUP}/v1/namespaces/${ns}/dependents`;

function crd(plural: string, kind: string): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural, kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: OPEN } }],
    },
  };
}

/** Serves providers and dependents (status is plain data: no /status subresource, so a PUT may set it). */
export async function createProviderDependentCrds(ts: TestServer): Promise<void> {
  for (const [plural, kind] of [
    ['providers', 'Provider'],
    ['dependents', 'Dependent'],
  ] as const) {
    const res = await ts.request('POST', CRDS_PATH, crd(plural, kind));
    assert.equal(res.status, 201, res.text);
  }
  await waitFor(
    async () => {
      const a = await ts.request('GET', providersPath('default'));
      const b = await ts.request('GET', dependentsPath('default'));
      return a.status === 200 && b.status === 200 ? true : undefined;
    },
    { timeoutMs: 5000, what: 'providers and dependents to be served' },
  );
}

/** The rule the suites use: single and list-valued references; a Broken dependent no longer uses its providers. */
export function providerRule(name: string): Json {
  return {
    apiVersion: 'cascade.dev/v1alpha1',
    kind: 'ProtectionRule',
    metadata: { name },
    spec: {
      provider: { group: GROUP, version: 'v1', resource: 'providers' },
      dependent: { group: GROUP, version: 'v1', resource: 'dependents' },
      references: ['.spec.providerName', '.spec.providers[*]'],
      condition: '.status.phase != Broken',
      finalizer: IN_USE_FINALIZER,
    },
  };
}

/** Creates the rule and waits until admission applies it (a new provider is born with the finalizer). */
export async function createRule(ts: TestServer, rule: Json, ns = 'default'): Promise<void> {
  const res = await ts.request('POST', RULES_PATH, rule);
  assert.equal(res.status, 201, res.text);
  const probe = `probe-${rule.metadata.name}`;
  await waitFor(
    async () => {
      const created = await ts.request('POST', providersPath(ns), provider(probe));
      const born = created.status === 201 && (created.json.metadata.finalizers ?? []).includes(rule.spec.finalizer);
      await ts.request('DELETE', `${providersPath(ns)}/${probe}`);
      await waitFor(async () => ((await ts.request('GET', `${providersPath(ns)}/${probe}`)).status === 404 ? true : undefined), {
        timeoutMs: 5000,
        what: 'probe gone',
      });
      return born ? true : undefined;
    },
    { timeoutMs: 5000, what: `rule ${rule.metadata.name} to be applied by admission` },
  );
}

export function provider(name: string): Json {
  return { apiVersion: `${GROUP}/v1`, kind: 'Provider', metadata: { name } };
}

export function dependent(name: string, spec: Json): Json {
  return { apiVersion: `${GROUP}/v1`, kind: 'Dependent', metadata: { name }, spec };
}

export async function getJson(ts: TestServer, path: string): Promise<Json | undefined> {
  const res = await ts.request('GET', path);
  if (res.status === 404) return undefined;
  assert.equal(res.status, 200, res.text);
  return res.json;
}

export async function waitForGone(ts: TestServer, path: string, timeoutMs = 5000): Promise<void> {
  await waitFor(async () => ((await getJson(ts, path)) === undefined ? true : undefined), { timeoutMs, what: `${path} to be gone` });
}

/** Asserts the object is still there, terminating, after `ms` of letting the controllers run. */
export async function assertHeld(ts: TestServer, path: string, ms = 300): Promise<Json> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  const obj = await getJson(ts, path);
  assert.ok(obj !== undefined, `${path} should still exist`);
  assert.ok(obj.metadata.deletionTimestamp, `${path} should be terminating`);
  return obj;
}

/** One counter of /metrics, by name and controller label. */
export async function metric(ts: TestServer, name: string, controller: string): Promise<number> {
  const text = (await ts.request('GET', '/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{controller="${controller}"} `));
  assert.ok(line !== undefined, `metric ${name}{controller="${controller}"} in:\n${text}`);
  return Number(line.split(' ')[1]);
}
