import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'openapi-v2';
const PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/** kubectl validates a `List` (what `kubectl get -o yaml` writes) through /openapi/v2 in gnostic protobuf (issue 31). */
describe('/openapi/v2 in protobuf: kubectl get -o yaml > f; kubectl apply -f f', () => {
  let ts: TestServer;
  const k = (...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', NS]);

  before(async () => {
    ts = await startTestServer();
    await ts.kubectlOk(['create', 'namespace', NS]);
  });
  after(async () => {
    await ts.stop();
  });

  it('applies the List that kubectl get -o yaml wrote, and again with a change', async () => {
    await k('create', 'configmap', 'one', '--from-literal=a=1');
    await k('create', 'configmap', 'two', '--from-literal=b=2');
    const backup = await k('get', 'configmap', 'one', 'two', '-o', 'yaml');
    assert.match(backup, /^kind: List$/m);
    assert.equal(
      await ts.kubectlOk(['apply', '-n', NS, '-f', '-'], { input: backup }),
      'configmap/one configured\nconfigmap/two configured\n',
    );
    // A backup carries resourceVersion and uid, so the next apply starts from a fresh one, as it must on Kubernetes.
    const fresh = await k('get', 'configmap', 'one', 'two', '-o', 'yaml');
    const changed = fresh.replace('a: "1"', 'a: "changed"');
    assert.equal(
      await ts.kubectlOk(['apply', '-n', NS, '-f', '-'], { input: changed }),
      'configmap/one configured\nconfigmap/two configured\n',
    );
    assert.equal(await k('get', 'configmap', 'one', '-o', 'jsonpath={.data.a}'), 'changed');
  });

  it("refuses a List item's unknown field and wrong type from the protobuf schemas, as kubectl does against kube-apiserver", async () => {
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad', labels: [1] }, bogus: 1, immutable: 'x' }],
    };
    const r = await ts.kubectl(['apply', '-n', NS, '-f', '-'], { input: JSON.stringify(list) });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /unknown field "bogus" in io\.k8s\.api\.core\.v1\.ConfigMap/);
    assert.match(
      r.stderr,
      /ValidationError\(ConfigMap\.immutable\): invalid type for io\.k8s\.api\.core\.v1\.ConfigMap\.immutable: got "string", expected "boolean"/,
    );
    assert.match(r.stderr, /ObjectMeta\.labels: got "array", expected "map"/);
    assert.equal((await ts.kubectl(['get', 'configmap', 'bad', '-n', NS])).code, 1, 'nothing was created');
  });

  it('kubectl explain still works', async () => {
    assert.match(await ts.kubectlOk(['explain', 'pods.spec.containers.image']), /FIELD: image <string>/);
  });

  it('serves protobuf and JSON with one ETag (upper-case SHA-512 hex of the JSON), 304 on If-None-Match, Vary: Accept', async () => {
    const json = await ts.request('GET', '/openapi/v2', undefined, { Accept: 'application/json' });
    assert.equal(json.status, 200);
    const etag = json.headers.get('etag') ?? '';
    assert.match(etag, /^"[0-9A-F]{128}"$/);
    assert.equal(json.headers.get('vary'), 'Accept');
    const pb = await ts.request('GET', '/openapi/v2', undefined, { Accept: PROTOBUF });
    assert.equal(pb.status, 200);
    assert.equal(pb.headers.get('content-type'), 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    assert.equal(pb.headers.get('etag'), etag);
    assert.ok(Number(pb.headers.get('content-length')) > 100_000);
    const again = await ts.request('GET', '/openapi/v2', undefined, { Accept: PROTOBUF, 'If-None-Match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    // Preference by quality: protobuf asked for first but with a lower q than JSON gets JSON.
    const preferred = await ts.request('GET', '/openapi/v2', undefined, { Accept: `${PROTOBUF};q=0.5, application/json` });
    assert.equal(preferred.headers.get('content-type'), 'application/json');
    const refused = await ts.request('GET', '/openapi/v2', undefined, { Accept: 'text/html' });
    assert.equal(refused.status, 406);
    assert.equal(refused.json.kind, 'Status');
  });
});
