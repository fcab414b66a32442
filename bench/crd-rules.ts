import type { KubeObject } from '../src/api/types.js';
import { StatusError } from '../src/api/errors.js';
import type { ResourceRef } from '../src/client/interface.js';
import { BUILTIN_DEFINITIONS } from '../src/kinds/definitions.js';
import { startApiServer } from '../src/server/api-server.js';
import { createInProcessClient } from '../src/server/in-process-client.js';
import { createMemoryBackend } from '../src/storage/memory/backend.js';
import { CREATE_CONCURRENCY, CREATE_LOAD_MS, postLoad } from './load.js';
import { median } from './stats.js';

/**
 * Issue 22's figure: HTTP creates/s of a custom kind whose schema carries five typical x-kubernetes-validations
 * rules, against the same kind without them, served by one in-process server and measured in alternating rounds
 * (goal: ≥ 70 %).
 */
const ROUNDS = 3;
const GOAL = 0.7;
const CRDS: ResourceRef = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };

const RULES = [
  { rule: 'self.replicas <= self.maxReplicas', message: 'replicas must not exceed maxReplicas' },
  { rule: "self.name.startsWith('app-')" },
  { rule: 'self.items.all(i, i.size() < 10)' },
  { rule: "!has(self.mode) || self.mode in ['fast', 'safe']" },
  { rule: 'self.id == oldSelf.id', message: 'id is immutable' },
];

function crd(group: string, rules: boolean): KubeObject {
  const spec = {
    type: 'object',
    properties: {
      replicas: { type: 'integer' },
      maxReplicas: { type: 'integer' },
      name: { type: 'string' },
      mode: { type: 'string' },
      id: { type: 'string' },
      items: { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 32 } },
    },
    ...(rules ? { 'x-kubernetes-validations': RULES } : {}),
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `apps.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'apps', singular: 'app', kind: 'App' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec } } } }],
    },
  };
}

const body =
  (group: string, prefix: string) =>
  (i: number): string =>
    JSON.stringify({
      apiVersion: `${group}/v1`,
      kind: 'App',
      metadata: { name: `${prefix}-${i}` },
      spec: { replicas: 2, maxReplicas: 3, name: 'app-x', mode: 'fast', id: 'a', items: ['one', 'two', 'three'] },
    });

export async function benchCrdRules(): Promise<string[][]> {
  const server = await startApiServer({ backend: createMemoryBackend(), port: 0 });
  const client = createInProcessClient(server.registry, BUILTIN_DEFINITIONS);
  const withRules: number[] = [];
  const without: number[] = [];
  try {
    for (const [group, rules] of [['ruled.example.com', true], ['plain.example.com', false]] as const) {
      await client.create(CRDS, undefined, crd(group, rules));
      for (;;) {
        try {
          await client.list({ group, version: 'v1', resource: 'apps' }, 'default', { limit: 1 });
          break;
        } catch (err) {
          if (!(err instanceof StatusError && err.code === 404)) throw err;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    }
    for (let r = 0; r < ROUNDS; r++) {
      for (const [group, out] of [['ruled.example.com', withRules], ['plain.example.com', without]] as const) {
        const load = await postLoad({
          url: server.url,
          path: `/apis/${group}/v1/namespaces/default/apps`,
          concurrency: CREATE_CONCURRENCY,
          durationMs: CREATE_LOAD_MS / 2,
          expectStatus: 201,
          body: body(group, `r${r}`),
        });
        if (load.failures > 0) throw new Error(`${load.failures} creates of ${group} failed`);
        out.push(load.perSecond);
      }
    }
  } finally {
    await server.close();
  }
  const ruled = median(withRules);
  const plain = median(without);
  const ratio = ruled / plain;
  process.stdout.write(`custom-kind creates with five CEL rules: ${(ratio * 100).toFixed(1)} % of the kind without rules (goal ≥ ${GOAL * 100} %)\n`);
  return [['creates/s, custom kind with 5 CEL rules (in-process server)', ruled.toFixed(0), `${plain.toFixed(0)} (same kind, no rules)`, `${(ratio * 100).toFixed(1)} %`]];
}
