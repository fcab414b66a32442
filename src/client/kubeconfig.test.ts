import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { kubeconfigFor } from '../cli/kubeconfig.js';
import { startTestServer } from '../embed/test-server.js';
import { createHttpClient } from './http-client.js';
import { loadKubeconfig } from './kubeconfig.js';

const MAIN = `apiVersion: v1
kind: Config
current-context: dev
clusters:
  - name: dev-cluster
    cluster:
      server: https://dev.example.com:6443
      certificate-authority: certs/ca.pem
  - name: prod-cluster
    cluster:
      server: https://prod.example.com
      certificate-authority-data: ${Buffer.from('PROD CA').toString('base64')}
      insecure-skip-tls-verify: yes
users:
  - name: dev-user
    user:
      client-certificate: certs/client.pem
      client-key: /abs/ignored-because-data-wins.pem
      client-key-data: ${Buffer.from('KEY DATA').toString('base64')}
  - name: token-user
    user:
      tokenFile: token.txt
  - name: basic-user
    user: { username: alice, password: s3cret }
  - name: exec-user
    user:
      exec: { apiVersion: client.authentication.k8s.io/v1, command: aws }
contexts:
  - name: dev
    context: { cluster: dev-cluster, user: dev-user, namespace: team-a }
  - name: prod
    context: { cluster: prod-cluster, user: token-user }
  - name: basic
    context: { cluster: prod-cluster, user: basic-user }
  - name: exec
    context: { cluster: prod-cluster, user: exec-user }
  - name: dangling
    context: { cluster: nowhere, user: dev-user }
`;

describe('loadKubeconfig', () => {
  let dir: string;
  let mainPath: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cascade-kubeconfig-'));
    await mkdir(join(dir, 'certs'));
    await writeFile(join(dir, 'certs', 'ca.pem'), 'DEV CA');
    await writeFile(join(dir, 'certs', 'client.pem'), 'DEV CERT');
    await writeFile(join(dir, 'token.txt'), 'file-token\n');
    mainPath = join(dir, 'config');
    await writeFile(mainPath, MAIN);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('the current context: server, CA and client certificate read from paths relative to the file, inline data winning, namespace', async () => {
    const selected = await loadKubeconfig({ path: mainPath });
    assert.equal(selected.contextName, 'dev');
    assert.equal(selected.clusterName, 'dev-cluster');
    assert.equal(selected.userName, 'dev-user');
    assert.equal(selected.namespace, 'team-a');
    assert.deepEqual(selected.files, [mainPath]);
    assert.equal(selected.connection.server, 'https://dev.example.com:6443');
    assert.equal(selected.connection.ca?.toString(), 'DEV CA');
    assert.equal(selected.connection.clientCert?.toString(), 'DEV CERT');
    assert.equal(selected.connection.clientKey?.toString(), 'KEY DATA');
    assert.equal(selected.connection.insecureSkipTLSVerify, undefined);
  });

  test('a context override; YAML 1.1 "yes" is true; a token file is read and trimmed; no namespace means default', async () => {
    const selected = await loadKubeconfig({ path: mainPath, context: 'prod' });
    assert.equal(selected.namespace, 'default');
    assert.equal(selected.connection.ca?.toString(), 'PROD CA');
    assert.equal(selected.connection.insecureSkipTLSVerify, true);
    assert.equal(selected.connection.token, 'file-token');
  });

  test('basic authentication', async () => {
    const { connection } = await loadKubeconfig({ path: mainPath, context: 'basic' });
    assert.equal(connection.username, 'alice');
    assert.equal(connection.password, 's3cret');
  });

  test('clear errors: unknown context, dangling cluster, exec plugins, missing or unreadable files, bad YAML', async () => {
    await assert.rejects(loadKubeconfig({ path: mainPath, context: 'x' }), { message: 'no context "x" in kubeconfig' });
    await assert.rejects(loadKubeconfig({ path: mainPath, context: 'dangling' }), {
      message: 'no cluster "nowhere" in kubeconfig (used by context "dangling")',
    });
    await assert.rejects(loadKubeconfig({ path: mainPath, context: 'exec' }), /exec or auth-provider plugin/);
    const missing = join(dir, 'missing');
    await assert.rejects(loadKubeconfig({ path: missing }), new RegExp(`^Error: cannot read kubeconfig ${missing}: .*ENOENT`));
    const bad = join(dir, 'bad');
    await writeFile(bad, 'clusters: [unterminated\n');
    await assert.rejects(loadKubeconfig({ path: bad }), new RegExp(`^Error: cannot parse kubeconfig ${bad}: `));
    const noCurrent = join(dir, 'no-current');
    await writeFile(noCurrent, 'apiVersion: v1\nkind: Config\n');
    await assert.rejects(loadKubeconfig({ path: noCurrent }), /current-context is not set/);
    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked');
      await writeFile(locked, MAIN);
      await chmod(locked, 0o000);
      await assert.rejects(loadKubeconfig({ path: locked }), /cannot read kubeconfig .*EACCES/);
    }
  });

  test('$KUBECONFIG merges its files, the first to define a name or current-context winning, skipping missing ones', async () => {
    const override = join(dir, 'override');
    await writeFile(
      override,
      'current-context: prod\nclusters:\n  - name: prod-cluster\n    cluster: { server: "https://override.example.com" }\n',
    );
    const env = { KUBECONFIG: [join(dir, 'does-not-exist'), override, mainPath].join(delimiter) };
    const selected = await loadKubeconfig({ env });
    assert.equal(selected.contextName, 'prod');
    assert.equal(selected.connection.server, 'https://override.example.com');
    assert.equal(selected.connection.token, 'file-token', 'users come from the later file');
    assert.deepEqual(selected.files, [override, mainPath]);
    await assert.rejects(loadKubeconfig({ env: { KUBECONFIG: join(dir, 'nope') } }), /none of the files in \$KUBECONFIG exist/);
  });

  test('without a path or $KUBECONFIG, ~/.kube/config is read', async () => {
    const home = join(dir, 'home');
    await mkdir(join(home, '.kube'), { recursive: true });
    await assert.rejects(loadKubeconfig({ env: {}, homeDir: home }), /\.kube\/config does not exist and \$KUBECONFIG is not set/);
    await writeFile(join(home, '.kube', 'config'), kubeconfigFor('http://127.0.0.1:1'));
    const selected = await loadKubeconfig({ env: {}, homeDir: home });
    assert.equal(selected.contextName, 'cascade');
    assert.equal(selected.connection.server, 'http://127.0.0.1:1');
  });
});

test('the kubeconfig Cascade writes loads and drives the HTTP client', async () => {
  const server = await startTestServer();
  const { connection, namespace } = await loadKubeconfig({ path: server.kubeconfigPath });
  const client = createHttpClient(connection);
  try {
    const namespaces = await client.list({ group: '', version: 'v1', resource: 'namespaces' }, undefined);
    assert.ok(namespaces.items.some((ns) => ns.metadata.name === namespace));
  } finally {
    client.close();
    await server.stop();
  }
});
