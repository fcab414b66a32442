import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KubeConfig, KubernetesObjectApi, PatchStrategy } from '@kubernetes/client-node';
import { startTestServer, type TestServer, WITHOUT_WORKLOAD_CONTROLLERS } from '../support/test-server.js';

const NS = 'ssa-kubectl';

function deployment(spec: { replicas?: number; image: string; env?: { name: string; value: string }[] }): string {
  const container: Record<string, unknown> = { name: 'main', image: spec.image };
  if (spec.env !== undefined) container.env = spec.env;
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: NS },
    spec: {
      ...(spec.replicas === undefined ? {} : { replicas: spec.replicas }),
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container] } },
    },
  });
}

describe('server-side apply with kubectl and client-node (R10.112–R10.117)', () => {
  let ts: TestServer;
  const kubectl = (args: string[], input?: string) => ts.kubectl([...args, '-n', NS], input === undefined ? {} : { input });
  const getDeployment = async (): Promise<any> =>
    JSON.parse(await ts.kubectlOk(['get', 'deployment', 'web', '-n', NS, '-o', 'json', '--show-managed-fields']));

  before(async () => {
    // These tests pin every managedFields entry of the Deployments they apply; the Deployment controller's status
    // writes would add its own entry (kube-controller-manager's, as on a cluster), which is not what they test.
    ts = await startTestServer({ controllers: WITHOUT_WORKLOAD_CONTROLLERS });
    await ts.kubectlOk(['create', 'namespace', NS]);
  });
  after(async () => {
    await ts.stop();
  });

  it('applies, conflicts with a second manager, forces, and removes what the manager stopped applying', async () => {
    const env = [
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ];
    const first = await kubectl(['apply', '--server-side', '-f', '-'], deployment({ replicas: 2, image: 'nginx:1', env }));
    assert.equal(first.stdout, 'deployment.apps/web serverside-applied\n', first.stderr);
    const created = await getDeployment();
    assert.deepEqual(
      created.metadata.managedFields.map((e: any) => [e.manager, e.operation]),
      [['kubectl', 'Apply']],
    );
    assert.deepEqual(created.spec.template.spec.containers[0].env, env);

    const conflicted = await kubectl(
      ['apply', '--server-side', '--field-manager=other', '-f', '-'],
      deployment({ replicas: 3, image: 'nginx:1' }),
    );
    assert.equal(conflicted.code, 1);
    assert.match(conflicted.stderr, /^error: Apply failed with 1 conflict: conflict with "kubectl": \.spec\.replicas\n/);

    const forced = await kubectl(
      ['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'],
      deployment({ replicas: 3, image: 'nginx:1' }),
    );
    assert.equal(forced.code, 0, forced.stderr);
    const taken = await getDeployment();
    assert.equal(taken.spec.replicas, 3);
    const kubectlEntry = taken.metadata.managedFields.find((e: any) => e.manager === 'kubectl');
    assert.equal(kubectlEntry.fieldsV1['f:spec']['f:replicas'], undefined, 'replicas moved to "other"');

    // kubectl drops env B (and replicas, owned by "other" now): B goes, replicas stays 3 (R10.93, R10.95).
    const dropped = await kubectl(
      ['apply', '--server-side', '-f', '-'],
      deployment({ image: 'nginx:1', env: [{ name: 'A', value: '1' }] }),
    );
    assert.equal(dropped.code, 0, dropped.stderr);
    const pruned = await getDeployment();
    assert.deepEqual(pruned.spec.template.spec.containers[0].env, [{ name: 'A', value: '1' }]);
    assert.equal(pruned.spec.replicas, 3);
  });

  it('--dry-run=server and diff --server-side change nothing (R10.116, R10.117)', async () => {
    const before = await getDeployment();
    const dry = await kubectl(
      ['apply', '--server-side', '--dry-run=server', '-f', '-'],
      deployment({ image: 'nginx:1', env: [{ name: 'A', value: '9' }] }),
    );
    assert.equal(dry.stdout, 'deployment.apps/web serverside-applied (server dry run)\n', dry.stderr);
    const same = await kubectl(['diff', '--server-side', '-f', '-'], deployment({ image: 'nginx:1', env: [{ name: 'A', value: '1' }] }));
    assert.equal(same.code, 0, same.stderr);
    const changed = await kubectl(['diff', '--server-side', '-f', '-'], deployment({ image: 'nginx:1', env: [{ name: 'A', value: '9' }] }));
    assert.equal(changed.code, 1, changed.stderr);
    assert.match(changed.stdout, /-\s+value: "1"\n\+\s+value: "9"/);
    assert.doesNotMatch(changed.stdout, /managedFields/);
    const afterwards = await getDeployment();
    assert.equal(afterwards.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  it('SSA-15: kubectl migrates a client-side-applied object to server-side apply without conflicts (R10.110, R10.111, R10.113)', async () => {
    const manifest = (image: string, env: { name: string; value: string }[]): string =>
      deployment({ image, env }).replace('"name":"web"', '"name":"csa"');
    const env = [
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ];
    const csa = await kubectl(['apply', '-f', '-'], manifest('nginx:1', env));
    assert.equal(csa.stdout, 'deployment.apps/csa created\n', csa.stderr);
    const ssa = await kubectl(['apply', '--server-side', '-f', '-'], manifest('nginx:2', env));
    assert.equal(ssa.code, 0, ssa.stderr);
    const again = await kubectl(['apply', '--server-side', '-f', '-'], manifest('nginx:2', [{ name: 'A', value: '1' }]));
    assert.equal(again.code, 0, again.stderr);
    const obj = JSON.parse(await ts.kubectlOk(['get', 'deployment', 'csa', '-n', NS, '-o', 'json', '--show-managed-fields']));
    assert.deepEqual(
      obj.metadata.managedFields.map((e: any) => [e.manager, e.operation]),
      [
        ['kubectl-last-applied', 'Apply'],
        ['kubectl', 'Apply'],
      ],
    );
    assert.deepEqual(obj.spec.template.spec.containers[0].env, [{ name: 'A', value: '1' }]);
    const lastApplied = JSON.parse(obj.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
    assert.deepEqual(lastApplied.spec.template.spec.containers[0], { env: [{ name: 'A', value: '1' }], image: 'nginx:2', name: 'main' });
  });

  it('client-node applies with the apply patch strategy', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(ts.kubeconfigPath);
    const api = KubernetesObjectApi.makeApiClient(kc);
    const spec = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-node', namespace: NS }, data: { a: '1' } };
    const created = (await api.patch(spec, undefined, undefined, 'node-app', false, PatchStrategy.ServerSideApply)) as {
      metadata?: { managedFields?: { manager?: string; operation?: string }[] };
    };
    assert.deepEqual(
      created.metadata?.managedFields?.map((e) => [e.manager, e.operation]),
      [['node-app', 'Apply']],
    );
    const updated = await api.patch({ ...spec, data: { b: '2' } }, undefined, undefined, 'node-app', false, PatchStrategy.ServerSideApply);
    assert.deepEqual((updated as { data?: unknown }).data, { b: '2' });
    await assert.rejects(
      api.patch({ ...spec, data: { b: '3' } }, undefined, undefined, 'other-app', false, PatchStrategy.ServerSideApply),
      (err: { code?: number; body?: string }) => err.code === 409 && /conflict with \\?"node-app\\?": \.data\.b/.test(String(err.body)),
    );
  });
});
