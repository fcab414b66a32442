import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 19, wire fidelity: query parameters converted as apimachinery converts url.Values (Go booleans, strconv
 * numbers, first value of a repeated parameter), ListOptions validated as kube-apiserver validates them, paths
 * taken as sent (no dot segment resolved, no empty segment dropped), and JSON bodies as Go's encoder writes them.
 */

const NS = 'wire';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;

type RawResponse = Awaited<ReturnType<TestServer['request']>>;

function assertStatus(res: RawResponse, code: number, reason: string, message?: string): void {
  assert.equal(res.status, code, res.text);
  assert.equal(res.json?.kind, 'Status', res.text);
  assert.equal(res.json.reason, reason, res.text);
  assert.equal(res.json.code, code);
  if (message !== undefined) assert.equal(res.json.message, message);
}

/** A watch's events; the watch must end on its own (timeoutSeconds), which bounds the read. */
function events(res: RawResponse): any[] {
  return res.text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

describe('wire fidelity: query parameters, paths and JSON bodies (issue 19)', () => {
  let ts: TestServer;
  let rv: string;

  before(async () => {
    ts = await startTestServer();
    assert.equal((await ts.request('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
    for (const name of ['a', 'b', 'c']) {
      const res = await ts.request('POST', CMS, { metadata: { name }, data: { html: '<b>&</b>' } });
      assert.equal(res.status, 201, res.text);
      rv = res.json.metadata.resourceVersion;
    }
  });

  after(async () => {
    await ts.stop();
  });

  describe('booleans (Convert_Slice_string_To_bool)', () => {
    it('starts a watch for watch=True (the Python client), watch= and watch=yes; lists for watch=FALSE and watch=0', async () => {
      for (const value of ['True', '', 'yes']) {
        const res = await ts.request('GET', `${CMS}?watch=${value}&timeoutSeconds=1`);
        assert.equal(res.status, 200, value);
        assert.deepEqual(
          events(res).map((e) => [e.type, e.object.metadata.name]),
          [
            ['ADDED', 'a'],
            ['ADDED', 'b'],
            ['ADDED', 'c'],
          ],
          value,
        );
      }
      for (const value of ['FALSE', 'fAlse', '0']) {
        const res = await ts.request('GET', `${CMS}?watch=${value}`);
        assert.equal(res.json.kind, 'ConfigMapList', value);
      }
    });

    it('reads only the first value of a repeated parameter', async () => {
      const res = await ts.request('GET', `${CMS}?watch=false&watch=true&limit=1&limit=x`);
      assert.equal(res.json.kind, 'ConfigMapList');
      assert.equal(res.json.items.length, 1);
    });

    it('answers a GET of one object even with ?watch (only collections watch)', async () => {
      const res = await ts.request('GET', `${CMS}/a?watch=true`);
      assert.equal(res.status, 200);
      assert.equal(res.json.kind, 'ConfigMap');
      assert.equal(res.json.metadata.name, 'a');
    });
  });

  describe('integers (strconv.ParseInt)', () => {
    it('accepts a leading plus and the int64 maximum', async () => {
      const one = await ts.request('GET', `${CMS}?limit=%2B1`);
      assert.equal(one.json.items.length, 1);
      assert.ok(one.json.metadata.continue);
      const all = await ts.request('GET', `${CMS}?limit=9223372036854775807`);
      assert.equal(all.status, 200, all.text);
      assert.equal(all.json.items.length, 3);
    });

    it('answers 400 with strconv’s words for empty, fractional, spaced and out-of-range values', async () => {
      const cases: [string, string][] = [
        ['limit=', 'strconv.ParseInt: parsing "": invalid syntax'],
        ['limit=1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
        ['limit=+1', 'strconv.ParseInt: parsing " 1": invalid syntax'],
        ['limit=9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
        ['timeoutSeconds=abc&limit=x', 'strconv.ParseInt: parsing "abc": invalid syntax'],
      ];
      for (const [query, message] of cases) assertStatus(await ts.request('GET', `${CMS}?${query}`), 400, 'BadRequest', message);
      assertStatus(
        await ts.request('DELETE', `${CMS}/a?gracePeriodSeconds=1e3`),
        400,
        'BadRequest',
        'strconv.ParseInt: parsing "1e3": invalid syntax',
      );
    });

    it('ends a watch with a negative timeoutSeconds at once', async () => {
      const started = Date.now();
      const res = await ts.request('GET', `${CMS}?watch=1&timeoutSeconds=-1&resourceVersion=${rv}`);
      assert.equal(res.status, 200);
      assert.ok(Date.now() - started < 5000);
    });
  });

  describe('resourceVersion (strconv.ParseUint)', () => {
    it('refuses what is not a decimal uint64 on lists, watches and gets with a 400', async () => {
      for (const value of ['%201', '0x10', '1e3', '-1', '99999999999999999999']) {
        const decoded = decodeURIComponent(value);
        const why = decoded === '99999999999999999999' ? 'value out of range' : 'invalid syntax';
        const message = `resourceVersion: Invalid value: "${decoded}": strconv.ParseUint: parsing "${decoded}": ${why}`;
        assertStatus(await ts.request('GET', `${CMS}?resourceVersion=${value}`), 400, 'BadRequest', message);
        assertStatus(await ts.request('GET', `${CMS}?watch=1&resourceVersion=${value}`), 400, 'BadRequest', message);
        assertStatus(await ts.request('GET', `${CMS}/a?resourceVersion=${value}`), 400, 'BadRequest', message);
        // A paged list reads etcd in kube-apiserver, whose store words it with a prefix.
        assertStatus(
          await ts.request('GET', `${CMS}?limit=1&resourceVersion=${value}`),
          400,
          'BadRequest',
          `invalid resource version: ${message}`,
        );
      }
    });

    it('serves a GET at a version storage has, and a future one as the watch cache does: 504 with ResourceVersionTooLarge', async () => {
      const ok = await ts.request('GET', `${CMS}/a?resourceVersion=${rv}`);
      assert.equal(ok.status, 200);
      for (const path of [`${CMS}/a?resourceVersion=99999999`, `${CMS}?resourceVersion=99999999`]) {
        const res = await ts.request('GET', path);
        assertStatus(res, 504, 'Timeout');
        assert.match(res.json.message, /^Too large resource version: 99999999, current: \d+$/);
        assert.deepEqual(res.json.details, {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds: 1,
        });
      }
    });
  });

  describe('ListOptions validation (ValidateListOptions)', () => {
    it('words each rule as kube-apiserver does', async () => {
      const cases: [string, string][] = [
        [
          'resourceVersionMatch=Latest&resourceVersion=1',
          'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Latest": supported values: "Exact", "NotOlderThan", ""',
        ],
        [
          'sendInitialEvents=false',
          'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
        ],
        [
          'watch=1&resourceVersionMatch=NotOlderThan',
          'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        ],
        [
          'watch=1&sendInitialEvents=true',
          'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        ],
      ];
      for (const [query, message] of cases) assertStatus(await ts.request('GET', `${CMS}?${query}`), 422, 'Invalid', message);
    });

    it('starts a watch with sendInitialEvents=false from now, and replays the state for sendInitialEvents=true', async () => {
      const fromNow = await ts.request('GET', `${CMS}?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&timeoutSeconds=1`);
      assert.deepEqual(events(fromNow), []);
      const replay = await ts.request(
        'GET',
        `${CMS}?watch=1&sendInitialEvents=True&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=1&timeoutSeconds=1`,
      );
      const seen = events(replay);
      assert.deepEqual(
        seen.slice(0, 4).map((e) => e.type),
        ['ADDED', 'ADDED', 'ADDED', 'BOOKMARK'],
      );
      assert.equal(seen[3].object.metadata.annotations['k8s.io/initial-events-end'], 'true');
    });
  });

  describe('GET and DELETE options', () => {
    it('refuses ?export once it is not false', async () => {
      assertStatus(
        await ts.request('GET', `${CMS}/a?export=1`),
        400,
        'BadRequest',
        'the export parameter, deprecated since v1.14, is no longer supported',
      );
      assert.equal((await ts.request('GET', `${CMS}/a?export=false`)).status, 200);
    });

    it('takes a present but empty propagationPolicy as a value, and uid/resourceVersion as preconditions', async () => {
      assertStatus(
        await ts.request('DELETE', `${CMS}/a?propagationPolicy=`),
        422,
        'Invalid',
        'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "": supported values: "Foreground", "Background", "Orphan", "nil"',
      );
      const conflict = await ts.request('DELETE', `${CMS}/a?uid=not-the-uid`);
      assertStatus(conflict, 409, 'Conflict');
      assert.match(conflict.json.message, /the UID in the precondition \(not-the-uid\) does not match the UID in record/);
      assert.equal((await ts.request('GET', `${CMS}/a`)).status, 200);
    });
  });

  describe('paths are taken as sent', () => {
    it('never resolves ".." or "." : a name "." or ".." is a 400 and nothing else is reached', async () => {
      assertStatus(await ts.request('GET', `${CMS}/..`), 400, 'BadRequest', 'Name parameter invalid: "..": may not be \'..\'');
      assertStatus(await ts.request('GET', `${CMS}/%2e%2e`), 400, 'BadRequest', 'Name parameter invalid: "..": may not be \'..\'');
      assertStatus(await ts.request('DELETE', `${CMS}/.`), 400, 'BadRequest', 'Name parameter invalid: ".": may not be \'.\'');
      assertStatus(await ts.request('GET', `${CMS}/a%25b`), 400, 'BadRequest', 'Name parameter invalid: "a%b": may not contain \'%\'');
      // One segment too many: no route, and above all no deletion of the collection.
      assertStatus(await ts.request('DELETE', `${CMS}/a/..`), 404, 'NotFound');
      assertStatus(await ts.request('GET', `${CMS}/a/..`), 404, 'NotFound');
      assert.equal((await ts.request('GET', CMS)).json.items.length, 3);
      assertStatus(await ts.request('GET', '/api/v1/../../api/v1/secrets'), 404, 'NotFound');
    });

    it('keeps a namespace ".." a namespace: no cluster-wide list', async () => {
      assert.equal((await ts.request('POST', `/api/v1/namespaces/${NS}/secrets`, { metadata: { name: 's' } })).status, 201);
      for (const target of ['/api/v1/namespaces/%2e%2e/secrets', '/api/v1/namespaces/../secrets']) {
        const res = await ts.request('GET', target);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.json.items, []);
      }
    });

    it('drops no empty segment: one inside a path routes nowhere, an empty namespace is every namespace', async () => {
      assertStatus(await ts.request('GET', `/api/v1/namespaces/${NS}//configmaps`), 404, 'NotFound');
      assertStatus(await ts.request('GET', `/api/v1//namespaces/${NS}/configmaps`), 404, 'NotFound');
      const everywhere = await ts.request('GET', '/api/v1/namespaces//configmaps');
      assert.equal(everywhere.json.kind, 'ConfigMapList');
      assert.ok(everywhere.json.items.some((cm: any) => cm.metadata.namespace === NS));
      assertStatus(await ts.request('GET', '/api/v1/namespaces//configmaps/a'), 400, 'BadRequest', 'Namespace parameter required.');
      assertStatus(await ts.request('GET', `/api/v1/namespaces/${NS}/pods//status`), 400, 'BadRequest', 'name must be provided');
    });

    it('answers a malformed escape with a 400 Status', async () => {
      const res = await ts.request('GET', `${CMS}/a%zz`);
      assertStatus(res, 400, 'BadRequest');
      assert.match(res.json.message, /invalid URL escape "%zz"/);
    });
  });

  describe('JSON bodies as Go writes them', () => {
    it('ends objects, lists, Status errors and discovery with a newline and escapes <, > and &', async () => {
      for (const target of [`${CMS}/a`, CMS, `${CMS}/missing`, '/api', '/api/v1', '/apis']) {
        const res = await ts.request('GET', target);
        assert.ok(res.text.endsWith('}\n'), `${target}: ${JSON.stringify(res.text.slice(-20))}`);
        assert.equal(res.text.indexOf('\n'), res.text.length - 1, target);
      }
      const obj = await ts.request('GET', `${CMS}/a`);
      assert.ok(obj.text.includes('"html":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"'), obj.text);
    });

    it('writes one watch event per line, each ending with its newline', async () => {
      const res = await ts.request('GET', `${CMS}?watch=1&timeoutSeconds=1`);
      const lines = res.text.split('\n');
      assert.equal(lines.pop(), '');
      assert.equal(lines.length, 3);
      for (const line of lines) assert.equal(JSON.parse(line).type, 'ADDED');
    });

    it('serves /version indented without a newline (WriteRawJSON)', async () => {
      const res = await ts.request('GET', '/version');
      assert.ok(res.text.startsWith('{\n  "major": "1",\n'), res.text);
      assert.ok(res.text.endsWith('}'));
    });
  });

  it('lets the Python client watch with watch=True', async () => {
    const script = [
      'import sys',
      'from kubernetes import client, watch',
      'cfg = client.Configuration()',
      'cfg.host = sys.argv[1]',
      'api = client.CoreV1Api(client.ApiClient(cfg))',
      'w = watch.Watch()',
      `for e in w.stream(api.list_namespaced_config_map, "${NS}", timeout_seconds=1):`,
      '    print(e["type"], e["object"].metadata.name)',
    ].join('\n');
    const out = await new Promise<string>((resolve, reject) => {
      execFile('/usr/bin/python3', ['-c', script, ts.url], { timeout: 30_000 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`${err.message}\n${stderr}`));
        else resolve(stdout);
      });
    });
    assert.deepEqual(out.trim().split('\n'), ['ADDED a', 'ADDED b', 'ADDED c']);
  });
});
