import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchError } from './errors.js';
import { DEPLOYMENT_SCHEMA, MINI_DEFINITIONS } from './fixtures/mini-definitions.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';

function deployment(): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      labels: { app: 'web', tier: 'frontend' },
      finalizers: ['a.example.com/x', 'b.example.com/y'],
      ownerReferences: [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'o1', uid: 'u1' },
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'o2', uid: 'u2' },
      ],
    },
    spec: {
      replicas: 2,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } },
      config: { a: { b: 1, c: 2 }, list: [1, 2] },
      template: {
        spec: {
          containers: [
            {
              name: 'app',
              image: 'app:1',
              args: ['--a', '--b'],
              env: [
                { name: 'MODE', value: 'dev' },
                { name: 'LOG', value: 'info' },
              ],
              ports: [{ containerPort: 80, protocol: 'TCP' }],
            },
            { name: 'sidecar', image: 'proxy:1' },
          ],
          tolerations: [{ key: 'k1', operator: 'Exists' }],
          nodeSelector: { disk: 'ssd', zone: 'a' },
          volumes: [{ name: 'cfg', configMap: { name: 'c1' } }],
        },
      },
    },
  };
}

function smp(patch: unknown, original: unknown = deployment()): Record<string, unknown> {
  return applyStrategicMergePatch(original, patch, DEPLOYMENT_SCHEMA, MINI_DEFINITIONS) as Record<string, unknown>;
}

/** Reads a dotted path ("spec.template.spec.containers") out of a result. */
function at(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], obj);
}

const containersPath = 'spec.template.spec.containers';

describe('applyStrategicMergePatch: merging', () => {
  const cases: { name: string; patch: unknown; path: string; expected: unknown }[] = [
    {
      name: 'adding a container by name puts it before the existing ones (as kubectl patch docs show)',
      patch: { spec: { template: { spec: { containers: [{ name: 'new', image: 'redis' }] } } } },
      path: containersPath,
      expected: [{ name: 'new', image: 'redis' }, ...(at(deployment(), containersPath) as unknown[])],
    },
    {
      name: 'changing a container image merges by name and keeps the other fields',
      patch: { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'proxy:2' }] } } } },
      path: containersPath,
      expected: [(at(deployment(), containersPath) as unknown[])[0], { name: 'sidecar', image: 'proxy:2' }],
    },
    {
      name: 'removing a container with $patch: delete',
      patch: { spec: { template: { spec: { containers: [{ name: 'app', $patch: 'delete' }] } } } },
      path: containersPath,
      expected: [{ name: 'sidecar', image: 'proxy:1' }],
    },
    {
      name: 'changing one env var of a container',
      patch: { spec: { template: { spec: { containers: [{ name: 'app', env: [{ name: 'MODE', value: 'prod' }] }] } } } },
      path: containersPath,
      expected: [
        {
          name: 'app',
          image: 'app:1',
          args: ['--a', '--b'],
          env: [
            { name: 'MODE', value: 'prod' },
            { name: 'LOG', value: 'info' },
          ],
          ports: [{ containerPort: 80, protocol: 'TCP' }],
        },
        { name: 'sidecar', image: 'proxy:1' },
      ],
    },
    {
      name: 'ports merge by containerPort',
      patch: {
        spec: {
          template: { spec: { containers: [{ name: 'app', ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }] }] } },
        },
      },
      path: 'spec.template.spec.containers.0.ports',
      expected: [{ containerPort: 80, protocol: 'TCP', name: 'http' }, { containerPort: 443 }],
    },
    {
      name: 'a list without patch strategy (args) is replaced',
      patch: { spec: { template: { spec: { containers: [{ name: 'app', args: ['--c'] }] } } } },
      path: 'spec.template.spec.containers.0.args',
      expected: ['--c'],
    },
    {
      name: 'an atomic list of maps without patch strategy (tolerations) is replaced',
      patch: { spec: { template: { spec: { tolerations: [{ key: 'k2', operator: 'Exists' }] } } } },
      path: 'spec.template.spec.tolerations',
      expected: [{ key: 'k2', operator: 'Exists' }],
    },
    {
      name: 'a label is removed with null and another added',
      patch: { metadata: { labels: { tier: null, track: 'stable' } } },
      path: 'metadata.labels',
      expected: { app: 'web', track: 'stable' },
    },
    {
      name: 'null for a field that does not exist is ignored',
      patch: { metadata: { annotations: null, labels: { nope: null } } },
      path: 'metadata',
      expected: at(deployment(), 'metadata'),
    },
    {
      name: 'a new finalizer joins the list of primitives (new items first, like the server)',
      patch: { metadata: { finalizers: ['c.example.com/z'] } },
      path: 'metadata.finalizers',
      expected: ['c.example.com/z', 'a.example.com/x', 'b.example.com/y'],
    },
    {
      name: 'the patch order wins for the finalizers it lists',
      patch: { metadata: { finalizers: ['b.example.com/y', 'a.example.com/x'] } },
      path: 'metadata.finalizers',
      expected: ['b.example.com/y', 'a.example.com/x'],
    },
    {
      name: 'server-only items keep their place around patched ones',
      patch: { metadata: { finalizers: ['b.example.com/y', 'z'] } },
      path: 'metadata.finalizers',
      expected: ['a.example.com/x', 'b.example.com/y', 'z'],
    },
    {
      name: '$deleteFromPrimitiveList/finalizers removes the named finalizers',
      patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['a.example.com/x', 'not-there'] } },
      path: 'metadata.finalizers',
      expected: ['b.example.com/y'],
    },
    {
      name: '$deleteFromPrimitiveList for a list the object does not have does nothing',
      patch: { metadata: { '$deleteFromPrimitiveList/missing': ['x'] } },
      path: 'metadata',
      expected: at(deployment(), 'metadata'),
    },
    {
      name: 'an owner reference is removed by uid (R4.34 garbage collector patch)',
      patch: { metadata: { ownerReferences: [{ $patch: 'delete', uid: 'u1' }] } },
      path: 'metadata.ownerReferences',
      expected: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o2', uid: 'u2' }],
    },
    {
      name: '$setElementOrder orders the merged list (kubectl apply adding a container in the middle)',
      patch: {
        spec: {
          template: {
            spec: {
              '$setElementOrder/containers': [{ name: 'app' }, { name: 'mid' }, { name: 'sidecar' }],
              containers: [{ name: 'mid', image: 'mid:1' }],
            },
          },
        },
      },
      path: containersPath,
      expected: [
        (at(deployment(), containersPath) as unknown[])[0],
        { name: 'mid', image: 'mid:1' },
        { name: 'sidecar', image: 'proxy:1' },
      ],
    },
    {
      name: '$setElementOrder alone reorders existing elements',
      patch: { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }] } } } },
      path: 'spec.template.spec.containers.0.name',
      expected: 'sidecar',
    },
    {
      name: '$setElementOrder for a list of primitives',
      patch: { metadata: { '$setElementOrder/finalizers': ['b.example.com/y', 'c', 'a.example.com/x'], finalizers: ['c'] } },
      path: 'metadata.finalizers',
      expected: ['b.example.com/y', 'c', 'a.example.com/x'],
    },
    {
      name: '$retainKeys clears the fields not listed (switching the strategy to Recreate)',
      patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
      path: 'spec.strategy',
      expected: { type: 'Recreate' },
    },
    {
      name: '$retainKeys inside a merging list element (volume source switch)',
      patch: { spec: { template: { spec: { volumes: [{ name: 'cfg', emptyDir: {}, $retainKeys: ['emptyDir', 'name'] }] } } } },
      path: 'spec.template.spec.volumes',
      expected: [{ name: 'cfg', emptyDir: {} }],
    },
    {
      name: '$patch: replace on a map replaces it',
      patch: { spec: { template: { spec: { nodeSelector: { $patch: 'replace', zone: 'b' } } } } },
      path: 'spec.template.spec.nodeSelector',
      expected: { zone: 'b' },
    },
    {
      name: 'a map without directive merges (nodeSelector)',
      patch: { spec: { template: { spec: { nodeSelector: { zone: 'b' } } } } },
      path: 'spec.template.spec.nodeSelector',
      expected: { disk: 'ssd', zone: 'b' },
    },
    {
      name: '$patch: delete on a map empties it',
      patch: { spec: { strategy: { $patch: 'delete' } } },
      path: 'spec.strategy',
      expected: {},
    },
    {
      name: '$patch: replace inside a merging list replaces the whole list',
      patch: { spec: { template: { spec: { containers: [{ name: 'only', image: 'x' }, { $patch: 'replace' }] } } } },
      path: containersPath,
      expected: [{ name: 'only', image: 'x' }],
    },
    {
      name: 'fields under preserve-unknown-fields merge like a JSON merge patch',
      patch: { spec: { config: { a: { b: null, d: 4 }, list: [3] } } },
      path: 'spec.config',
      expected: { a: { c: 2, d: 4 }, list: [3] },
    },
    {
      name: 'a new field loses its directives and nulls',
      patch: {
        metadata: { annotations: { keep: 'y', drop: null } },
        spec: { template: { metadata: { labels: { x: 'y' } }, spec: { initContainers: [{ name: 'i', $patch: 'delete' }] } } },
      },
      path: 'spec.template',
      expected: {
        ...(at(deployment(), 'spec.template') as object),
        metadata: { labels: { x: 'y' } },
        spec: { ...(at(deployment(), 'spec.template.spec') as object), initContainers: [] },
      },
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(at(smp(c.patch), c.path), c.expected);
    });
  }

  it('a null patch leaves the object unchanged and inputs are not mutated', () => {
    const original = deployment();
    assert.deepEqual(smp(null, original), deployment());
    const patch = { metadata: { labels: { tier: null } } };
    smp(patch, original);
    assert.deepEqual(original, deployment());
    assert.deepEqual(patch, { metadata: { labels: { tier: null } } });
  });

  it('a scalar field change is taken from the patch', () => {
    assert.equal(at(smp({ spec: { replicas: 5 } }), 'spec.replicas'), 5);
  });
});

// Kubernetes answers the engine's plain errors with 500 (reason empty); bad input here gets the same text as 400.
describe('applyStrategicMergePatch: errors carry the status kube-apiserver answers', () => {
  const cases: { name: string; patch: unknown; code: number; reason: string; message: string; original?: unknown }[] = [
    {
      name: 'a list element without its merge key is a 400 with the engine message',
      patch: { spec: { template: { spec: { containers: [{ image: 'nginx' }] } } } },
      code: 400,
      reason: 'BadRequest',
      message: 'map: map[image:nginx] does not contain declared merge key: name',
    },
    {
      name: 'a $patch: delete element without merge key',
      patch: { metadata: { ownerReferences: [{ $patch: 'delete', name: 'o1' }] } },
      code: 400,
      reason: 'BadRequest',
      message: 'map: map[$patch:delete name:o1] does not contain declared merge key: uid',
    },
    {
      name: 'an unknown $patch value in a map',
      patch: { spec: { strategy: { $patch: 'frobnicate' } } },
      code: 400,
      reason: 'BadRequest',
      message: 'unknown patch type: frobnicate in map: map[$patch:frobnicate]',
    },
    {
      name: '$patch: merge in a map is not a known map directive',
      patch: { metadata: { labels: { $patch: 'merge' } } },
      code: 400,
      reason: 'BadRequest',
      message: 'unknown patch type: merge in map: map[$patch:merge]',
    },
    {
      name: '$patch: merge in a list',
      patch: { spec: { template: { spec: { containers: [{ $patch: 'merge' }] } } } },
      code: 400,
      reason: 'BadRequest',
      message: 'merging lists cannot yet be specified in the patch',
    },
    {
      name: 'mixed element types',
      patch: { spec: { template: { spec: { volumes: ['x'] } } } },
      code: 400,
      reason: 'BadRequest',
      message: 'list element types are not identical: [[map[configMap:map[name:c1] name:cfg]] [x]]',
    },
    {
      name: 'a list of lists',
      original: { metadata: { finalizers: [] } },
      patch: { metadata: { finalizers: [['x']] } },
      code: 422,
      reason: 'Invalid',
      message: 'the server rejected our request due to an error in our request',
    },
    {
      name: '$retainKeys that is not a list',
      patch: { spec: { strategy: { $retainKeys: 'type', type: 'Recreate' } } },
      code: 400,
      reason: 'BadRequest',
      message: 'invalid patch format of retainKeys',
    },
    {
      name: '$retainKeys not covering a patched field',
      patch: { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: { maxSurge: 2 } } } },
      code: 400,
      reason: 'BadRequest',
      message: 'invalid patch format of retainKeys',
    },
    {
      name: '$deleteFromPrimitiveList without a field name',
      patch: { metadata: { $deleteFromPrimitiveList: ['x'] } },
      code: 400,
      reason: 'BadRequest',
      message: 'invalid patch format of primitive list',
    },
    {
      name: '$setElementOrder without a field name',
      patch: { metadata: { $setElementOrder: ['x'] } },
      code: 400,
      reason: 'BadRequest',
      message: 'invalid patch format of setElementOrder list',
    },
    {
      name: '$setElementOrder contradicting the patch list order',
      patch: { metadata: { '$setElementOrder/finalizers': ['a.example.com/x'], finalizers: ['z'] } },
      code: 400,
      reason: 'BadRequest',
      message: "the order in patch list:\n[z]\n doesn't match $setElementOrder list:\n[a.example.com/x]",
    },
    {
      name: 'a patch body that is not an object',
      patch: [{ op: 'add' }],
      code: 400,
      reason: 'BadRequest',
      message: 'json: cannot unmarshal array into Go value of type map[string]interface {}',
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      assert.throws(
        () => smp(c.patch, c.original ?? deployment()),
        (err: unknown) => {
          assert.ok(err instanceof PatchError);
          assert.equal(err.code, c.code);
          assert.equal(err.reason, c.reason);
          assert.equal(err.message, c.message);
          return true;
        },
      );
    });
  }
});
