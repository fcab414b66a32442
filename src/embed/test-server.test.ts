import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { StatusError } from '../api/errors.js';
import { createHttpClient } from '../client/http-client.js';
import type { ResourceRef } from '../client/interface.js';
import { startTestServer } from './test-server.js';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps' };

function crdYaml(group: string, kind: string, plural: string, scope: 'Namespaced' | 'Cluster' = 'Namespaced'): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.${group}
spec:
  group: ${group}
  scope: ${scope}
  names: { plural: ${plural}, singular: ${kind.toLowerCase()}, kind: ${kind} }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true }
    - name: v2
      served: true
      storage: false
      schema:
        openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true }
`;
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

describe('startTestServer', () => {
  let fixtures: string;

  before(async () => {
    fixtures = await mkdtemp(join(tmpdir(), 'cascade-embed-fixtures-'));
    const bases = join(fixtures, 'crd', 'bases');
    await mkdir(bases, { recursive: true });
    // A kubebuilder-style directory: CRDs next to files that are not CRDs, one file holding two documents.
    await writeFile(
      join(bases, 'gadgets.yaml'),
      `---\n${crdYaml('example.com', 'Gadget', 'gadgets')}---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: ignored }\n`,
    );
    await writeFile(
      join(bases, 'clusterthings.json'),
      JSON.stringify(parse(crdYaml('things.example.org', 'ClusterThing', 'clusterthings', 'Cluster'))),
    );
    await writeFile(join(bases, 'kustomization.yaml'), 'resources: [gadgets.yaml]\n');
    await writeFile(join(bases, 'README.md'), 'not a manifest');
    await writeFile(join(fixtures, 'widgets.yml'), crdYaml('example.com', 'Widget', 'widgets'));
    await writeFile(join(fixtures, 'not-a-crd.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n');
    await writeFile(
      join(fixtures, 'v1beta1.yaml'),
      crdYaml('example.com', 'Old', 'olds').replace('apiextensions.k8s.io/v1', 'apiextensions.k8s.io/v1beta1'),
    );
    await writeFile(join(fixtures, 'broken.yaml'), 'kind: [unterminated\n');
    await mkdir(join(fixtures, 'empty-dir'));
  });
  after(() => rm(fixtures, { recursive: true, force: true }));

  test('serves at once: url, kubeconfig (also on disk), in-process and HTTP clients; stop() cleans up', async () => {
    const server = await startTestServer();
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const kubeconfig = parse(server.kubeconfig) as { clusters: { cluster: { server: string } }[]; 'current-context': string };
    assert.equal(kubeconfig.clusters[0]?.cluster.server, server.url);
    assert.equal(kubeconfig['current-context'], 'cascade');
    assert.equal(await readFile(server.kubeconfigPath, 'utf8'), server.kubeconfig);

    const created = await server.client.create(CONFIGMAPS, 'default', { metadata: { name: 'shared' }, data: { k: 'v' } });
    const http = server.httpClient();
    assert.equal(server.httpClient(), http, 'one HTTP client per server');
    const overHttp = await http.get(CONFIGMAPS, 'default', 'shared');
    assert.equal(overHttp.metadata.uid, created.metadata.uid);
    const health = await fetch(`${server.url}/readyz`);
    assert.equal(health.status, 200);

    await server.stop();
    await server.stop();
    assert.equal(await exists(dirname(server.kubeconfigPath)), false, 'the temporary directory is removed');
    await assert.rejects(fetch(`${server.url}/readyz`));
    assert.throws(() => server.httpClient(), /has been stopped/);
  });

  test('installs CRDs from files and directories (YAML documents and JSON), every served version ready on return', async () => {
    const server = await startTestServer({ crdPaths: [join(fixtures, 'crd', 'bases'), join(fixtures, 'widgets.yml')] });
    try {
      for (const version of ['v1', 'v2']) {
        const gadgets: ResourceRef = { group: 'example.com', version, resource: 'gadgets' };
        const made = await server.client.create(gadgets, 'default', {
          apiVersion: `example.com/${version}`,
          kind: 'Gadget',
          metadata: { name: `g-${version}` },
        });
        assert.equal(made.metadata.namespace, 'default');
      }
      await server.client.create({ group: 'things.example.org', version: 'v1', resource: 'clusterthings' }, undefined, {
        apiVersion: 'things.example.org/v1',
        kind: 'ClusterThing',
        metadata: { name: 't' },
      });
      await server.client.create({ group: 'example.com', version: 'v1', resource: 'widgets' }, 'default', {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w' },
      });
      const discovered = await server.httpClient().discover();
      const plurals = discovered.filter((r) => r.group.includes('example')).map((r) => `${r.plural}.${r.group}/${r.version}`);
      assert.deepEqual(plurals.sort(), [
        'clusterthings.things.example.org/v1',
        'clusterthings.things.example.org/v2',
        'gadgets.example.com/v1',
        'gadgets.example.com/v2',
        'widgets.example.com/v1',
        'widgets.example.com/v2',
      ]);
      const notInstalled = await server.client.list({ group: '', version: 'v1', resource: 'configmaps' }, 'default');
      assert.ok(!notInstalled.items.some((cm) => cm.metadata.name === 'ignored'), 'non-CRD documents are skipped, not applied');
    } finally {
      await server.stop();
    }
  });

  test('CRD paths that hold no CRD, cannot be read or parsed, or use v1beta1 fail start-up with the path named', async () => {
    const cases: [string, RegExp][] = [
      [join(fixtures, 'not-a-crd.yaml'), /not-a-crd\.yaml: no CustomResourceDefinition in this file$/],
      [join(fixtures, 'empty-dir'), /empty-dir: no CustomResourceDefinition in any \.yaml, \.yml or \.json file of this directory$/],
      [join(fixtures, 'missing.yaml'), /cannot read CRD path .*missing\.yaml: .*ENOENT/],
      [join(fixtures, 'broken.yaml'), /broken\.yaml: invalid YAML in document 1/],
      [
        join(fixtures, 'v1beta1.yaml'),
        /v1beta1\.yaml: apiextensions\.k8s\.io\/v1beta1 CustomResourceDefinition is not served by Kubernetes v1\.32/,
      ],
    ];
    for (const [path, message] of cases) await assert.rejects(startTestServer({ crdPaths: [path] }), message, path);
  });

  test('a CRD the API server rejects fails start-up with the file named, and leaves nothing running', async () => {
    const invalid = join(fixtures, 'invalid-crd.yaml');
    await writeFile(invalid, crdYaml('example.com', 'Bad', 'bads').replace('name: bads.example.com', 'name: wrong-name'));
    await assert.rejects(startTestServer({ crdPaths: [invalid] }), (err: unknown) => {
      assert.ok(err instanceof Error);
      assert.match(
        err.message,
        /^installing CustomResourceDefinition wrong-name from .*invalid-crd\.yaml: CustomResourceDefinition\.apiextensions\.k8s\.io "wrong-name" is invalid/,
      );
      assert.ok(err.cause instanceof StatusError && err.cause.code === 422);
      return true;
    });
  });

  test('controllers can be turned off', async () => {
    const server = await startTestServer({ controllers: { garbageCollector: false, namespaceController: false } });
    try {
      const owner = await server.client.create(CONFIGMAPS, 'default', { metadata: { name: 'owner' } });
      await server.client.create(CONFIGMAPS, 'default', {
        metadata: {
          name: 'dependent',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid ?? '' }],
        },
      });
      await server.client.delete(CONFIGMAPS, 'default', 'owner');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const dependent = await server.client.get(CONFIGMAPS, 'default', 'dependent');
      assert.equal(dependent.metadata.name, 'dependent', 'without the garbage collector nothing collects the dependent');
    } finally {
      await server.stop();
    }
  });

  test('storage is memory, sqlite or etcd, and etcd endpoints go with etcd only', async () => {
    await assert.rejects(startTestServer({ storage: 'redis' as 'memory' }), /storage must be one of memory, sqlite, etcd, got redis/);
    await assert.rejects(startTestServer({ storage: 'etcd' }), /etcd endpoints go with storage 'etcd', and only with it/);
    await assert.rejects(startTestServer({ etcd: { endpoints: ['http://127.0.0.1:2379'] } }), /etcd endpoints go with storage 'etcd'/);
  });

  test('sqlite storage keeps the objects in a database in the temporary directory', async () => {
    const server = await startTestServer({ storage: 'sqlite' });
    const database = join(dirname(server.kubeconfigPath), 'cascade.db');
    try {
      await server.client.create(CONFIGMAPS, 'default', { metadata: { name: 'kept' }, data: { k: 'v' } });
      const overHttp = await server.httpClient().get(CONFIGMAPS, 'default', 'kept');
      assert.deepEqual(overHttp.data, { k: 'v' });
      assert.equal(await exists(database), true);
    } finally {
      await server.stop();
    }
    assert.equal(await exists(database), false, 'the database goes with the temporary directory');
  });

  test('a secure server: HTTPS with a generated CA, the admin token in kubeconfig and HTTP client, other tokens as users', async () => {
    const server = await startTestServer({ secure: { tokens: { 'alice-token': { name: 'alice', groups: [] } } } });
    try {
      assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(server.caCert?.startsWith('-----BEGIN CERTIFICATE-----'));
      const kubeconfig = parse(server.kubeconfig) as {
        clusters: { cluster: { 'certificate-authority-data': string } }[];
        users: { user: { token: string } }[];
      };
      assert.equal(Buffer.from(kubeconfig.clusters[0]?.cluster['certificate-authority-data'] ?? '', 'base64').toString(), server.caCert);
      assert.equal(kubeconfig.users[0]?.user.token, server.adminToken);
      await server.httpClient().create(CONFIGMAPS, 'default', { metadata: { name: 'admin-made' } });

      const refusal = (token: string | undefined) =>
        createHttpClient({ server: server.url, ca: server.caCert, token })
          .get(CONFIGMAPS, 'default', 'admin-made')
          .then(
            () => 200,
            (err: unknown) => (err instanceof StatusError ? err.code : err),
          );
      assert.equal(await refusal(undefined), 401, 'no credentials, no anonymous access');
      assert.equal(await refusal('alice-token'), 403, 'alice is authenticated, and RBAC grants her nothing');
    } finally {
      await server.stop();
    }
  });

  test('ten servers started concurrently are independent', async () => {
    const servers = await Promise.all(Array.from({ length: 10 }, () => startTestServer()));
    try {
      assert.equal(new Set(servers.map((s) => s.url)).size, 10);
      assert.equal(new Set(servers.map((s) => s.kubeconfigPath)).size, 10);
      await Promise.all(
        servers.map((s, i) => s.httpClient().create(CONFIGMAPS, 'default', { metadata: { name: 'mine' }, data: { index: String(i) } })),
      );
      for (const [i, s] of servers.entries()) {
        const list = await s.httpClient().list(CONFIGMAPS, 'default');
        assert.deepEqual(
          list.items.map((cm) => cm.data),
          [{ index: String(i) }],
        );
      }
      await servers[0]?.stop();
      const survivor = await servers[1]?.client.get(CONFIGMAPS, 'default', 'mine');
      assert.deepEqual(survivor?.data, { index: '1' }, 'stopping one server leaves the others serving');
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  });
});
