import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { connect as tlsConnect } from 'node:tls';
import { createCertificateAuthority, issueServingCertificate } from '../../src/pki/issue.js';
import { FRONT_PROXY_CLIENT_COMMON_NAME } from '../../src/pki/serving-pki.js';
import { type SampleApiServer, startSampleApiServer, WARDLE_GROUP, WARDLE_VERSION } from '../support/sample-api-server.js';
import { bindRole, createNamespace, createRole, waitForAccess, writeUserKubeconfig } from '../support/security-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 19, wire fidelity of routing and authorization, checked against kube-apiserver 1.32: the aggregator
 * forwards the path it authorized, JSON is pretty for ?pretty and human User-Agents, a list or watch naming one
 * object by field selector is authorized with that name, the deprecated /watch/ paths are served, the installer's
 * routes decide between 404 and 405, and paths no API group claims get the plain-text 404.
 */

const NS = 'routing';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const BOB_TOKEN = 'bob-token';
const GV = `${WARDLE_GROUP}/${WARDLE_VERSION}`;

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  readonly json: any;
}

interface RawOptions {
  readonly token?: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  /** Read a streamed answer until it holds this many lines, then hang up (watches). */
  readonly lines?: number;
}

/** One request with its target sent byte for byte: `new URL` would resolve "." and ".." segments first. */
function raw(ts: TestServer, method: string, target: string, options: RawOptions = {}): Promise<RawResponse> {
  const base = new URL(ts.url);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { Authorization: `Bearer ${options.token ?? ts.adminToken ?? ''}`, ...options.headers };
  if (payload !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: base.hostname, port: base.port, method, path: target, headers, ca: ts.pki?.caCert }, (res) => {
      let text = '';
      const done = (): void => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (options.lines !== undefined && text.split('\n').length > options.lines) {
          req.destroy();
          done();
        }
      });
      res.on('error', () => undefined);
      res.on('end', done);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${target} timed out`)));
    req.on('error', (err) => (req.destroyed && options.lines !== undefined ? undefined : reject(err)));
    req.end(payload);
  });
}

/** A CONNECT request over a raw TLS socket (Node's client treats CONNECT as a tunnel); the whole answer as text. */
function connectMethod(ts: TestServer, target: string, token: string): Promise<string> {
  const base = new URL(ts.url);
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: base.hostname, port: Number(base.port), ca: ts.pki?.caCert, servername: base.hostname }, () => {
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${base.host}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error(`CONNECT ${target} timed out`)));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
  });
}

function assertStatus(res: RawResponse, code: number, reason: string, message?: string): void {
  assert.equal(res.status, code, res.text);
  assert.equal(res.json?.kind, 'Status', res.text);
  assert.equal(res.json.reason, reason, res.text);
  if (message !== undefined) assert.equal(res.json.message, message);
}

function assertPageNotFound(res: RawResponse): void {
  assert.equal(res.status, 404, res.text);
  assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal(res.text, '404 page not found\n');
}

/** The complete lines of a watch read so far, as events. */
function events(res: RawResponse): Array<{ type: string; object: any }> {
  return res.text
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line));
}

/** json.MarshalIndent's text for a parsed body: two-space indents, HTML-safe escapes. */
function goIndent(json: unknown): string {
  return JSON.stringify(json, null, 2).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}

describe('wire fidelity: routing and authorization as kube-apiserver 1.32 (issue 19)', () => {
  let ts: TestServer;
  let sample: SampleApiServer;

  before(async () => {
    ts = await startTestServer({
      secure: { tokens: { [BOB_TOKEN]: { name: 'bob', groups: ['system:authenticated'] } } },
      aggregator: { recheckIntervalMs: 500, discoveryTimeoutMs: 1000 },
    });
    await createNamespace(ts, NS);
    // The root-CA publisher's ConfigMap lands in every namespace of a TLS server: waited for, so watches see it first.
    await waitFor(async () => (await ts.request('GET', `${CMS}/kube-root-ca.crt`)).status === 200, { what: 'kube-root-ca.crt' });
    for (const name of ['x', 'y']) {
      const res = await ts.request('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: '<v>' } });
      assert.equal(res.status, 201, res.text);
    }
    // bob may read the ConfigMap x only (resourceNames), as a user limited to one object is.
    await createRole(ts, NS, 'read-x', [
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['x'], verbs: ['get', 'list', 'watch'] },
    ]);
    await bindRole(ts, NS, 'bob-reads-x', { kind: 'Role', name: 'read-x' }, [{ kind: 'User', name: 'bob' }]);
    await waitForAccess(ts, { user: 'bob', resourceAttributes: { namespace: NS, verb: 'watch', resource: 'configmaps', name: 'x' } });
  });

  after(async () => {
    await sample?.stop();
    await ts?.stop();
  });

  describe('the aggregated API proxy', () => {
    before(async () => {
      const pki = ts.pki;
      assert.ok(pki !== undefined);
      const servingCa = createCertificateAuthority('wardle-serving-ca');
      const serving = issueServingCertificate(servingCa, 'api.wardle-system.svc', ['api.wardle-system.svc', '127.0.0.1']);
      sample = await startSampleApiServer({
        cert: serving.cert,
        key: serving.key,
        frontProxyCa: pki.frontProxyCaCert,
        allowedNames: [FRONT_PROXY_CLIENT_COMMON_NAME],
      });
      await createNamespace(ts, 'wardle-system');
      let res = await ts.request('POST', '/api/v1/namespaces/wardle-system/services', {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'api' },
        spec: { ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: sample.port }] },
      });
      assert.equal(res.status, 201, res.text);
      res = await ts.request('POST', '/api/v1/namespaces/wardle-system/endpoints', {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'api' },
        subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: sample.port, protocol: 'TCP' }] }],
      });
      assert.equal(res.status, 201, res.text);
      res = await ts.request('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: `${WARDLE_VERSION}.${WARDLE_GROUP}` },
        spec: {
          group: WARDLE_GROUP,
          version: WARDLE_VERSION,
          service: { namespace: 'wardle-system', name: 'api', port: 443 },
          caBundle: Buffer.from(servingCa.cert).toString('base64'),
          groupPriorityMinimum: 1000,
          versionPriority: 15,
        },
      });
      assert.equal(res.status, 201, res.text);
      await waitFor(async () => ((await raw(ts, 'GET', `/apis/${GV}`)).status === 200 ? true : undefined), {
        timeoutMs: 10_000,
        what: 'the APIService',
      });
    });

    it('forwards the path it authorized, dot segments unresolved, escapes as Go re-escapes them, the query sorted', async () => {
      const sent = `/apis/${GV}/namespaces/${NS}/flunders/a/../../../../../../api/v1/secrets`;
      // The availability controller's discovery checks reach the sample server too: only the admin's requests count.
      const lastForwarded = (): string | undefined => sample.requests.filter((r) => r.user === 'cascade-admin').at(-1)?.url;
      await raw(ts, 'GET', sent);
      assert.equal(lastForwarded(), sent);
      await raw(ts, 'GET', `/apis/${GV}/namespaces/${NS}/flunders/a%20b%2Fc?watch=0&b=1&a=%7E*`);
      assert.equal(lastForwarded(), `/apis/${GV}/namespaces/${NS}/flunders/a%20b/c?a=~%2A&b=1&watch=0`);
    });

    it('authorizes on that path: bob, with no grant in the group, is refused before anything is forwarded', async () => {
      const res = await raw(ts, 'GET', `/apis/${GV}/namespaces/${NS}/flunders/a/../..`, { token: BOB_TOKEN });
      assertStatus(res, 403, 'Forbidden');
      assert.equal(res.json.details.group, WARDLE_GROUP);
      // The availability controller keeps checking discovery meanwhile: only bob's requests count.
      assert.equal(sample.requests.filter((r) => r.user === 'bob').length, 0);
    });
  });

  describe('pretty JSON', () => {
    it('?pretty=true (strconv.ParseBool) indents objects, lists and Statuses with no trailing newline', async () => {
      const object = await raw(ts, 'GET', `${CMS}/x?pretty=true`);
      assert.equal(object.status, 200);
      assert.match(object.text, /"k": "\\u003cv\\u003e"\n/);
      assert.equal(object.text, goIndent(object.json));
      const list = await raw(ts, 'GET', `${CMS}?pretty=1`);
      assert.equal(list.text, goIndent(list.json));
      const status = await raw(ts, 'GET', `${CMS}/missing?pretty=T`);
      assertStatus(status, 404, 'NotFound');
      assert.equal(status.text, JSON.stringify(status.json, null, 2));
    });

    it('curl, Wget and browser User-Agents get it unless ?pretty says otherwise; client libraries never do', async () => {
      for (const agent of ['curl/8.5.0', 'Wget/1.21', 'Mozilla/5.0 (X11; Linux x86_64)']) {
        const res = await raw(ts, 'GET', `${CMS}/missing`, { headers: { 'User-Agent': agent } });
        assert.equal(res.text, JSON.stringify(res.json, null, 2), agent);
      }
      const off = await raw(ts, 'GET', `${CMS}/missing?pretty=false`, { headers: { 'User-Agent': 'curl/8.5.0' } });
      assert.equal(off.text, `${JSON.stringify(off.json)}\n`);
      // A value ParseBool refuses is false, too.
      const bad = await raw(ts, 'GET', `${CMS}/missing?pretty=yes`, { headers: { 'User-Agent': 'curl/8.5.0' } });
      assert.equal(bad.text, `${JSON.stringify(bad.json)}\n`);
      const empty = await raw(ts, 'GET', `${CMS}/missing?pretty=`, { headers: { 'User-Agent': 'curl/8.5.0' } });
      assert.equal(empty.text, JSON.stringify(empty.json, null, 2));
      const client = await raw(ts, 'GET', `${CMS}/missing`, { headers: { 'User-Agent': 'kubectl/v1.32.0 (linux/amd64)' } });
      assert.equal(client.text, `${JSON.stringify(client.json)}\n`);
    });

    it('watch events stay one compact line each', async () => {
      const res = await raw(ts, 'GET', `${CMS}?watch=1&pretty=true`, { headers: { 'User-Agent': 'curl/8.5.0' }, lines: 2 });
      const [first] = res.text.split('\n');
      assert.equal(JSON.parse(first as string).type, 'ADDED');
    });
  });

  describe('lists and watches naming one object by field selector', () => {
    it('are authorized with that name, so a user granted resourceNames can list and watch it', async () => {
      const list = await raw(ts, 'GET', `${CMS}?fieldSelector=metadata.name%3Dx`, { token: BOB_TOKEN });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.json.items.map((i: any) => i.metadata.name),
        ['x'],
      );
      const watch = await raw(ts, 'GET', `${CMS}?watch=true&fieldSelector=metadata.name%3D%3Dx`, { token: BOB_TOKEN, lines: 1 });
      assert.equal(watch.status, 200, watch.text);
      assert.equal(events(watch)[0]?.object.metadata.name, 'x');
      // Any term requiring the name will do, as fields.Selector.RequiresExactMatch finds it among the others.
      const both = await raw(ts, 'GET', `${CMS}?fieldSelector=metadata.namespace%3D${NS},metadata.name%3Dx`, { token: BOB_TOKEN });
      assert.equal(both.status, 200, both.text);
    });

    it('other selectors name nothing and are refused', async () => {
      for (const query of ['', '?fieldSelector=metadata.name!%3Dy', '?fieldSelector=metadata.name%3Dx&limit=many', '?watch=1']) {
        const res = await raw(ts, 'GET', `${CMS}${query}`, { token: BOB_TOKEN });
        assertStatus(res, 403, 'Forbidden');
        assert.equal(res.json.details.name, undefined, query);
      }
      // deletecollection is never named.
      assertStatus(await raw(ts, 'DELETE', `${CMS}?fieldSelector=metadata.name%3Dx`, { token: BOB_TOKEN }), 403, 'Forbidden');
    });

    it('kubectl get cm x -w works for that user', async () => {
      const kubeconfig = await writeUserKubeconfig(ts, 'bob.kubeconfig', { token: BOB_TOKEN });
      // A watch never ends by itself: kubectl is stopped after a few seconds.
      const r = await ts.kubectl([`--kubeconfig=${kubeconfig}`, 'get', 'configmap', 'x', '-n', NS, '-w', '--output-watch-events'], {
        timeoutMs: 4000,
      });
      assert.doesNotMatch(r.stderr, /Forbidden|forbidden/);
      assert.match(r.stdout, /^EVENT\s+NAME/m);
      assert.match(r.stdout, /ADDED\s+x\s/);
    });
  });

  describe('deprecated /watch/ paths', () => {
    it('serve watches of a namespace, every namespace, and one object by name', async () => {
      const ns = await raw(ts, 'GET', `/api/v1/watch/namespaces/${NS}/configmaps`, { lines: 3 });
      assert.equal(ns.status, 200, ns.text);
      assert.deepEqual(
        events(ns).map((e) => [e.type, e.object.metadata.name]),
        [
          ['ADDED', 'kube-root-ca.crt'],
          ['ADDED', 'x'],
          ['ADDED', 'y'],
        ],
      );
      const all = await raw(ts, 'GET', '/api/v1/watch/configmaps?watch=false', { lines: 1 });
      assert.equal(all.status, 200, all.text);
      assert.equal(events(all)[0]?.type, 'ADDED');
      const named = await raw(ts, 'GET', `/api/v1/watch/namespaces/${NS}/configmaps/y?resourceVersion=0&timeoutSeconds=1`);
      assert.equal(named.status, 200, named.text);
      assert.deepEqual(
        events(named).map((e) => [e.type, e.object.metadata.name]),
        [['ADDED', 'y']],
      );
      const namespace = await raw(ts, 'GET', `/api/v1/watch/namespaces/${NS}`, { lines: 1 });
      assert.equal(events(namespace)[0]?.object.metadata.name, NS);
    });

    it('refuse a field selector naming another object, other methods, and subresources', async () => {
      assertStatus(
        await raw(ts, 'GET', `/api/v1/watch/namespaces/${NS}/configmaps/y?fieldSelector=metadata.name%3Dx`),
        400,
        'BadRequest',
        "fieldSelector metadata.name doesn't match requested name",
      );
      assertStatus(await raw(ts, 'POST', '/api/v1/watch/configmaps', { body: {} }), 405, 'MethodNotAllowed');
      assertStatus(await raw(ts, 'GET', `/api/v1/watch/namespaces/${NS}/pods/p/status`), 404, 'NotFound');
      assertStatus(await raw(ts, 'GET', '/api/v1/watch'), 404, 'NotFound');
    });

    it('are authorized as watches of the name in the path', async () => {
      const named = await raw(ts, 'GET', `/api/v1/watch/namespaces/${NS}/configmaps/x`, { token: BOB_TOKEN, lines: 1 });
      assert.equal(named.status, 200, named.text);
      const other = await raw(ts, 'GET', `/api/v1/watch/namespaces/${NS}/configmaps/y`, { token: BOB_TOKEN });
      assertStatus(other, 403, 'Forbidden');
      assert.equal(
        other.json.message,
        `configmaps "y" is forbidden: User "bob" cannot watch resource "configmaps" in API group "" in the namespace "${NS}"`,
      );
      // The path's collection names nothing, whatever the field selector says.
      assertStatus(
        await raw(ts, 'GET', `/api/v1/watch/namespaces/${NS}/configmaps?fieldSelector=metadata.name%3Dx`, { token: BOB_TOKEN }),
        403,
        'Forbidden',
      );
    });
  });

  describe('methods and path shapes the installer registers no route for', () => {
    const NOT_ALLOWED = 'the server does not allow this method on the requested resource';

    it('answer 405 where routes exist at the path for other methods', async () => {
      const cases: Array<[string, string]> = [
        ['POST', '/api/v1/configmaps'],
        ['DELETE', '/api/v1/configmaps'],
        ['PUT', CMS],
        ['PATCH', CMS],
        ['POST', `${CMS}/x`],
        ['GET', '/apis/authentication.k8s.io/v1/tokenreviews'],
        ['DELETE', '/api/v1/namespaces'],
      ];
      for (const [method, path] of cases) {
        const res = await raw(ts, method, path, method === 'GET' ? {} : { body: {} });
        assertStatus(res, 405, 'MethodNotAllowed', NOT_ALLOWED);
        assert.deepEqual(res.json.details, {}, `${method} ${path}`);
        assert.equal(res.headers.allow, undefined, 'kube-apiserver drops the Allow header go-restful suggests');
      }
    });

    it('CONNECT goes through authorization and the router like any method: 403 for bob, 405 for the admin', async () => {
      const admin = await connectMethod(ts, `${CMS}/x`, ts.adminToken ?? '');
      assert.match(admin, /^HTTP\/1\.1 405 /, admin);
      assert.match(admin, /"reason":"MethodNotAllowed"/, admin);
      const bob = await connectMethod(ts, `${CMS}/x`, BOB_TOKEN);
      assert.match(bob, /^HTTP\/1\.1 403 /, bob);
      assert.match(bob, /cannot connect resource \\"configmaps\\"/, bob);
      assert.equal((await raw(ts, 'GET', '/readyz')).status, 200);
    });

    it('health paths: everyone may GET them; other methods and individual checks are RBAC’s to decide', async () => {
      assert.equal((await raw(ts, 'GET', '/readyz', { token: BOB_TOKEN })).status, 200);
      assertStatus(
        await raw(ts, 'DELETE', '/readyz', { token: BOB_TOKEN }),
        403,
        'Forbidden',
        'forbidden: User "bob" cannot delete path "/readyz"',
      );
      assertStatus(await raw(ts, 'GET', '/healthz/etcd', { token: BOB_TOKEN }), 403, 'Forbidden');
      assertStatus(await raw(ts, 'DELETE', '/healthz/../api/v1/namespaces/x', { token: BOB_TOKEN }), 403, 'Forbidden');
      // The admin passes authorization; the health handler answers any method, as kube-apiserver's does.
      assert.equal((await raw(ts, 'DELETE', '/readyz')).text, 'ok');
    });

    it('answer 404 where no route exists at the path', async () => {
      for (const path of ['/api/v1/configmaps/x', '/api/v1/pods/p/status', '/apis/authentication.k8s.io/v1/tokenreviews/t']) {
        assertStatus(await raw(ts, 'GET', path), 404, 'NotFound', 'the server could not find the requested resource');
      }
    });

    it('a create under an empty namespace segment fails validation: metadata.namespace is required', async () => {
      for (const namespace of [undefined, NS]) {
        const res = await raw(ts, 'POST', '/api/v1/namespaces//configmaps', {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'z', namespace } },
        });
        assertStatus(res, 422, 'Invalid', 'ConfigMap "z" is invalid: metadata.namespace: Required value');
        assert.deepEqual(res.json.details.causes, [
          { reason: 'FieldValueRequired', message: 'Required value', field: 'metadata.namespace' },
        ]);
      }
      assertStatus(await raw(ts, 'GET', '/api/v1/namespaces//configmaps/x'), 400, 'BadRequest', 'Namespace parameter required.');
    });
  });

  describe('paths under groups and versions nobody serves', () => {
    it('an unknown group, its versions and resources get the plain-text 404 of the last delegate', async () => {
      assertPageNotFound(await raw(ts, 'GET', '/apis/example.com'));
      assertPageNotFound(await raw(ts, 'GET', '/apis/example.com/v1'));
      assertPageNotFound(await raw(ts, 'GET', '/apis/example.com/v1/widgets'));
      assertPageNotFound(await raw(ts, 'GET', '/apis/example.com/v1/namespaces/x/widgets/w'));
    });

    it("an unknown version or resource of a built-in group gets its web service's NotFound Status", async () => {
      for (const path of ['/apis/apps/v2', '/apis/apps/v2/deployments', '/apis/apps/v1/nothings', '/api/v2', '/api/v1/nothings']) {
        assertStatus(await raw(ts, 'GET', path), 404, 'NotFound', 'the server could not find the requested resource');
      }
    });
  });
});
