import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { createCertificateAuthority, issueClientCertificate } from '../../src/pki/issue.js';
import {
  bindClusterRole,
  bindRole,
  createClusterRole,
  createNamespace,
  kubectlAs,
  requestAs,
  waitForAccess,
  writeUserKubeconfig,
} from '../support/security-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 6 acceptance: kubectl over TLS with the generated kubeconfig, 401 without credentials, --as denied until a
// RoleBinding grants it, impersonation itself authorized.

const DAVE_TOKEN = 'dave-token-0123456789';
const UNAUTHORIZED_STATUS = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};
/** kubectl's wording of a 401 (the parenthesis holds the server's or client-go's message). */
const NOT_LOGGED_IN =
  /^error: You must be logged in to the server \((Unauthorized|the server has asked for the client to provide credentials)\)$/m;

describe('kubectl against a secure server (issue 6)', () => {
  let ts: TestServer;

  before(async () => {
    ts = await startTestServer({ secure: { tokens: { [DAVE_TOKEN]: { name: 'dave', groups: [] } } } });
    await createNamespace(ts, 'team-a');
    await createNamespace(ts, 'team-b');
  });
  after(async () => {
    await ts.stop();
  });

  it('the generated kubeconfig verifies the server against the embedded CA and authenticates as cascade-admin', async () => {
    const config = parse(await readFile(ts.kubeconfigPath, 'utf8'));
    const cluster = config.clusters[0].cluster;
    assert.equal(cluster['insecure-skip-tls-verify'], undefined);
    assert.equal(Buffer.from(cluster['certificate-authority-data'], 'base64').toString(), ts.pki?.caCert);
    assert.match(cluster.server, /^https:\/\/127\.0\.0\.1:\d+$/);

    assert.equal(await ts.kubectlOk(['create', 'configmap', 'hello', '-n', 'team-a', '--from-literal=k=v']), 'configmap/hello created\n');
    assert.equal(await ts.kubectlOk(['get', 'configmap', 'hello', '-n', 'team-a', '-o', 'jsonpath={.data.k}']), 'v');
    const whoami = JSON.parse(await ts.kubectlOk(['auth', 'whoami', '-o', 'json']));
    assert.deepEqual(whoami.status.userInfo, { username: 'cascade-admin', groups: ['system:masters', 'system:authenticated'] });
  });

  it('a kubeconfig trusting another CA is refused by kubectl (the serving certificate is really verified)', async () => {
    const otherCa = createCertificateAuthority('someone-else');
    const path = await writeUserKubeconfig(ts, 'other-ca.kubeconfig', { token: ts.adminToken ?? '' }, otherCa.cert);
    const r = await kubectlAs(ts, path, ['get', 'configmaps', '-n', 'team-a']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /x509: certificate signed by unknown authority/);
  });

  it('without credentials kubectl gets 401; health and version answer anonymously; everything else is the exact 401 Status', async () => {
    // Over TLS kubectl prompts for a password when its kubeconfig has no credential at all (and fails without a
    // terminal); a username and password is the nearest: kube-apiserver has no basic-auth authenticator, so the
    // request carries no credential it recognises.
    const anonymous = await writeUserKubeconfig(ts, 'anonymous.kubeconfig', { username: 'nobody', password: 'secret' });
    const r = await kubectlAs(ts, anonymous, ['get', 'pods']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, NOT_LOGGED_IN);
    assert.equal(r.stdout, '');
    const prompted = await kubectlAs(ts, await writeUserKubeconfig(ts, 'empty.kubeconfig', {}), ['get', 'pods']);
    assert.equal(prompted.stdout, 'Please enter Username: ');

    for (const path of ['/healthz', '/livez', '/readyz']) {
      const res = await ts.request('GET', path, undefined, { Authorization: '' });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      assert.equal(res.text, 'ok');
    }
    const version = await ts.request('GET', '/version', undefined, { Authorization: '' });
    assert.equal(version.status, 200);
    assert.match(version.json.gitVersion, /^v1\.32\./);

    for (const path of [
      '/',
      '/api',
      '/api/v1',
      '/apis',
      '/api/v1/namespaces/default/configmaps',
      '/openapi/v2',
      '/metrics',
      '/no/such/path',
    ]) {
      const res = await ts.request('GET', path, undefined, { Authorization: '' });
      assert.equal(res.status, 401, path);
      assert.equal(res.headers.get('content-type'), 'application/json', path);
      assert.deepEqual(res.json, UNAUTHORIZED_STATUS, path);
    }
    const post = await ts.request('POST', '/api/v1/namespaces/team-a/configmaps', { metadata: { name: 'anon' } }, { Authorization: '' });
    assert.equal(post.status, 401);
    assert.deepEqual(post.json, UNAUTHORIZED_STATUS);
    assert.equal((await ts.request('GET', '/api/v1/namespaces/team-a/configmaps/anon')).status, 404);
  });

  it('a wrong token is 401 everywhere, even on /healthz (a bad credential is never taken for none)', async () => {
    for (const path of ['/healthz', '/version', '/api/v1/namespaces']) {
      const res = await requestAs(ts, 'not-a-token', 'GET', path);
      assert.equal(res.status, 401, path);
      assert.deepEqual(res.json, UNAUTHORIZED_STATUS, path);
    }
    const wrong = await writeUserKubeconfig(ts, 'wrong-token.kubeconfig', { token: 'not-a-token' });
    const r = await kubectlAs(ts, wrong, ['get', 'pods']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, NOT_LOGGED_IN);
  });

  it('a client certificate signed by the CA authenticates as its CN with its O as groups', async () => {
    assert.ok(ts.pki !== undefined);
    const carol = issueClientCertificate({ cert: ts.pki.caCert, key: ts.pki.caKey }, 'carol', ['dev']);
    const path = await writeUserKubeconfig(ts, 'carol.kubeconfig', carol);
    const r = await kubectlAs(ts, path, ['auth', 'whoami', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    // Since 1.31 the x509 authenticator also names the certificate it accepted.
    const fingerprint = new X509Certificate(carol.cert).fingerprint256.replaceAll(':', '').toLowerCase();
    assert.deepEqual(JSON.parse(r.stdout).status.userInfo, {
      username: 'carol',
      groups: ['dev', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': [`X509SHA256=${fingerprint}`] },
    });

    const denied = await kubectlAs(ts, path, ['get', 'configmaps', '-n', 'team-a']);
    assert.equal(denied.code, 1);
    assert.match(
      denied.stderr,
      /^Error from server \(Forbidden\): configmaps is forbidden: User "carol" cannot list resource "configmaps" in API group "" in the namespace "team-a"$/m,
    );
  });

  it('a client certificate from another CA is not accepted', async () => {
    const stranger = createCertificateAuthority('stranger-ca');
    const mallory = issueClientCertificate(stranger, 'mallory', ['system:masters']);
    const path = await writeUserKubeconfig(ts, 'mallory.kubeconfig', mallory);
    const r = await kubectlAs(ts, path, ['get', 'configmaps', '-n', 'team-a']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, NOT_LOGGED_IN);
  });

  it('kubectl --as=alice is denied with the exact 403 until a RoleBinding to view is made, then allowed in that namespace only', async () => {
    const denied = await ts.kubectl(['--as=alice', 'get', 'configmaps', '-n', 'team-a']);
    assert.equal(denied.code, 1);
    assert.equal(
      denied.stderr,
      'Error from server (Forbidden): configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "team-a"\n',
    );
    const deniedGet = await ts.kubectl(['--as=alice', 'get', 'configmap', 'hello', '-n', 'team-a']);
    assert.equal(
      deniedGet.stderr,
      'Error from server (Forbidden): configmaps "hello" is forbidden: User "alice" cannot get resource "configmaps" in API group "" in the namespace "team-a"\n',
    );

    await bindRole(ts, 'team-a', 'alice-view', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'User', name: 'alice' }]);
    await waitForAccess(ts, { user: 'alice', resourceAttributes: { namespace: 'team-a', verb: 'list', resource: 'configmaps' } });

    const allowed = await ts.kubectl(['--as=alice', 'get', 'configmaps', '-n', 'team-a', '-o', 'name']);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, /^configmap\/hello$/m);
    // view is read-only, and a RoleBinding reaches no further than its namespace.
    const write = await ts.kubectl(['--as=alice', 'create', 'configmap', 'x', '-n', 'team-a']);
    assert.equal(
      write.stderr,
      'error: failed to create configmap: configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "team-a"\n',
    );
    const elsewhere = await ts.kubectl(['--as=alice', 'get', 'configmaps', '-n', 'team-b']);
    assert.equal(
      elsewhere.stderr,
      'Error from server (Forbidden): configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "team-b"\n',
    );
  });

  it('a user without the impersonate verb cannot use --as or --as-group; granted, it can', async () => {
    const dave = await writeUserKubeconfig(ts, 'dave.kubeconfig', { token: DAVE_TOKEN });
    const own = await kubectlAs(ts, dave, ['auth', 'whoami', '-o', 'json']);
    assert.deepEqual(JSON.parse(own.stdout).status.userInfo, { username: 'dave', groups: ['system:authenticated'] });

    // kubectl auth whoami words every 403 as "API not enabled", so the refusal is shown on a get.
    const refused = await kubectlAs(ts, dave, ['--as=alice', 'get', 'configmaps', '-n', 'team-a']);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /^Error from server \(Forbidden\): users "alice" is forbidden: User "dave" cannot impersonate resource "users" in API group "" at the cluster scope$/m,
    );
    const res = await requestAs(ts, DAVE_TOKEN, 'GET', '/api/v1/namespaces/team-a/configmaps', undefined, {
      'Impersonate-User': 'alice',
    });
    assert.equal(res.status, 403);
    assert.deepEqual(res.json, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'users "alice" is forbidden: User "dave" cannot impersonate resource "users" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { name: 'alice', kind: 'users' },
      code: 403,
    });

    await createClusterRole(ts, 'impersonate-alice', [
      { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['alice'] },
    ]);
    await bindClusterRole(ts, 'dave-impersonates-alice', 'impersonate-alice', [{ kind: 'User', name: 'dave' }]);
    await waitForAccess(ts, { user: 'dave', resourceAttributes: { verb: 'impersonate', resource: 'users', name: 'alice' } });

    const asAlice = await kubectlAs(ts, dave, ['--as=alice', 'auth', 'whoami', '-o', 'json']);
    assert.equal(asAlice.code, 0, asAlice.stderr);
    assert.deepEqual(JSON.parse(asAlice.stdout).status.userInfo, { username: 'alice', groups: ['system:authenticated'] });
    // alice's own grants apply, not dave's.
    const aliceReads = await kubectlAs(ts, dave, ['--as=alice', 'get', 'configmap', 'hello', '-n', 'team-a', '-o', 'name']);
    assert.equal(aliceReads.stdout, 'configmap/hello\n', aliceReads.stderr);
    // The grant names alice only.
    const asBob = await kubectlAs(ts, dave, ['--as=bob', 'get', 'configmaps', '-n', 'team-a']);
    assert.match(
      asBob.stderr,
      /users "bob" is forbidden: User "dave" cannot impersonate resource "users" in API group "" at the cluster scope/,
    );

    const withGroup = await kubectlAs(ts, dave, ['--as=alice', '--as-group=auditors', 'get', 'configmaps', '-n', 'team-a']);
    assert.equal(withGroup.code, 1);
    assert.match(
      withGroup.stderr,
      /^Error from server \(Forbidden\): groups "auditors" is forbidden: User "dave" cannot impersonate resource "groups" in API group "" at the cluster scope$/m,
    );
    await createClusterRole(ts, 'impersonate-auditors', [
      { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'], resourceNames: ['auditors'] },
    ]);
    await bindClusterRole(ts, 'dave-impersonates-auditors', 'impersonate-auditors', [{ kind: 'User', name: 'dave' }]);
    await waitForAccess(ts, { user: 'dave', resourceAttributes: { verb: 'impersonate', resource: 'groups', name: 'auditors' } });
    const grouped = await kubectlAs(ts, dave, ['--as=alice', '--as-group=auditors', 'auth', 'whoami', '-o', 'json']);
    assert.equal(grouped.code, 0, grouped.stderr);
    assert.deepEqual(JSON.parse(grouped.stdout).status.userInfo, { username: 'alice', groups: ['auditors', 'system:authenticated'] });
  });

  it('--as-group grants what the group is bound to', async () => {
    await ts.kubectlOk(['create', 'configmap', 'audited', '-n', 'team-b']);
    await bindRole(ts, 'team-b', 'auditors-view', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'Group', name: 'auditors' }]);
    await waitForAccess(ts, {
      user: 'erin',
      groups: ['auditors'],
      resourceAttributes: { namespace: 'team-b', verb: 'list', resource: 'configmaps' },
    });
    const alone = await ts.kubectl(['--as=erin', 'get', 'configmaps', '-n', 'team-b']);
    assert.match(alone.stderr, /User "erin" cannot list resource "configmaps" in API group "" in the namespace "team-b"/);
    const grouped = await ts.kubectl(['--as=erin', '--as-group=auditors', 'get', 'configmaps', '-n', 'team-b', '-o', 'name']);
    assert.equal(grouped.code, 0, grouped.stderr);
    assert.match(grouped.stdout, /^configmap\/audited$/m);
  });
});
