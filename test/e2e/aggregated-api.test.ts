import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createCertificateAuthority, issueServingCertificate } from '../../src/pki/issue.js';
import { FRONT_PROXY_CLIENT_COMMON_NAME } from '../../src/pki/serving-pki.js';
import { type SampleApiServer, startSampleApiServer, WARDLE_GROUP, WARDLE_VERSION } from '../support/sample-api-server.js';
import { bindRole, createNamespace, createRole, waitForAccess } from '../support/security-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 8 acceptance: an aggregated API server (wardle.example.com/v1alpha1 flunders) behind an APIService, used
// through kubectl and the HTTP API while it is up, then stopped and started again (R8.14–R8.17, R5.13, R5.21, D8).

const GV = `${WARDLE_GROUP}/${WARDLE_VERSION}`;
const API_SERVICE = `${WARDLE_VERSION}.${WARDLE_GROUP}`;
const API_SERVICE_PATH = `/apis/apiregistration.k8s.io/v1/apiservices/${API_SERVICE}`;
const SERVICE_NAMESPACE = 'wardle-system';
const SERVICE_NAME = 'api';
const FLUNDERS_PATH = (namespace: string): string => `/apis/${GV}/namespaces/${namespace}/flunders`;
const AGGREGATED_DISCOVERY = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const ADMIN_GROUPS = ['system:masters', 'system:authenticated'];
/**
 * The availability controller notices a stopped backend only on its periodic re-check (Kubernetes: every 30 s, the
 * APIService informer's resync) and a restarted one on its backoff retry or that same re-check; this server re-checks
 * every 500 ms.
 */
const AVAILABILITY_BOUND_MS = 5000;

interface AvailableCondition {
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

const KUBECTL_CASCADE = fileURLToPath(new URL('../../src/cli/kubectl-cascade.js', import.meta.url));

/** `kubectl cascade …` (the plugin executable) against the test server. */
function kubectlCascade(ts: TestServer, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [KUBECTL_CASCADE, ...args],
      { env: { ...process.env, KUBECONFIG: ts.kubeconfigPath } },
      (err, stdout, stderr) => {
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
      },
    );
  });
}

/**
 * A plain-HTTP front for Cascade that never asks for aggregated discovery, so kubectl discovers as against a server
 * without it (R8.11: /api, /apis, then every group-version), as the admin. Returns the path of a kubeconfig for it.
 */
async function legacyDiscoveryFront(ts: TestServer): Promise<{ kubeconfig: string; close(): Promise<void> }> {
  const target = new URL(ts.url);
  const server = createServer((req, res) => {
    const accept = (req.headers.accept ?? '')
      .split(',')
      .filter((type) => !type.includes('g=apidiscovery.k8s.io'))
      .join(',');
    // kubectl sends no bearer token over plain HTTP: the front adds the admin's.
    const headers = {
      ...req.headers,
      host: target.host,
      accept: accept === '' ? 'application/json' : accept,
      authorization: `Bearer ${ts.adminToken ?? ''}`,
    };
    const upstream = httpsRequest(
      { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers, ca: ts.pki?.caCert },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const kubeconfig = join(dirname(ts.kubeconfigPath), 'legacy-discovery.kubeconfig');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'legacy', cluster: { server: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } }],
    users: [{ name: 'admin', user: {} }],
    contexts: [{ name: 'legacy', context: { cluster: 'legacy', user: 'admin' } }],
    'current-context': 'legacy',
  };
  await writeFile(kubeconfig, JSON.stringify(config), { mode: 0o600 });
  return {
    kubeconfig,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function flunder(namespace: string, name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: GV, kind: 'Flunder', metadata: { name, namespace, ...extra }, spec: { reference: name } };
}

describe('aggregated API server through Cascade (issue 8)', () => {
  let ts: TestServer;
  let sample: SampleApiServer;

  const available = async (): Promise<AvailableCondition | undefined> => {
    const res = await ts.request('GET', API_SERVICE_PATH);
    assert.equal(res.status, 200, res.text);
    const conditions: Record<string, unknown>[] = res.json.status?.conditions ?? [];
    return conditions.find((c) => c.type === 'Available') as AvailableCondition | undefined;
  };
  const waitForAvailable = (status: 'True' | 'False', timeoutMs: number): Promise<AvailableCondition> =>
    waitFor(
      async () => {
        const c = await available();
        return c?.status === status ? c : undefined;
      },
      { timeoutMs, what: `APIService ${API_SERVICE} Available=${status}` },
    );
  const namespaceOf = async (name: string): Promise<{ status: number; json: any }> => ts.request('GET', `/api/v1/namespaces/${name}`);
  const createFlunder = async (namespace: string, name: string, extra: Record<string, unknown> = {}): Promise<any> => {
    const res = await ts.request('POST', FLUNDERS_PATH(namespace), flunder(namespace, name, extra));
    assert.equal(res.status, 201, res.text);
    return res.json;
  };
  const createConfigMap = async (namespace: string, name: string, extra: Record<string, unknown> = {}): Promise<any> => {
    const res = await ts.request('POST', `/api/v1/namespaces/${namespace}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, ...extra },
    });
    assert.equal(res.status, 201, res.text);
    return res.json;
  };
  const ownedBy = (owner: any): Record<string, unknown> => ({
    ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata.name, uid: owner.metadata.uid }],
  });
  const sampleHas = (namespace: string, name: string): boolean => sample.flunders(namespace).some((f) => f.metadata.name === name);

  before(async () => {
    ts = await startTestServer({ secure: {}, aggregator: { recheckIntervalMs: 500, discoveryTimeoutMs: 1000 } });
    const pki = ts.pki;
    assert.ok(pki !== undefined);
    const servingCa = createCertificateAuthority('wardle-serving-ca');
    const serving = issueServingCertificate(servingCa, `${SERVICE_NAME}.${SERVICE_NAMESPACE}.svc`, [
      `${SERVICE_NAME}.${SERVICE_NAMESPACE}.svc`,
      '127.0.0.1',
    ]);
    sample = await startSampleApiServer({
      cert: serving.cert,
      key: serving.key,
      frontProxyCa: pki.frontProxyCaCert,
      allowedNames: [FRONT_PROXY_CLIENT_COMMON_NAME],
    });

    await createNamespace(ts, SERVICE_NAMESPACE);
    // A Service without selector and hand-written Endpoints, as for any backend outside the cluster's pods.
    let res = await ts.request('POST', `/api/v1/namespaces/${SERVICE_NAMESPACE}/services`, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: SERVICE_NAME },
      spec: { ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: sample.port }] },
    });
    assert.equal(res.status, 201, res.text);
    res = await ts.request('POST', `/api/v1/namespaces/${SERVICE_NAMESPACE}/endpoints`, {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: SERVICE_NAME },
      subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: sample.port, protocol: 'TCP' }] }],
    });
    assert.equal(res.status, 201, res.text);
    res = await ts.request('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: API_SERVICE },
      spec: {
        group: WARDLE_GROUP,
        version: WARDLE_VERSION,
        service: { namespace: SERVICE_NAMESPACE, name: SERVICE_NAME, port: 443 },
        caBundle: Buffer.from(servingCa.cert).toString('base64'),
        groupPriorityMinimum: 1000,
        versionPriority: 15,
      },
    });
    assert.equal(res.status, 201, res.text);
    await createNamespace(ts, 'x');
  });

  after(async () => {
    await sample?.stop();
    await ts?.stop();
  });

  it('the APIService becomes Available once its backend answers discovery', async () => {
    const condition = await waitForAvailable('True', 10_000);
    assert.equal(condition.reason, 'Passed');
    assert.equal(condition.message, 'all checks passed');
  });

  it('kubectl lists the aggregated resources and reaches them through the proxy as the kubectl user', async () => {
    const resources = await waitFor(
      async () => {
        const r = await ts.kubectl(['api-resources', '--api-group', WARDLE_GROUP, '--no-headers']);
        return r.code === 0 && r.stdout.includes('flunders') ? r.stdout : undefined;
      },
      { timeoutMs: 5000, what: 'flunders in kubectl api-resources' },
    );
    assert.deepEqual(resources.trim().split(/\s+/), ['flunders', GV, 'true', 'Flunder']);

    assert.equal(await ts.kubectlOk(['get', 'flunders', '-n', 'x']), '');
    // --validate=false: kubectl validates kinds missing from /openapi/v3 against /openapi/v2, which it asks for only
    // as protobuf; Cascade serves JSON only and aggregates no OpenAPI, so validation cannot be reached (see report).
    const created = await ts.kubectlOk(['create', '-f', '-', '--validate=false'], { input: JSON.stringify(flunder('x', 'first')) });
    assert.equal(created, 'flunder.wardle.example.com/first created\n');
    assert.ok(sampleHas('x', 'first'), 'the backend stores the flunder');
    assert.equal(await ts.kubectlOk(['get', 'flunders', '-n', 'x', '-o', 'jsonpath={.items[*].metadata.name}']), 'first');

    const creates = sample.requests.filter((r) => r.method === 'POST' && r.url.startsWith(FLUNDERS_PATH('x')));
    assert.equal(creates.length, 1);
    assert.equal(creates[0]?.user, 'cascade-admin');
    assert.deepEqual(creates[0]?.groups, ADMIN_GROUPS);
    // The bearer token stays with Cascade: the backend only ever sees the front proxy's identity headers.
    assert.equal(creates[0]?.headers.authorization, undefined);
  });

  it('Cascade authorizes before proxying: alice is refused until a Role grants her flunders', async () => {
    const before = sample.requests.length;
    const refused = await ts.kubectl(['--as=alice', 'get', 'flunders', '-n', 'x']);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /Error from server \(Forbidden\): flunders\.wardle\.example\.com is forbidden: User "alice" cannot list resource "flunders" in API group "wardle\.example\.com" in the namespace "x"/,
    );
    assert.deepEqual(
      sample.requests.slice(before).filter((r) => r.user === 'alice'),
      [],
      'a refused request never reaches the backend',
    );

    await createRole(ts, 'x', 'flunder-reader', [{ apiGroups: [WARDLE_GROUP], resources: ['flunders'], verbs: ['get', 'list'] }]);
    await bindRole(ts, 'x', 'alice-reads-flunders', { kind: 'Role', name: 'flunder-reader' }, [{ kind: 'User', name: 'alice' }]);
    await waitForAccess(ts, {
      user: 'alice',
      resourceAttributes: { namespace: 'x', verb: 'list', group: WARDLE_GROUP, resource: 'flunders' },
    });
    assert.equal(await ts.kubectlOk(['--as=alice', 'get', 'flunders', '-n', 'x', '-o', 'name']), 'flunder.wardle.example.com/first\n');
    const alices = sample.requests.slice(before).filter((r) => r.user === 'alice');
    assert.ok(alices.length > 0);
    for (const r of alices) assert.deepEqual(r.groups, ['system:authenticated']);
  });

  it("aggregated discovery lists the group-version as Current with the backend's resources", async () => {
    const res = await ts.request('GET', '/apis', undefined, { Accept: AGGREGATED_DISCOVERY });
    assert.equal(res.status, 200, res.text);
    const group = res.json.items.find((g: any) => g.metadata.name === WARDLE_GROUP);
    assert.ok(group !== undefined, 'wardle.example.com is in aggregated discovery');
    assert.equal(group.versions.length, 1);
    assert.equal(group.versions[0].version, WARDLE_VERSION);
    assert.equal(group.versions[0].freshness, 'Current');
    assert.deepEqual(
      group.versions[0].resources.map((r: any) => [r.resource, r.scope, r.responseKind?.kind]),
      [['flunders', 'Namespaced', 'Flunder']],
    );
  });

  it("the namespace controller deletes a namespace's flunders through the aggregator", async () => {
    await createNamespace(ts, 'doomed');
    await createFlunder('doomed', 'one');
    await createFlunder('doomed', 'two');
    assert.equal(await ts.kubectlOk(['delete', 'namespace', 'doomed', '--wait=false']), 'namespace "doomed" deleted\n');
    await waitFor(async () => ((await namespaceOf('doomed')).status === 404 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'namespace doomed to be gone',
    });
    assert.deepEqual(sample.flunders('doomed'), []);
  });

  it('the garbage collector deletes a flunder whose owning ConfigMap is deleted', async () => {
    const owner = await createConfigMap('x', 'owner');
    await createFlunder('x', 'owned', ownedBy(owner));
    assert.equal((await ts.request('DELETE', `/api/v1/namespaces/x/configmaps/owner`)).status, 200);
    await waitFor(() => (sampleHas('x', 'owned') ? undefined : true), { timeoutMs: 10_000, what: 'the owned flunder to be collected' });
    assert.ok(sampleHas('x', 'first'), 'flunders without that owner stay');
  });

  describe('while the backend is down', () => {
    let orphanOwner: any;

    before(async () => {
      await createNamespace(ts, 'stuck');
      await createFlunder('stuck', 'held');
      // Owned before the outage, its owner deleted during it: collected once the backend is back.
      orphanOwner = await createConfigMap('x', 'late-owner');
      await createFlunder('x', 'late', ownedBy(orphanOwner));
      await sample.stop();
    });

    it('the APIService becomes Available=False (FailedDiscoveryCheck) naming the endpoint', async () => {
      const condition = await waitForAvailable('False', AVAILABILITY_BOUND_MS);
      assert.equal(condition.reason, 'FailedDiscoveryCheck');
      assert.match(
        condition.message ?? '',
        new RegExp(
          `^failing or missing response from https://127\\.0\\.0\\.1:${sample.port}/apis/${GV.replace(/\./g, '\\.')}: .*connection refused`,
        ),
      );
    });

    it('requests under the group-version get the aggregator 503', async () => {
      const res = await ts.request('GET', FLUNDERS_PATH('x'));
      assert.equal(res.status, 503);
      assert.equal(res.text, 'service unavailable\n');
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      // kubectl's discovery cache from before the outage still maps flunders (R8.15: the plain-text 503 becomes a Status).
      const get = await ts.kubectl(['get', 'flunders', '-n', 'x']);
      assert.equal(get.code, 1);
      assert.equal(
        get.stderr,
        'Error from server (ServiceUnavailable): the server is currently unable to handle the request (get flunders.wardle.example.com)\n',
      );
      const raw = await ts.kubectl(['get', '--raw', FLUNDERS_PATH('x')]);
      assert.equal(raw.code, 1);
      assert.match(raw.stderr, /Error from server \(ServiceUnavailable\): the server is currently unable to handle the request/);
    });

    it('aggregated discovery keeps the group-version, Stale and without resources', async () => {
      const res = await ts.request('GET', '/apis', undefined, { Accept: AGGREGATED_DISCOVERY });
      assert.equal(res.status, 200, res.text);
      const group = res.json.items.find((g: any) => g.metadata.name === WARDLE_GROUP);
      assert.ok(group !== undefined);
      assert.deepEqual(
        group.versions.map((v: any) => [v.version, v.freshness, v.resources ?? []]),
        [[WARDLE_VERSION, 'Stale', []]],
      );
    });

    it('kubectl api-resources lists everything else; with legacy discovery it prints the partial-discovery error', async () => {
      // Aggregated discovery (kubectl's default): client-go turns the Stale version into a failed group-version, but
      // kubectl's disk-cached discovery client asks only for the groups, so kubectl 1.32 leaves flunders out silently.
      const aggregated = await ts.kubectl(['api-resources']);
      assert.equal(aggregated.code, 0, aggregated.stderr);
      assert.match(aggregated.stdout, /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
      assert.match(aggregated.stdout, /^apiservices\s+apiregistration\.k8s\.io\/v1\s+false\s+APIService$/m);
      assert.doesNotMatch(aggregated.stdout, /flunders|wardle/);

      // Legacy discovery (R8.15, R8.16): /apis/wardle.example.com/v1alpha1 answers the aggregator's 503.
      const front = await legacyDiscoveryFront(ts);
      try {
        const legacy = await ts.kubectl([`--kubeconfig=${front.kubeconfig}`, 'api-resources']);
        assert.equal(legacy.code, 1, legacy.stderr);
        assert.match(
          legacy.stderr,
          /^error: unable to retrieve the complete list of server APIs: wardle\.example\.com\/v1alpha1: the server is currently unable to handle the request$/m,
        );
        assert.match(legacy.stdout, /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
        assert.match(legacy.stdout, /^roles\s+rbac\.authorization\.k8s\.io\/v1\s+true\s+Role$/m);
        assert.doesNotMatch(legacy.stdout, /flunders/);
      } finally {
        await front.close();
      }
    });

    it('a namespace with flunders stays Terminating with NamespaceDeletionDiscoveryFailure naming the group-version', async () => {
      assert.equal((await ts.request('DELETE', '/api/v1/namespaces/stuck')).status, 200);
      const condition = await waitFor(
        async () => {
          const ns = await namespaceOf('stuck');
          const c = (ns.json?.status?.conditions ?? []).find((x: any) => x.type === 'NamespaceDeletionDiscoveryFailure');
          return c?.status === 'True' ? c : undefined;
        },
        { timeoutMs: 10_000, what: 'the NamespaceDeletionDiscoveryFailure condition' },
      );
      assert.equal(condition.reason, 'DiscoveryFailed');
      assert.match(
        condition.message,
        new RegExp(
          `^Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: ${GV.replace(/\./g, '\\.')}: `,
        ),
      );
      // Beyond Kubernetes: which APIService, why, and where.
      assert.match(condition.message, new RegExp(`APIService "${API_SERVICE.replace(/\./g, '\\.')}"`));
      assert.match(condition.message, /FailedDiscoveryCheck/);
      assert.match(condition.message, new RegExp(`127\\.0\\.0\\.1:${sample.port}`));
      const ns = await namespaceOf('stuck');
      assert.equal(ns.json.status.phase, 'Terminating');
      assert.ok(sampleHas('stuck', 'held'), 'nothing was deleted behind the unreadable group-version');
    });

    it('kubectl cascade explain names the unavailable APIService, its reason and endpoint', async () => {
      const r = await kubectlCascade(ts, ['explain', 'namespace/stuck', '-o', 'json']);
      const doc = JSON.parse(r.stdout);
      assert.deepEqual(
        doc.unavailableApiServices.map((s: any) => [s.name, s.reason]),
        [[API_SERVICE, 'FailedDiscoveryCheck']],
        r.stdout,
      );
      assert.match(doc.unavailableApiServices[0].message, new RegExp(`https://127\\.0\\.0\\.1:${sample.port}/apis/`));
      const text = await kubectlCascade(ts, ['explain', 'namespace/stuck']);
      assert.match(
        text.stdout,
        new RegExp(
          `^aggregated API ${API_SERVICE.replace(/\./g, '\\.')} is unavailable \\(FailedDiscoveryCheck\\): failing or missing response from https://127\\.0\\.0\\.1:${sample.port}/`,
          'm',
        ),
      );
      // The content behind the unreadable group-version is unknown, and the report says so.
      assert.match(text.stdout, /could not list wardle\.example\.com\/v1alpha1/);
      assert.doesNotMatch(text.stdout, /no content remains: the namespace controller finalizes the namespace next/);
    });

    it('the garbage collector keeps collecting ConfigMaps meanwhile', async () => {
      const owner = await createConfigMap('x', 'cm-owner');
      await createConfigMap('x', 'cm-dependent', ownedBy(owner));
      assert.equal((await ts.request('DELETE', '/api/v1/namespaces/x/configmaps/cm-owner')).status, 200);
      await waitFor(
        async () => ((await ts.request('GET', '/api/v1/namespaces/x/configmaps/cm-dependent')).status === 404 ? true : undefined),
        { timeoutMs: 10_000, what: 'the dependent ConfigMap to be collected' },
      );
      // The owner of the flunder "late" goes during the outage too: its dependent waits for the backend.
      assert.equal((await ts.request('DELETE', `/api/v1/namespaces/x/configmaps/${orphanOwner.metadata.name}`)).status, 200);
    });
  });

  describe('when the backend is back', () => {
    before(async () => {
      assert.ok(sampleHas('x', 'late'), 'the flunder whose owner went during the outage waited for the backend');
      await sample.start();
    });

    it('the APIService returns to Available and the namespace finishes deleting without anyone touching it', async () => {
      const condition = await waitForAvailable('True', AVAILABILITY_BOUND_MS);
      assert.equal(condition.reason, 'Passed');
      await waitFor(async () => ((await namespaceOf('stuck')).status === 404 ? true : undefined), {
        timeoutMs: AVAILABILITY_BOUND_MS,
        what: 'namespace stuck to be gone',
      });
      assert.deepEqual(sample.flunders('stuck'), []);
    });

    it('the garbage collector picks up the flunder whose owner was deleted during the outage', async () => {
      await waitFor(() => (sampleHas('x', 'late') ? undefined : true), {
        timeoutMs: AVAILABILITY_BOUND_MS,
        what: 'the late flunder to be collected',
      });
      assert.ok(sampleHas('x', 'first'));
    });

    it('kubectl api-resources is complete again', async () => {
      const r = await ts.kubectl(['api-resources', '--api-group', WARDLE_GROUP, '--no-headers']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '');
      assert.deepEqual(r.stdout.trim().split(/\s+/), ['flunders', GV, 'true', 'Flunder']);
    });
  });
});
