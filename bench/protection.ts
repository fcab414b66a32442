import type { KubeObject } from '../src/api/types.js';
import { createInProcessClient } from '../src/server/in-process-client.js';
import type { ApiClient, ResourceRef } from '../src/client/interface.js';
import { BUILTIN_DEFINITIONS } from '../src/kinds/definitions.js';
import { PROTECTION_RULES } from '../src/protection/rule-types.js';
import { objectKey } from '../src/registry/keys.js';
import { type ApiServer, startApiServer } from '../src/server/api-server.js';
import type { Backend } from '../src/storage/backend.js';
import { createMemoryBackend } from '../src/storage/memory/backend.js';
import { createDeletionClock, type DeletionClock } from './deletion-clock.js';

/**
 * Issue 9's figure: one provider protected by a ProtectionRule, 10,000 dependents naming it (half through a list
 * field), the provider deleted, then its dependents deleted one by one by a client over HTTP, each DELETE waiting
 * for the previous one, as kubectl or a client library does. Counted: the live LISTs the rule's controller makes
 * (target ≤ 3: the cache answers "still in use" for all but the last), and the time from storage removing the last
 * dependent to storage removing the provider (target < 100 ms). The baseline deletes the same dependents the same
 * way on a server without the rule, to show what the protection controller costs the deleter.
 *
 * A second, informational measure deletes through the in-process client in a tight loop: deletions then outrun the
 * watch pipeline (every informer of the dependents decodes every event), and the provider's removal waits for that
 * backlog to drain; it is reported, not targeted.
 */
const DEPENDENTS_COUNT = 10_000;
const CREATE_BATCH = 200;
const MAX_LISTS = 3;
const TARGET_MS = 100;
const TIMEOUT_MS = 60_000;
const NS = 'default';
const GROUP = 'bench.protect.example.com';
const RULE = 'bench-in-use';
const FINALIZER = `${GROUP}/in-use`;
const PROVIDERS: ResourceRef = { group: GROUP, version: 'v1', resource: 'providers' };
const DEPENDENTS: ResourceRef = { group: GROUP, version: 'v1', resource: 'dependents' };
const CRDS: ResourceRef = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };

const crd = (plural: string, kind: string): KubeObject => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural, kind },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
});

const rule: KubeObject = {
  apiVersion: 'cascade.dev/v1alpha1',
  kind: 'ProtectionRule',
  metadata: { name: RULE },
  spec: {
    provider: { group: GROUP, version: 'v1', resource: 'providers' },
    dependent: { group: GROUP, version: 'v1', resource: 'dependents' },
    references: ['.spec.providerName', '.spec.providers[*]'],
    finalizer: FINALIZER,
  },
};

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

interface Fixture {
  readonly server: ApiServer;
  readonly client: ApiClient;
  readonly clock: DeletionClock;
  /** When storage removed the last dependent (`performance.now()`), once it has. */
  readonly lastDependentGone: () => number | undefined;
}

/** Notes when storage removes one key, so both ends of the measured interval are storage writes. */
function noteDeletion(inner: Backend, key: () => string | undefined): { backend: Backend; at: () => number | undefined } {
  let at: number | undefined;
  const backend: Backend = {
    ...inner,
    async delete(k, expectedModRevision) {
      const kv = await inner.delete(k, expectedModRevision);
      if (k === key()) at = performance.now();
      return kv;
    },
  };
  return { backend, at: () => at };
}

/** A server serving the provider and dependent kinds, with the rule in force when `protect` is set. */
async function startFixture(protect: boolean): Promise<Fixture> {
  let lastKey: string | undefined;
  const noted = noteDeletion(createMemoryBackend(), () => lastKey);
  const clock = createDeletionClock(noted.backend);
  const server = await startApiServer({ backend: clock.backend, port: 0 });
  const client = createInProcessClient(server.registry, BUILTIN_DEFINITIONS);
  await client.create(CRDS, undefined, crd('providers', 'Provider'));
  await client.create(CRDS, undefined, crd('dependents', 'Dependent'));
  await until(
    async () =>
      server.registry.lookup(GROUP, 'v1', 'providers') !== undefined && server.registry.lookup(GROUP, 'v1', 'dependents') !== undefined,
    'CRDs',
  );
  if (protect) {
    await client.create(PROTECTION_RULES, undefined, rule);
    // In force once admission gives new providers the finalizer.
    await until(async () => {
      const probe = await client.create(PROVIDERS, NS, {
        apiVersion: `${GROUP}/v1`,
        kind: 'Provider',
        metadata: { generateName: 'probe-' },
      });
      await client.delete(PROVIDERS, NS, probe.metadata.name ?? '');
      return (probe.metadata.finalizers ?? []).includes(FINALIZER);
    }, 'the rule to be in force');
    await until(async () => (await client.list(PROVIDERS, NS)).items.length === 0, 'probes to go');
  }
  await client.create(PROVIDERS, NS, { apiVersion: `${GROUP}/v1`, kind: 'Provider', metadata: { name: 'shared' } });
  const names = Array.from({ length: DEPENDENTS_COUNT }, (_, i) => i);
  for (let i = 0; i < names.length; i += CREATE_BATCH) {
    await Promise.all(
      names.slice(i, i + CREATE_BATCH).map((n) =>
        client.create(DEPENDENTS, NS, {
          apiVersion: `${GROUP}/v1`,
          kind: 'Dependent',
          metadata: { name: `d-${n}` },
          spec: n % 2 === 0 ? { providerName: 'shared' } : { providers: ['shared'] },
        }),
      ),
    );
  }
  const dependents = server.registry.lookup(GROUP, 'v1', 'dependents');
  if (dependents === undefined) throw new Error('dependents are not served');
  lastKey = objectKey(dependents.info, NS, `d-${DEPENDENTS_COUNT - 1}`);
  return { server, client, clock, lastDependentGone: noted.at };
}

const liveListsOf = (server: ApiServer): number =>
  server.controllers.protectionMetrics().find((m) => m.controller === `protectionrule/${RULE}`)?.liveLists ?? 0;

type Deleter = 'http' | 'in-process';

async function deleteOneByOne(f: Fixture, how: Deleter): Promise<number> {
  const started = performance.now();
  const collection = `${f.server.url}/apis/${GROUP}/v1/namespaces/${NS}/dependents`;
  for (let n = 0; n < DEPENDENTS_COUNT; n++) {
    if (how === 'in-process') {
      await f.client.delete(DEPENDENTS, NS, `d-${n}`);
      continue;
    }
    const res = await fetch(`${collection}/d-${n}`, { method: 'DELETE' });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`DELETE d-${n}: ${res.status}`);
  }
  return performance.now() - started;
}

interface Protected {
  readonly lists: number;
  readonly goneAfterMs: number;
  readonly deletingMs: number;
}

async function protectedRun(how: Deleter): Promise<Protected> {
  const f = await startFixture(true);
  try {
    const providers = f.server.registry.lookup(GROUP, 'v1', 'providers');
    if (providers === undefined) throw new Error('providers are not served');
    const listsBefore = liveListsOf(f.server);
    await f.client.delete(PROVIDERS, NS, 'shared');
    const gone = f.clock.expect(objectKey(providers.info, NS, 'shared'), 1, TIMEOUT_MS);
    gone.catch(() => {});
    const deletingMs = await deleteOneByOne(f, how);
    const goneAt = await gone;
    const lastDeleted = f.lastDependentGone();
    if (lastDeleted === undefined) throw new Error('the last dependent was not removed from storage');
    return { lists: liveListsOf(f.server) - listsBefore, goneAfterMs: goneAt - lastDeleted, deletingMs };
  } finally {
    await f.server.close();
  }
}

async function unprotectedRun(): Promise<number> {
  const f = await startFixture(false);
  try {
    await f.client.delete(PROVIDERS, NS, 'shared');
    return await deleteOneByOne(f, 'http');
  } finally {
    await f.server.close();
  }
}

/** Rows for bench/index.ts's table (measure, Cascade, baseline, ratio); also prints the verdict. */
export async function benchProtection(): Promise<string[][]> {
  const baselineMs = await unprotectedRun();
  const run = await protectedRun('http');
  const tight = await protectedRun('in-process');
  const listVerdict = run.lists <= MAX_LISTS ? 'PASS' : 'FAIL';
  const timeVerdict = run.goneAfterMs < TARGET_MS ? 'PASS' : 'FAIL';
  process.stdout.write(
    `in-use protection, ${DEPENDENTS_COUNT} dependents deleted one by one: ${run.lists} live lists (target ≤ ${MAX_LISTS}: ${listVerdict}); ` +
      `provider gone ${run.goneAfterMs.toFixed(1)} ms after the last dependent (target < ${TARGET_MS} ms: ${timeVerdict}); ` +
      `deleting took ${run.deletingMs.toFixed(0)} ms, ${baselineMs.toFixed(0)} ms without the rule; ` +
      `in-process tight loop: ${tight.lists} live lists, provider gone ${tight.goneAfterMs.toFixed(1)} ms after the last dependent\n`,
  );
  return [
    [
      `ProtectionRule: live LISTs while a provider's ${DEPENDENTS_COUNT} dependents are deleted one by one (target ≤ ${MAX_LISTS}: ${listVerdict})`,
      String(run.lists),
      `${DEPENDENTS_COUNT} (one per deletion without the design's cache-first check)`,
      `${(run.lists / DEPENDENTS_COUNT).toFixed(4)}×`,
    ],
    [
      `ProtectionRule: last dependent removed → provider removed, both timed at the storage write (target < ${TARGET_MS} ms: ${timeVerdict})`,
      `${run.goneAfterMs.toFixed(1)} ms`,
      `${TARGET_MS} ms (target)`,
      `${(run.goneAfterMs / TARGET_MS).toFixed(2)}×`,
    ],
    [
      `ProtectionRule: ${DEPENDENTS_COUNT} dependents deleted one by one over HTTP, rule's controller running`,
      `${run.deletingMs.toFixed(0)} ms`,
      `${baselineMs.toFixed(0)} ms (the same deletions without the rule)`,
      `${(run.deletingMs / baselineMs).toFixed(2)}×`,
    ],
    [
      `ProtectionRule, informational: the same with in-process deletes in a tight loop (outrunning the watch pipeline): live LISTs; last delete → provider gone`,
      `${tight.lists}; ${tight.goneAfterMs.toFixed(1)} ms`,
      `${tight.deletingMs.toFixed(0)} ms to delete them all`,
      '',
    ],
  ];
}
