import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'errors';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const DEPLOYS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

function configMap(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' }, ...extra };
}

function deployment(name: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      ...spec,
    },
  };
}

/** The common shape of every failure body (R9.1); returns it for further checks. */
function assertStatus(res: { status: number; json: any; text: string }, code: number, reason: string): any {
  assert.equal(res.status, code, res.text);
  const s = res.json;
  assert.ok(s, `expected a JSON Status body, got ${res.text}`);
  assert.equal(s.kind, 'Status');
  assert.equal(s.apiVersion, 'v1');
  assert.deepEqual(s.metadata, {});
  assert.equal(s.status, 'Failure');
  assert.equal(s.reason, reason);
  assert.equal(s.code, code);
  return s;
}

/** Reads a watch stream to its end (the server must end it), failing after a timeout. */
async function readWatch(url: string): Promise<{ status: number; events: any[] }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  return {
    status: res.status,
    events: text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l)),
  };
}

describe('HTTP API errors and list semantics', () => {
  let ts: TestServer;

  const create = async (path: string, body: unknown): Promise<any> => {
    const res = await ts.request('POST', path, body);
    assert.equal(res.status, 201, res.text);
    return res.json;
  };
  const listState = async (): Promise<{ rv: string; names: string[] }> => {
    const res = await ts.request('GET', CMS);
    assert.equal(res.status, 200, res.text);
    return { rv: res.json.metadata.resourceVersion, names: res.json.items.map((i: any) => i.metadata.name) };
  };

  before(async () => {
    ts = await startTestServer();
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });
  afterEach(async () => {
    for (const collection of [CMS, DEPLOYS]) {
      const res = await ts.request('DELETE', collection);
      assert.equal(res.status, 200, res.text);
    }
  });
  after(async () => {
    await ts.stop();
  });

  describe('decoding', () => {
    it('malformed JSON → 400 BadRequest naming the expected kind', async () => {
      const res = await ts.request('POST', CMS, '{"apiVersion": "v1", "kind": ', { 'Content-Type': 'application/json' });
      const s = assertStatus(res, 400, 'BadRequest');
      assert.ok(
        s.message.startsWith(
          "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: ",
        ),
        s.message,
      );
    });

    it('malformed YAML (application/yaml) → 400 BadRequest', async () => {
      const res = await ts.request('POST', CMS, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [unclosed\n', {
        'Content-Type': 'application/yaml',
      });
      const s = assertStatus(res, 400, 'BadRequest');
      assert.ok(
        // YAMLToJSON's error as is, then the body's first bytes in hex (transformDecodeError's summary).
        s.message.startsWith('the object provided is unrecognized (must be of type ConfigMap): yaml: ') &&
          s.message.endsWith(' (61706956657273696f6e3a2076310a6b696e643a20436f6e6669674d6170 ...)'),
        s.message,
      );
    });

    it('well-formed YAML bodies are accepted', async () => {
      const res = await ts.request('POST', CMS, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  color: "blue"\n', {
        'Content-Type': 'application/yaml',
      });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.json.data, { color: 'blue' });
    });

    it('a body whose kind does not match the URL → 400', async () => {
      const res = await ts.request('POST', CMS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'wrong-kind' } });
      const s = assertStatus(res, 400, 'BadRequest');
      assert.ok(s.message.startsWith('Secret in version "v1" cannot be handled as a ConfigMap: '), s.message);
    });

    it('a body whose apiVersion does not match the URL → 400', async () => {
      const res = await ts.request('POST', CMS, { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'wrong-group' } });
      const s = assertStatus(res, 400, 'BadRequest');
      assert.match(s.message, /cannot be handled as a ConfigMap|does not match the expected API version/);
    });

    it('a body over 3 MiB → 413 RequestEntityTooLarge', async () => {
      const res = await ts.request('POST', CMS, configMap('huge', { data: { big: 'x'.repeat(3 * 1024 * 1024 + 1024) } }));
      const s = assertStatus(res, 413, 'RequestEntityTooLarge');
      assert.equal(s.message, 'Request entity too large: limit is 3145728');
    });
  });

  describe('validation (R1.29–R1.34, R9.6)', () => {
    it('an invalid name → 422 Invalid with a metadata.name cause', async () => {
      const res = await ts.request('POST', CMS, configMap('Foo_Bar'));
      const s = assertStatus(res, 422, 'Invalid');
      assert.ok(
        s.message.startsWith('ConfigMap "Foo_Bar" is invalid: metadata.name: Invalid value: "Foo_Bar": a lowercase RFC 1123 subdomain'),
        s.message,
      );
      assert.equal(s.details.name, 'Foo_Bar');
      assert.equal(s.details.kind, 'ConfigMap', 'Invalid names the Kind, not the resource (R9.2)');
      assert.equal(s.details.causes[0].field, 'metadata.name');
      assert.equal(s.details.causes[0].reason, 'FieldValueInvalid');
      assert.ok(
        s.details.causes[0].message.startsWith('Invalid value: "Foo_Bar": a lowercase RFC 1123 subdomain'),
        s.details.causes[0].message,
      );
    });

    it('a missing name → 422 name or generateName is required (R1.29)', async () => {
      const res = await ts.request('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} });
      const s = assertStatus(res, 422, 'Invalid');
      assert.equal(s.message, 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
      assert.equal(s.details.causes[0].field, 'metadata.name');
      assert.equal(s.details.causes[0].reason, 'FieldValueRequired');
    });

    it('generateName produces prefix + 5 random characters (R1.32)', async () => {
      const made = await create(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } });
      assert.match(made.metadata.name, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.equal(made.metadata.generateName, 'gen-');
      const again = await create(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } });
      assert.notEqual(again.metadata.name, made.metadata.name);
    });

    it('a body namespace different from the URL → 400 (R1.34)', async () => {
      const res = await ts.request('POST', CMS, { ...configMap('ns-mismatch'), metadata: { name: 'ns-mismatch', namespace: 'default' } });
      const s = assertStatus(res, 400, 'BadRequest');
      assert.equal(s.message, 'the namespace of the provided object does not match the namespace sent on the request');
    });

    it('PUT with a stale resourceVersion → 409 Conflict (R1.6, R9.5)', async () => {
      const first = await create(CMS, configMap('stale'));
      const updated = await ts.request('PUT', `${CMS}/stale`, { ...first, data: { k: 'v2' } });
      assert.equal(updated.status, 200, updated.text);
      const res = await ts.request('PUT', `${CMS}/stale`, { ...first, data: { k: 'v3' } });
      const s = assertStatus(res, 409, 'Conflict');
      assert.equal(
        s.message,
        'Operation cannot be fulfilled on configmaps "stale": the object has been modified; please apply your changes to the latest version and try again',
      );
      assert.deepEqual(s.details, { name: 'stale', kind: 'configmaps' });
      assert.deepEqual((await ts.request('GET', `${CMS}/stale`)).json.data, { k: 'v2' });
    });

    it('failed writes leave the store untouched', async () => {
      await create(CMS, configMap('kept'));
      const before = await listState();
      const failures: [string, string, unknown][] = [
        ['POST', CMS, configMap('Bad_Name')],
        ['POST', CMS, configMap('kept')],
        ['POST', CMS, { ...configMap('other-ns'), metadata: { name: 'other-ns', namespace: 'default' } }],
        ['PUT', `${CMS}/kept`, { ...configMap('kept'), metadata: { name: 'kept', resourceVersion: '1' } }],
        ['PUT', `${CMS}/kept`, configMap('Renamed')],
        ['PATCH', `${CMS}/kept`, '{"metadata":{"name":"Bad_Name"}}'],
        ['POST', CMS, '{broken'],
      ];
      for (const [method, path, body] of failures) {
        const headers: Record<string, string> = method === 'PATCH' ? { 'Content-Type': 'application/merge-patch+json' } : {};
        const res = await ts.request(method, path, body, headers);
        assert.ok(res.status >= 400, `${method} ${path} ${JSON.stringify(body)} should fail, got ${res.status}`);
      }
      assert.deepEqual(await listState(), before, 'no failed request consumed a resourceVersion or wrote an object');
    });

    it('fieldValidation=Strict rejects an unknown field on a deployment', async () => {
      const res = await ts.request('POST', `${DEPLOYS}?fieldValidation=Strict`, deployment('strict', { foo: 'bar' }));
      const s = assertStatus(res, 400, 'BadRequest');
      // The strict decoding error goes through the create handler's decode-error wrapping, like any decode failure.
      assert.equal(
        s.message,
        'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo"',
      );
      assert.equal((await ts.request('GET', `${DEPLOYS}/strict`)).status, 404);
    });

    it('fieldValidation=Warn creates the object and returns a Warning header', async () => {
      const res = await ts.request('POST', `${DEPLOYS}?fieldValidation=Warn`, deployment('warned', { foo: 'bar' }));
      assert.equal(res.status, 201, res.text);
      assert.equal(res.headers.get('warning'), '299 - "unknown field \\"spec.foo\\""');
      assert.equal(res.json.spec.foo, undefined, 'unknown fields are dropped');
    });
  });

  describe('routing', () => {
    it('GET of a missing object → 404 NotFound with details (R9.3)', async () => {
      const s = assertStatus(await ts.request('GET', `${CMS}/nope`), 404, 'NotFound');
      assert.equal(s.message, 'configmaps "nope" not found');
      assert.deepEqual(s.details, { name: 'nope', kind: 'configmaps' });
      const d = assertStatus(await ts.request('GET', `${DEPLOYS}/nope`), 404, 'NotFound');
      assert.equal(d.message, 'deployments.apps "nope" not found');
      assert.deepEqual(d.details, { name: 'nope', group: 'apps', kind: 'deployments' });
    });

    it('an unknown resource → 404', async () => {
      for (const path of [`/api/v1/namespaces/${NS}/widgets`, '/apis/apps/v1/widgets']) {
        const s = assertStatus(await ts.request('GET', path), 404, 'NotFound');
        assert.equal(s.message, 'the server could not find the requested resource', path);
      }
      // No API group claims an unknown group's paths: kube-apiserver's last delegate answers Go's plain-text 404.
      const unknownGroup = await ts.request('GET', '/apis/nope.example.com/v1/things');
      assert.equal(unknownGroup.status, 404);
      assert.equal(unknownGroup.text, '404 page not found\n');
    });

    it('POST on an item → 405 MethodNotAllowed', async () => {
      await create(CMS, configMap('item'));
      const s = assertStatus(await ts.request('POST', `${CMS}/item`, configMap('item')), 405, 'MethodNotAllowed');
      // No route serves POST on an item, so the router answers: generic message, empty details.
      assert.equal(s.message, 'the server does not allow this method on the requested resource');
      assert.deepEqual(s.details, {});
    });

    it('DELETE on the namespaces collection → 405 (namespaces lack deletecollection)', async () => {
      const s = assertStatus(await ts.request('DELETE', '/api/v1/namespaces'), 405, 'MethodNotAllowed');
      assert.equal(s.message, 'the server does not allow this method on the requested resource');
      assert.deepEqual(s.details, {});
      assert.equal((await ts.request('GET', `/api/v1/namespaces/${NS}`)).status, 200);
    });
  });

  describe('lists and watches', () => {
    it('limit + continue pages through a collection', async () => {
      const names = ['p-a', 'p-b', 'p-c', 'p-d', 'p-e'];
      for (const name of names) await create(CMS, configMap(name));
      const seen: string[] = [];
      const rvs = new Set<string>();
      let cont: string | undefined;
      let pages = 0;
      do {
        const res = await ts.request('GET', `${CMS}?limit=2${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`);
        assert.equal(res.status, 200, res.text);
        pages += 1;
        seen.push(...res.json.items.map((i: any) => i.metadata.name));
        rvs.add(res.json.metadata.resourceVersion);
        cont = res.json.metadata.continue;
        if (cont !== undefined) assert.equal(res.json.metadata.remainingItemCount, names.length - seen.length);
        else assert.equal(res.json.metadata.remainingItemCount, undefined);
        if (pages === 1) await create(CMS, configMap('p-z-late'));
      } while (cont);
      assert.equal(pages, 3);
      assert.deepEqual(seen, names, 'every page reads the snapshot of the first page, so the late create is not seen');
      assert.equal(rvs.size, 1, "all pages report the first page's resourceVersion");
    });

    it('resourceVersionMatch without resourceVersion → 422', async () => {
      const s = assertStatus(await ts.request('GET', `${CMS}?resourceVersionMatch=NotOlderThan`), 422, 'Invalid');
      assert.equal(
        s.message,
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      );
      assert.equal(s.details.causes[0].reason, 'FieldValueForbidden');
      assert.equal(s.details.causes[0].field, 'resourceVersionMatch');
    });

    it('Table output for configmaps has the Name/Data/Age columns', async () => {
      await create(CMS, configMap('tabled', { data: { a: '1', b: '2' } }));
      const res = await ts.request('GET', CMS, undefined, { Accept: TABLE });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.kind, 'Table');
      assert.equal(res.json.apiVersion, 'meta.k8s.io/v1');
      assert.deepEqual(
        res.json.columnDefinitions.map((c: any) => [c.name, c.type]),
        [
          ['Name', 'string'],
          ['Data', 'string'],
          ['Age', 'string'],
        ],
      );
      assert.equal(res.json.rows.length, 1);
      assert.deepEqual(res.json.rows[0].cells.slice(0, 2), ['tabled', 2]);
      assert.equal(res.json.rows[0].object.kind, 'PartialObjectMetadata');
      assert.equal(res.json.rows[0].object.metadata.name, 'tabled');
    });

    it('a watch from a compacted resourceVersion → 200 and one 410 Expired ERROR event (R9.10)', async () => {
      const first = await create(CMS, configMap('compact-a'));
      await create(CMS, configMap('compact-b'));
      await create(CMS, configMap('compact-c'));
      const backend = ts.server.registry.backend;
      await backend.compact(await backend.currentRevision());

      const { status, events } = await readWatch(`${ts.url}${CMS}?watch=true&resourceVersion=${first.metadata.resourceVersion}`);
      assert.equal(status, 200);
      assert.equal(events.length, 1, JSON.stringify(events));
      assert.equal(events[0].type, 'ERROR');
      const s = events[0].object;
      assert.equal(s.kind, 'Status');
      assert.equal(s.status, 'Failure');
      assert.equal(s.code, 410);
      assert.equal(s.reason, 'Expired');
      assert.match(s.message, /^too old resource version: \d+ \(\d+\)$|^The resourceVersion for the provided watch is too old\.$/);
    });
  });
});
