import type { KubeObject } from '../src/api/types.js';
import type { ResourceRef } from '../src/client/interface.js';
import { waitFor } from '../src/embed/index.js';
import { BUILTIN_DEFINITIONS } from '../src/kinds/definitions.js';
import { startApiServer } from '../src/server/api-server.js';
import { createInProcessClient } from '../src/server/in-process-client.js';
import { createMemoryBackend } from '../src/storage/memory/backend.js';
import { CONFIGMAPS_PATH, CREATE_CONCURRENCY, CREATE_LOAD_MS, postLoad } from './load.js';
import { median } from './stats.js';

/**
 * Issue 22's figure: HTTP ConfigMap creates/s while a ValidatingAdmissionPolicy with a Deny binding matches every
 * ConfigMap create (three validations and a variable, all passing), against the same server with the binding
 * removed, in alternating rounds (goal: the policy costs ≤ 20 %, i.e. ≥ 80 % of the throughput without it).
 */
const ROUNDS = 3;
const GOAL = 0.8;
const POLICIES: ResourceRef = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicies' };
const BINDINGS: ResourceRef = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicybindings' };

const POLICY: KubeObject = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'bench-configmaps' },
  spec: {
    matchConstraints: {
      resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }],
    },
    variables: [{ name: 'keys', expression: 'has(object.data) ? size(object.data) : 0' }],
    validations: [
      { expression: 'variables.keys <= 16', message: 'too many keys' },
      { expression: "!object.metadata.name.startsWith('forbidden-')" },
      { expression: '!has(object.data) || object.data.all(k, k.size() <= 253)', messageExpression: "'bad key in ' + object.metadata.name" },
    ],
  },
};

const BINDING: KubeObject = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: 'bench-configmaps' },
  spec: { policyName: 'bench-configmaps', validationActions: ['Deny'] },
};

const body =
  (prefix: string) =>
  (i: number): string =>
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${prefix}-${i}` }, data: { key: 'value', index: String(i) } });

/** Whether a server-side dry run of a ConfigMap the policy refuses is refused: the binding is in effect. */
async function enforced(url: string): Promise<boolean> {
  const res = await fetch(`${url}${CONFIGMAPS_PATH}?dryRun=All`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'forbidden-probe' } }),
  });
  await res.arrayBuffer();
  return res.status === 422;
}

export async function benchAdmissionPolicy(): Promise<string[][]> {
  const server = await startApiServer({ backend: createMemoryBackend(), port: 0 });
  const client = createInProcessClient(server.registry, BUILTIN_DEFINITIONS);
  const withPolicy: number[] = [];
  const without: number[] = [];
  try {
    await client.create(POLICIES, undefined, POLICY);
    for (let r = 0; r < ROUNDS; r++) {
      for (const bound of [true, false]) {
        if (bound) await client.create(BINDINGS, undefined, BINDING);
        else await client.delete(BINDINGS, undefined, 'bench-configmaps');
        await waitFor(async () => ((await enforced(server.url)) === bound ? true : undefined), {
          timeoutMs: 10_000,
          what: 'the binding to take effect',
        });
        const load = await postLoad({
          url: server.url,
          path: CONFIGMAPS_PATH,
          concurrency: CREATE_CONCURRENCY,
          durationMs: CREATE_LOAD_MS / 2,
          expectStatus: 201,
          body: body(`r${r}-${bound ? 'p' : 'n'}`),
        });
        if (load.failures > 0) throw new Error(`${load.failures} ConfigMap creates failed`);
        (bound ? withPolicy : without).push(load.perSecond);
      }
    }
  } finally {
    await server.close();
  }
  const policy = median(withPolicy);
  const plain = median(without);
  const ratio = policy / plain;
  process.stdout.write(
    `ConfigMap creates under a matching ValidatingAdmissionPolicy: ${(ratio * 100).toFixed(1)} % of those without (goal ≥ ${GOAL * 100} %)\n`,
  );
  return [
    [
      'creates/s, ConfigMaps matched by a ValidatingAdmissionPolicy (in-process server)',
      policy.toFixed(0),
      `${plain.toFixed(0)} (no binding)`,
      `${(ratio * 100).toFixed(1)} %`,
    ],
  ];
}
