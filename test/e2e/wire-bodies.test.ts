import assert from 'node:assert/strict';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 19, request bodies: hostile nesting, media types, duplicate fields, DeleteOptions numbers, names, strategic
// merge directives, oversized bodies and headers — each answered as kube-apiserver answers (R9.1, R9.8), the server
// staying healthy throughout.

const NS = 'wire-bodies';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const USER_TOKEN = 'wire-bodies-user-token';
const UNSUPPORTED =
  'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf';

function hex(text: string): string {
  return `${Buffer.from(text.slice(0, 30)).toString('hex')} ...`;
}

/** R9.1/R9.8: a Failure Status with this code, reason and message. */
function assertStatus(res: { status: number; json: any; text: string }, code: number, reason: string, message: string): void {
  assert.equal(res.status, code, res.text);
  assert.deepEqual(res.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

describe('wire fidelity: request bodies and decoders', () => {
  let ts: TestServer;

  const healthy = async (): Promise<void> => {
    const res = await ts.request('GET', '/readyz');
    assert.equal(res.status, 200, res.text);
  };
  const asUser = { Authorization: `Bearer ${USER_TOKEN}` };
  const createConfigMap = async (name: string): Promise<void> => {
    const res = await ts.request('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });
    assert.equal(res.status, 201, res.text);
  };

  before(async () => {
    ts = await startTestServer({ secure: { tokens: { [USER_TOKEN]: { name: 'wire-user', groups: [] } } } });
    const res = await ts.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    assert.equal(res.status, 201, res.text);
  });
  after(async () => {
    await ts.stop();
  });

  describe('nesting is bounded before anything recursive sees it', () => {
    it('two 2 KB YAML reviews nesting an array 1,000 deep, from any user: 400 each time, and the server lives', async () => {
      const body = `apiVersion: authorization.k8s.io/v1\nkind: SelfSubjectAccessReview\nspec:\n  x: ${'['.repeat(1000)}${']'.repeat(1000)}\n`;
      for (let i = 0; i < 2; i++) {
        const res = await ts.request('POST', SSAR, body, { ...asUser, 'Content-Type': 'application/yaml' });
        assertStatus(
          res,
          400,
          'BadRequest',
          `the object provided is unrecognized (must be of type SelfSubjectAccessReview): couldn't get version/kind; json parse error: invalid character '[' exceeded max depth (${hex(body)})`,
        );
        await healthy();
      }
    });

    it("YAML past go-yaml's 10,000 levels: yaml: exceeded max depth of 10000", async () => {
      const body = '['.repeat(10_001);
      const res = await ts.request('POST', CMS, body, { 'Content-Type': 'application/yaml' });
      assertStatus(
        res,
        400,
        'BadRequest',
        `the object provided is unrecognized (must be of type ConfigMap): yaml: exceeded max depth of 10000 (${hex(body)})`,
      );
      const blocks = `a:\n${'- '.repeat(10_001)}x\n`;
      const res2 = await ts.request('POST', CMS, blocks, { 'Content-Type': 'application/yaml' });
      assert.equal(res2.status, 400, res2.text);
      assert.match(res2.json.message, /: yaml: line 2: exceeded max depth of 10000 \(/);
      await healthy();
    });

    it('JSON nested 10,000 and 10,001 deep: 400 exceeded max depth, as encoding/json words it', async () => {
      for (const depth of [10_000, 10_001]) {
        const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
        const res = await ts.request('POST', CMS, body);
        assertStatus(
          res,
          400,
          'BadRequest',
          `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '[' exceeded max depth (${body.slice(0, 30)} ...)`,
        );
      }
      await healthy();
    });

    it('JSON patches nested 10,000 deep are 400, not 500; a patch copying a subtree onto itself cannot grow the object without bound', async () => {
      await createConfigMap('patched');
      const deepValue = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      const jsonPatch = `[{"op":"add","path":"/metadata/annotations","value":${deepValue}}]`;
      const res = await ts.request('PATCH', `${CMS}/patched`, jsonPatch, { 'Content-Type': 'application/json-patch+json' });
      assertStatus(res, 400, 'BadRequest', "couldn't get version/kind; json parse error: invalid character '[' exceeded max depth");
      const merge = await ts.request('PATCH', `${CMS}/patched`, `{"data":${deepValue}}`, {
        'Content-Type': 'application/merge-patch+json',
      });
      assert.equal(merge.status, 400, merge.text);
      // A copy places a 300-level subtree 250 levels down inside itself: past the 512 levels every object is held to.
      const nested = `${'{"a":'.repeat(300)}"x"${'}'.repeat(300)}`;
      const grow = `[{"op":"add","path":"/x","value":${nested}},{"op":"copy","from":"/x","path":"/x${'/a'.repeat(249)}"}]`;
      const grown = await ts.request('PATCH', `${CMS}/patched`, grow, { 'Content-Type': 'application/json-patch+json' });
      assertStatus(grown, 422, 'Invalid', 'the server rejected our request due to an error in our request');
      await healthy();
    });

    it('a YAML alias bomb: 400 document contains excessive aliasing', async () => {
      const levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
      for (let i = 1; i < 9; i++) {
        const prev = String.fromCharCode(96 + i);
        const name = String.fromCharCode(97 + i);
        levels.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(',')}]`);
      }
      const body = `${levels.join('\n')}\n`;
      const res = await ts.request('POST', CMS, body, { 'Content-Type': 'application/yaml' });
      assertStatus(
        res,
        400,
        'BadRequest',
        `the object provided is unrecognized (must be of type ConfigMap): yaml: document contains excessive aliasing (${hex(body)})`,
      );
      await healthy();
    });

    it('a large YAML body is converted off the event loop: the server answers others meanwhile', async () => {
      const body = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big-yaml\ndata:\n${Array.from({ length: 20_000 }, (_, i) => `  k${i}: "value ${i}"`).join('\n')}\n`;
      const pending = ts.request('POST', CMS, body, { 'Content-Type': 'application/yaml' });
      const started = Date.now();
      await healthy();
      assert.ok(Date.now() - started < 1000, 'readyz answered while the YAML body was converted');
      const res = await pending;
      assert.equal(res.status, 201, res.text);
      assert.equal(Object.keys(res.json.data).length, 20_000);
    });
  });

  describe('media types (415) and strict decoding', () => {
    it('creates and updates refuse patch media types and */*', async () => {
      await createConfigMap('typed');
      const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'typed' } });
      for (const type of [
        'application/merge-patch+json',
        'application/json-patch+json',
        'application/apply-patch+yaml',
        '*/*',
        'text/plain',
      ]) {
        assertStatus(await ts.request('POST', CMS, body, { 'Content-Type': type }), 415, 'UnsupportedMediaType', UNSUPPORTED);
        assertStatus(await ts.request('PUT', `${CMS}/typed`, body, { 'Content-Type': type }), 415, 'UnsupportedMediaType', UNSUPPORTED);
      }
      const del = await ts.request('DELETE', `${CMS}/typed`, '{"kind":"DeleteOptions","apiVersion":"v1"}', {
        'Content-Type': 'application/merge-patch+json',
      });
      assertStatus(del, 415, 'UnsupportedMediaType', UNSUPPORTED);
    });

    it('duplicate JSON fields: Strict 400 strict decoding error, Warn a warning, Ignore nothing', async () => {
      const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup-strict"},"data":{"a":"1","a":"2"}}';
      const strict = await ts.request('POST', `${CMS}?fieldValidation=Strict`, body);
      assertStatus(
        strict,
        400,
        'BadRequest',
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data.a"',
      );
      const warn = await ts.request('POST', `${CMS}?fieldValidation=Warn`, body.replace('dup-strict', 'dup-warn'));
      assert.equal(warn.status, 201, warn.text);
      assert.equal(warn.headers.get('warning'), '299 - "duplicate field \\"data.a\\""');
      assert.deepEqual(warn.json.data, { a: '2' });
      const ignore = await ts.request('POST', `${CMS}?fieldValidation=Ignore`, body.replace('dup-strict', 'dup-ignore'));
      assert.equal(ignore.status, 201, ignore.text);
      assert.equal(ignore.headers.get('warning'), null);
    });

    it('duplicate YAML keys are go-yaml strict errors', async () => {
      const body = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dup-yaml\ndata:\n  a: "1"\n  a: "2"\n';
      const res = await ts.request('POST', `${CMS}?fieldValidation=Strict`, body, { 'Content-Type': 'application/yaml' });
      assertStatus(
        res,
        400,
        'BadRequest',
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "a" already set in map',
      );
    });
  });

  describe('DeleteOptions, names and strategic merge directives', () => {
    it('a gracePeriodSeconds past int64 is refused with Go decoding error; int64 max is accepted', async () => {
      await createConfigMap('grace');
      for (const literal of ['9223372036854775808', '1e30', '1.5']) {
        const res = await ts.request('DELETE', `${CMS}/grace`, `{"gracePeriodSeconds":${literal}}`);
        assertStatus(
          res,
          400,
          'BadRequest',
          `json: cannot unmarshal number ${literal} into Go struct field DeleteOptions.gracePeriodSeconds of type int64`,
        );
      }
      const ok = await ts.request('DELETE', `${CMS}/grace`, '{"gracePeriodSeconds":9223372036854775807}');
      assert.equal(ok.status, 200, ok.text);
    });

    it('a PUT without metadata.name, or a patch removing it: 400, the name must be provided', async () => {
      await createConfigMap('named');
      const message = 'the name of the object (named based on URL) was undeterminable: name must be provided';
      const put = await ts.request('PUT', `${CMS}/named`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: { b: '2' } });
      assertStatus(put, 400, 'BadRequest', message);
      const patch = await ts.request('PATCH', `${CMS}/named`, '[{"op":"remove","path":"/metadata/name"}]', {
        'Content-Type': 'application/json-patch+json',
      });
      assertStatus(patch, 400, 'BadRequest', message);
      const merge = await ts.request('PATCH', `${CMS}/named`, '{"metadata":{"name":null}}', {
        'Content-Type': 'application/merge-patch+json',
      });
      assertStatus(merge, 400, 'BadRequest', message);
      const renamed = await ts.request('PUT', `${CMS}/named`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' } });
      assertStatus(renamed, 400, 'BadRequest', 'the name of the object (other) does not match the name on the URL (named)');
    });

    it('a write asking for an answer format it cannot have is refused before it lands (nothing half-written)', async () => {
      await createConfigMap('format');
      const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'format' }, data: { a: '2' } };
      const asList = await ts.request('PUT', `${CMS}/format`, body, {
        Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
      });
      assertStatus(asList, 400, 'BadRequest', 'PartialObjectMetadataList is only supported for list requests');
      const table = await ts.request('PUT', `${CMS}/format?includeObject=Bogus`, body, {
        Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
      });
      assert.equal(table.status, 400, table.text);
      assert.deepEqual((await ts.request('GET', `${CMS}/format`)).json.data, { a: '1' });
    });

    it('a create carrying metadata.resourceVersion: 400 (kube-apiserver lets storage refuse it with a 500)', async () => {
      const res = await ts.request('POST', CMS, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'with-rv', resourceVersion: '5' },
      });
      assertStatus(res, 400, 'BadRequest', 'resourceVersion should not be set on objects to be created');
      assert.equal((await ts.request('GET', `${CMS}/with-rv`)).status, 404);
    });

    it('a strategic merge patch with $patch: bogus is a 400 with the engine message', async () => {
      await createConfigMap('directive');
      const res = await ts.request('PATCH', `${CMS}/directive`, '{"data":{"$patch":"bogus"}}', {
        'Content-Type': 'application/strategic-merge-patch+json',
      });
      assertStatus(res, 400, 'BadRequest', 'unknown patch type: bogus in map: map[$patch:bogus]');
      await healthy();
    });
  });

  describe('oversized bodies and headers', () => {
    it('a body over 3 MiB always gets the 413 Status, never a reset', async () => {
      const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"huge"},"data":{"a":"${'x'.repeat(6 * 1024 * 1024)}"}}`;
      for (let i = 0; i < 5; i++) {
        const res = await ts.request('POST', CMS, body);
        assertStatus(res, 413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');
      }
      await healthy();
    });

    it('a body declared over 3 MiB gets its 413 at once, while the client still holds back the rest', async () => {
      const head = `POST ${CMS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ts.adminToken}\r\nContent-Type: application/json\r\n`;
      const answer = await rawAnswerUntil(ts, `${head}Content-Length: 3145729\r\n\r\n{"a":`, 'limit is 3145728');
      assert.match(answer, /^HTTP\/1\.1 413 /);
      await healthy();
    });

    it('headers beyond Node’s 16 KiB are served; past 1 MiB they get Go’s 431', async () => {
      const big = await ts.request(
        'GET',
        `${CMS}?labelSelector=a+in+(${Array.from({ length: 3000 }, (_, i) => `v${i}`).join(',')})`,
        undefined,
        {
          'X-Padding': 'p'.repeat(64 * 1024),
        },
      );
      assert.equal(big.status, 200, big.text);
      const answer = await rawRequest(ts, `GET /readyz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(1100 * 1024)}\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      assert.ok(answer.endsWith('\r\n\r\n431 Request Header Fields Too Large'), answer.slice(-200));
      await healthy();
    });
  });
});

/** Writes raw bytes on a TLS connection and returns everything the server sends back before closing. */
function rawRequest(ts: TestServer, payload: string): Promise<string> {
  const url = new URL(ts.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: ts.pki?.caCert, servername: url.hostname }, () => {
      socket.write(payload);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (err) => (chunks.length > 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(err)));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** Sends `payload` and resolves with what came back once it contains `marker`, leaving the rest of the body unsent. */
function rawAnswerUntil(ts: TestServer, payload: string, marker: string): Promise<string> {
  const url = new URL(ts.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: ts.pki?.caCert, servername: url.hostname }, () => {
      socket.write(payload);
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer containing ${JSON.stringify(marker)} within 10 s`));
    }, 10_000);
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (!text.includes(marker)) return;
      clearTimeout(timer);
      socket.destroy();
      resolve(text);
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}
