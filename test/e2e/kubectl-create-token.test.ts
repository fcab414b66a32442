import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'tokens';
const API_AUDIENCE = 'https://kubernetes.default.svc.cluster.local';

const claimsOf = (token: string): Record<string, any> =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, any>;

/** kubectl create token (TokenRequest, serviceaccounts/token) and what the server then makes of the token (issue 31). */
describe('kubectl create token', () => {
  let ts: TestServer;
  const k = (...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', NS]);
  const review = async (token: string, audiences?: string[]): Promise<any> =>
    (
      await ts.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        spec: { token, ...(audiences === undefined ? {} : { audiences }) },
      })
    ).json.status;

  before(async () => {
    ts = await startTestServer({ secure: {} });
    await ts.kubectlOk(['create', 'namespace', NS]);
    await k('create', 'serviceaccount', 'robot');
    // The robot may read configmaps in its namespace, nothing else.
    await k('create', 'role', 'cm-reader', '--verb=get,list', '--resource=configmaps');
    await k('create', 'rolebinding', 'robot-reads', '--role=cm-reader', `--serviceaccount=${NS}:robot`);
    await k('create', 'configmap', 'visible', '--from-literal=a=1');
  });
  after(async () => {
    await ts.stop();
  });

  it('issues a signed JWT with the claims kube-apiserver writes, usable with kubectl --token under RBAC', async () => {
    const token = (await k('create', 'token', 'robot')).trim();
    const [header] = token.split('.');
    const { alg, kid } = JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8')) as { alg: string; kid: string };
    assert.equal(alg, 'ES256');
    assert.match(kid, /^[A-Za-z0-9_-]{43}$/);
    const claims = claimsOf(token);
    const sa = JSON.parse(await k('get', 'serviceaccount', 'robot', '-o', 'json')) as { metadata: { uid: string } };
    assert.deepEqual(Object.keys(claims), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
    assert.deepEqual(claims.aud, [API_AUDIENCE]);
    assert.equal(claims.iss, API_AUDIENCE);
    assert.equal(claims.sub, `system:serviceaccount:${NS}:robot`);
    assert.equal(claims.exp - claims.iat, 3600, 'the default expirationSeconds');
    assert.equal(claims.nbf, claims.iat);
    assert.deepEqual(claims['kubernetes.io'], { namespace: NS, serviceaccount: { name: 'robot', uid: sa.metadata.uid } });

    const as = (...args: string[]) => ts.kubectl([...args, '-n', NS, `--token=${token}`]);
    const whoami = await as('auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}');
    assert.equal(
      whoami.stdout,
      `system:serviceaccount:${NS}:robot ["system:serviceaccounts","system:serviceaccounts:${NS}","system:authenticated"]`,
    );
    assert.equal((await as('get', 'configmap', 'visible', '-o', 'jsonpath={.data.a}')).stdout, '1');
    const denied = await as('get', 'secrets');
    assert.match(denied.stderr, /secrets is forbidden: User "system:serviceaccount:tokens:robot" cannot list resource "secrets"/);
  });

  it('TokenReview accepts it for its audiences only, with the credential id', async () => {
    const token = (await k('create', 'token', 'robot', '--audience=vault', '--audience', API_AUDIENCE, '--duration=20m')).trim();
    const claims = claimsOf(token);
    assert.equal(claims.exp - claims.iat, 1200);
    const sa = JSON.parse(await k('get', 'serviceaccount', 'robot', '-o', 'json')) as { metadata: { uid: string } };
    assert.deepEqual(await review(token), {
      authenticated: true,
      user: {
        username: `system:serviceaccount:${NS}:robot`,
        uid: sa.metadata.uid,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated'],
        extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${claims.jti}`] },
      },
      audiences: [API_AUDIENCE],
    });
    assert.deepEqual((await review(token, ['vault'])).audiences, ['vault']);
    const other = await review(token, ['elsewhere']);
    assert.equal(other.authenticated, undefined);
    assert.equal(other.error, `token audiences ["vault" "${API_AUDIENCE}"] is invalid for the target audiences ["elsewhere"]`);
    // A token only for another audience is no credential for this API server.
    const vaultOnly = (await k('create', 'token', 'robot', '--audience=vault')).trim();
    assert.match((await ts.kubectl(['get', 'configmaps', '-n', NS, `--token=${vaultOnly}`])).stderr, /Unauthorized/);
  });

  it('a pod-bound token names the pod and stops working once the pod is deleted', async () => {
    await k('run', 'worker', '--image=busybox', '--overrides={"spec":{"serviceAccountName":"robot"}}');
    const pod = JSON.parse(await k('get', 'pod', 'worker', '-o', 'json')) as { metadata: { uid: string } };
    const token = (await k('create', 'token', 'robot', '--bound-object-kind=Pod', '--bound-object-name=worker')).trim();
    assert.deepEqual(claimsOf(token)['kubernetes.io'].pod, { name: 'worker', uid: pod.metadata.uid });
    const status = await review(token);
    assert.equal(status.authenticated, true);
    assert.deepEqual(status.user.extra['authentication.kubernetes.io/pod-name'], ['worker']);
    assert.deepEqual(status.user.extra['authentication.kubernetes.io/pod-uid'], [pod.metadata.uid]);
    assert.equal((await ts.kubectl(['get', 'configmap', 'visible', '-n', NS, `--token=${token}`])).code, 0);

    await k('delete', 'pod', 'worker', '--grace-period=0', '--force');
    assert.deepEqual(await review(token), { user: {}, error: 'service account token has been invalidated' });
    assert.match((await ts.kubectl(['get', 'configmap', 'visible', '-n', NS, `--token=${token}`])).stderr, /Unauthorized/);
  });

  it('a secret-bound token dies with a recreated secret; a deleted service account takes its tokens along', async () => {
    await k('create', 'serviceaccount', 'short-lived');
    await k('create', 'secret', 'generic', 'anchor', '--from-literal=x=y');
    const token = (await k('create', 'token', 'short-lived', '--bound-object-kind=Secret', '--bound-object-name=anchor')).trim();
    const unbound = (await k('create', 'token', 'short-lived')).trim();
    assert.equal((await review(token)).authenticated, true);
    await k('delete', 'secret', 'anchor');
    await k('create', 'secret', 'generic', 'anchor', '--from-literal=x=y');
    assert.match((await review(token)).error, /^secret UID \([0-9a-f-]+\) does not match service account secret ref claim \([0-9a-f-]+\)$/);
    assert.equal((await review(unbound)).authenticated, true);
    await k('delete', 'serviceaccount', 'short-lived');
    assert.deepEqual(await review(unbound), { user: {}, error: 'serviceaccounts "short-lived" not found' });
  });

  it('refuses what Kubernetes refuses: short durations, unknown accounts, foreign kinds, another account’s pod', async () => {
    const short = await ts.kubectl(['create', 'token', 'robot', '-n', NS, '--duration=5m']);
    assert.match(
      short.stderr,
      /TokenRequest\.authentication\.k8s\.io "" is invalid: spec\.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes/,
    );
    const missing = await ts.kubectl(['create', 'token', 'nobody', '-n', NS]);
    assert.match(missing.stderr, /serviceaccounts "nobody" not found/);
    const post = (body: unknown) => ts.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts/robot/token`, body);
    const foreign = await post({ spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'visible' } } });
    assert.equal(foreign.status, 400);
    assert.equal(foreign.json.message, 'cannot bind token to object of type /v1, Kind=ConfigMap');
    await k('run', 'other', '--image=busybox');
    const otherPod = await post({ spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'other' } } });
    assert.equal(otherPod.json.message, 'cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.');
    const wrongUid = await post({ spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'nope', uid: 'x' } } });
    assert.equal(wrongUid.status, 404);
    const created = await post({ spec: { expirationSeconds: 7200 } });
    assert.equal(created.status, 201);
    assert.equal(created.json.kind, 'TokenRequest');
    assert.deepEqual(created.json.spec, { audiences: [API_AUDIENCE], expirationSeconds: 7200 });
    assert.equal(Date.parse(created.json.status.expirationTimestamp) - Date.parse(created.json.metadata.creationTimestamp), 7_200_000);
  });

  it('discovery lists serviceaccounts/token as a TokenRequest create', async () => {
    const list = (await ts.request('GET', '/api/v1')).json as {
      resources: { name: string; kind: string; group?: string; version?: string; verbs: string[] }[];
    };
    const token = list.resources.find((r) => r.name === 'serviceaccounts/token');
    assert.deepEqual(token, {
      name: 'serviceaccounts/token',
      singularName: '',
      namespaced: true,
      group: 'authentication.k8s.io',
      version: 'v1',
      kind: 'TokenRequest',
      verbs: ['create'],
    });
  });
});
