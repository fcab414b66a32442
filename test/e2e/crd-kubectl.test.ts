import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CLEANUP_FINALIZER,
  CRDS_PATH,
  type CrdApi,
  crdApi,
  crdFor,
  crdVersion,
  type CustomKind,
  conditionOf,
  crCollectionPath,
  crPath,
  customResource,
  WIDGET,
  widgetCrd,
} from '../support/crd-fixtures.js';
import { HOLD_FINALIZER, type Json } from '../support/gc-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// CustomResourceDefinitions through the real kubectl (issue 5; spec §7 REST mapping, §8 discovery; scenarios
// DISC-02, DISC-04, DISC-05, DISC-07, DISC-08, CRD-03).
const NS = 'default';

const GIZMO: CustomKind = { group: 'example.com', version: 'v1', plural: 'gizmos', kind: 'Gizmo', namespaced: false };
const THING_A: CustomKind = { group: 'a.example.com', version: 'v1', plural: 'things', kind: 'Thing', namespaced: true };
const THING_B: CustomKind = { group: 'b.example.com', version: 'v1', plural: 'things', kind: 'Thing', namespaced: true };

const json = (obj: Json): string => JSON.stringify(obj);

/** Table rows of kubectl output with runs of spaces collapsed. */
function rows(output: string): string[] {
  return output
    .split('\n')
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter((l) => l !== '');
}

describe('kubectl: custom resources', () => {
  let ts: TestServer;
  let api: CrdApi;

  before(async () => {
    ts = await startTestServer();
    api = crdApi(ts);
    await api.createEstablished(widgetCrd());
    await api.createEstablished(crdFor(GIZMO, { categories: ['gadgets'] }));
    await ts.kubectlOk(['create', '-f', '-'], {
      input: json(
        customResource(WIDGET, NS, 'w1', {
          spec: {
            size: 2,
            port: 'http',
            extra: { anything: { nested: [1, 'two'] } },
            template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inner' }, data: { a: 'b' } },
          },
        }),
      ),
    });
    await ts.kubectlOk(['create', '-f', '-'], { input: json(customResource(GIZMO, undefined, 'g1', { spec: { shiny: true } })) });
  });
  after(async () => {
    await ts.stop();
  });

  it('DISC-02, R8.6: kubectl api-resources lists the CRD with short names, verbs and categories', async () => {
    const plain = await ts.kubectlOk(['api-resources', '--api-group=example.com']);
    assert.equal(
      plain,
      [
        'NAME      SHORTNAMES   APIVERSION       NAMESPACED   KIND',
        'gizmos                 example.com/v1   false        Gizmo',
        'widgets   wd           example.com/v1   true         Widget',
        '',
      ].join('\n'),
    );
    const wide = rows(await ts.kubectlOk(['api-resources', '--api-group=example.com', '-o', 'wide']));
    assert.deepEqual(wide.slice(1), [
      'gizmos example.com/v1 false Gizmo delete,deletecollection,get,list,patch,create,update,watch gadgets',
      'widgets wd example.com/v1 true Widget delete,deletecollection,get,list,patch,create,update,watch all,gadgets',
    ]);
    const all = rows(await ts.kubectlOk(['api-resources']));
    assert.ok(all.includes('widgets wd example.com/v1 true Widget'), all.join('\n'));
    const byCategory = rows(await ts.kubectlOk(['api-resources', '--categories=gadgets', '-o', 'name']));
    assert.deepEqual(byCategory, ['gizmos.example.com', 'widgets.example.com']);
  });

  it('DISC-04, R7.7, R7.13: plural, singular, short name, plural.group, plural.version.group and a group prefix all resolve', async () => {
    for (const arg of ['widgets', 'widget', 'wd', 'widgets.example.com', 'widgets.v1.example.com', 'widgets.example', 'wd.example']) {
      const out = await ts.kubectlOk(['get', arg, '-n', NS, '-o', 'name']);
      assert.equal(out, 'widget.example.com/w1\n', `kubectl get ${arg}`);
    }
    const unknown = await ts.kubectl(['get', 'widgetz', '-n', NS]);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /error: the server doesn't have a resource type "widgetz"/);
  });

  it('DISC-05, R7.14: `kubectl get all` includes the CRD; a custom category lists exactly its members', async () => {
    const all = await ts.kubectlOk(['get', 'all', '-n', NS, '-o', 'name']);
    assert.ok(all.split('\n').includes('widget.example.com/w1'), all);
    assert.doesNotMatch(all, /gizmo/, 'gizmos are not in the "all" category');
    const gadgets = await ts.kubectlOk(['get', 'gadgets', '-n', NS, '-o', 'name']);
    assert.deepEqual(gadgets.trim().split('\n').sort(), ['gizmo.example.com/g1', 'widget.example.com/w1']);
  });

  it('DISC-08: kubectl explain shows the published schema of the custom kind', async () => {
    const out = await ts.kubectlOk(['explain', 'widget.spec']);
    assert.match(out, /^GROUP:\s+example\.com$/m);
    assert.match(out, /^KIND:\s+Widget$/m);
    assert.match(out, /^VERSION:\s+v1$/m);
    assert.match(out, /^FIELD: spec <Object>$/m);
    assert.match(out, /WidgetSpec is the desired state of a widget\./);
    assert.match(out, /^ {2}size\t<integer>$/m);
    assert.match(out, /How many parts the widget has\./);
    assert.match(out, /^ {2}color\t<string>$/m);
    assert.match(out, /enum: red, green, blue/);
    assert.match(out, /^ {2}extra\t<Object>$/m);
    assert.match(out, /^ {2}template\t<Object>$/m);
    const top = await ts.kubectlOk(['explain', 'widgets']);
    assert.match(top, /^ {2}metadata\t<ObjectMeta>$/m);
    assert.match(top, /^ {2}spec\t<Object>$/m);
  });

  it('R9.6: invalid instances are rejected with 422 and the field paths (minimum, enum, type, embedded resource)', async () => {
    const bad = (spec: Json): string => json(customResource(WIDGET, NS, 'bad', { spec }));
    const range = await ts.kubectl(['create', '-f', '-'], { input: bad({ size: 0, color: 'purple' }) });
    assert.notEqual(range.code, 0);
    assert.equal(
      range.stderr,
      'The Widget "bad" is invalid: \n' +
        '* spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1\n' +
        '* spec.color: Unsupported value: "purple": supported values: "red", "green", "blue"\n',
    );
    const type = await ts.kubectl(['create', '-f', '-'], { input: bad({ size: 'big' }) });
    assert.equal(
      type.stderr,
      'The Widget "bad" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"\n',
    );
    const embedded = await ts.kubectl(['create', '-f', '-'], { input: bad({ template: { metadata: { name: 'x' } } }) });
    assert.equal(
      embedded.stderr,
      'The Widget "bad" is invalid: \n* spec.template.apiVersion: Required value\n* spec.template.kind: Required value\n',
    );

    const res = await ts.request(
      'POST',
      crCollectionPath(WIDGET, NS),
      customResource(WIDGET, NS, 'bad', { spec: { size: 0, color: 'purple' } }),
    );
    assert.equal(res.status, 422);
    assert.equal(res.json.reason, 'Invalid');
    assert.equal(
      res.json.message,
      'Widget.example.com "bad" is invalid: [spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1, ' +
        'spec.color: Unsupported value: "purple": supported values: "red", "green", "blue"]',
    );
    assert.deepEqual(res.json.details, {
      name: 'bad',
      group: 'example.com',
      kind: 'Widget',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 0: spec.size in body should be greater than or equal to 1',
          field: 'spec.size',
        },
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "purple": supported values: "red", "green", "blue"',
          field: 'spec.color',
        },
      ],
    });
    assert.equal((await ts.request('GET', crPath(WIDGET, NS, 'bad'))).status, 404);
  });

  it("--validate=strict (kubectl's default): an unknown field is a 400 strict decoding error; --validate=warn prunes it", async () => {
    const input = json(customResource(WIDGET, NS, 'strict', { spec: { size: 2, bogus: 1, extra: { kept: 1 } } }));
    const strict = await ts.kubectl(['create', '--validate=strict', '-f', '-'], { input });
    assert.notEqual(strict.code, 0);
    assert.equal(
      strict.stderr,
      'Error from server (BadRequest): error when creating "STDIN": Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.bogus"\n',
    );
    assert.deepEqual(await ts.kubectl(['create', '-f', '-'], { input }), strict);
    const warn = await ts.kubectl(['create', '--validate=warn', '-f', '-'], { input });
    assert.equal(warn.code, 0, warn.stderr);
    assert.match(warn.stderr, /Warning: unknown field "spec\.bogus"/);
    const stored = (await ts.request('GET', crPath(WIDGET, NS, 'strict'))).json;
    assert.deepEqual(stored.spec, { size: 2, color: 'red', extra: { kept: 1 } }, 'pruned, defaulted, preserve-unknown-fields kept');
    await ts.kubectlOk(['delete', 'widget', 'strict', '-n', NS]);
  });

  it('schema defaults, int-or-string, preserved and embedded subtrees are stored as sent', async () => {
    const w1 = (await ts.request('GET', crPath(WIDGET, NS, 'w1'))).json;
    assert.deepEqual(w1.spec, {
      size: 2,
      color: 'red',
      port: 'http',
      extra: { anything: { nested: [1, 'two'] } },
      template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inner' }, data: { a: 'b' } },
    });
    await ts.kubectlOk(['create', '-f', '-'], { input: json(customResource(WIDGET, NS, 'numeric', { spec: { port: 8080 } })) });
    const numeric = (await ts.request('GET', crPath(WIDGET, NS, 'numeric'))).json;
    assert.deepEqual(numeric.spec, { size: 3, color: 'red', port: 8080 });
    await ts.kubectlOk(['delete', 'widget', 'numeric', '-n', NS]);
  });

  it('kubectl apply updates a custom resource with a merge patch: the OpenAPI documents offer no strategic merge patch for it', async () => {
    const applied = (size: number): string => json(customResource(WIDGET, NS, 'applied', { spec: { size, color: 'blue' } }));
    await ts.kubectlOk(['apply', '-f', '-'], { input: applied(2) });
    const out = await ts.kubectlOk(['apply', '-f', '-'], { input: applied(4) });
    assert.match(out, /widget\.example\.com\/applied configured/);
    assert.equal((await ts.request('GET', crPath(WIDGET, NS, 'applied'))).json.spec.size, 4);
    const v3 = (await ts.request('GET', `/openapi/v3/apis/${WIDGET.group}/${WIDGET.version}`)).json;
    const patch = v3.paths[`/apis/${WIDGET.group}/${WIDGET.version}/namespaces/{namespace}/${WIDGET.plural}/{name}`].patch;
    assert.deepEqual(Object.keys(patch.requestBody.content), [
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    await ts.kubectlOk(['delete', 'widget', 'applied', '-n', NS]);
  });

  it('kubectl get prints the additionalPrinterColumns', async () => {
    await ts.kubectlOk(['patch', 'widget', 'w1', '-n', NS, '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Ready"}}']);
    const out = await ts.kubectlOk(['get', 'widgets', '-n', NS]);
    assert.deepEqual(rows(out), ['NAME SIZE COLOR PHASE', 'w1 2 red Ready']);
    // A CRD without printer columns shows Name and Age.
    const gizmos = rows(await ts.kubectlOk(['get', 'gizmos']));
    assert.equal(gizmos[0], 'NAME AGE');
    assert.match(gizmos[1] ?? '', /^g1 \d+s$/);
  });

  it('R1.9: with a status subresource, /status changes only status, the main resource ignores status, and only spec changes bump generation', async () => {
    await ts.kubectlOk(['create', '-f', '-'], {
      input: json(customResource(WIDGET, NS, 'gen', { spec: { size: 4 }, status: { phase: 'Ignored' } })),
    });
    const created = (await ts.request('GET', crPath(WIDGET, NS, 'gen'))).json;
    assert.equal(created.metadata.generation, 1);
    assert.equal(created.status, undefined, 'status is dropped on create');

    await ts.kubectlOk([
      'patch',
      'widget',
      'gen',
      '-n',
      NS,
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"phase":"Running"},"spec":{"size":9}}',
    ]);
    const afterStatus = (await ts.request('GET', crPath(WIDGET, NS, 'gen'))).json;
    assert.deepEqual(afterStatus.status, { phase: 'Running' });
    assert.equal(afterStatus.spec.size, 4, 'spec sent to /status is ignored');
    assert.equal(afterStatus.metadata.generation, 1, 'status changes do not bump generation');

    await ts.kubectlOk(['patch', 'widget', 'gen', '-n', NS, '--type=merge', '-p', '{"status":{"phase":"Hacked"},"spec":{"size":5}}']);
    const afterSpec = (await ts.request('GET', crPath(WIDGET, NS, 'gen'))).json;
    assert.deepEqual(afterSpec.status, { phase: 'Running' }, 'status sent to the main resource is ignored');
    assert.equal(afterSpec.spec.size, 5);
    assert.equal(afterSpec.metadata.generation, 2);

    await ts.kubectlOk(['label', 'widget', 'gen', '-n', NS, 'tier=gold']);
    const afterLabel = (await ts.request('GET', crPath(WIDGET, NS, 'gen'))).json;
    assert.equal(afterLabel.metadata.generation, 2, 'metadata changes do not bump generation');
    await ts.kubectlOk(['delete', 'widget', 'gen', '-n', NS]);
  });

  it('a cluster-scoped CRD serves its instances outside namespaces', async () => {
    assert.equal(await ts.kubectlOk(['get', 'gizmos', '-o', 'name']), 'gizmo.example.com/g1\n');
    assert.equal(
      await ts.kubectlOk(['get', 'gizmo', 'g1', '-n', 'kube-system', '-o', 'jsonpath={.metadata.namespace}|{.spec.shiny}']),
      '|true',
    );
    const namespaced = await ts.request('GET', `/apis/example.com/v1/namespaces/${NS}/gizmos/g1`);
    assert.equal(namespaced.status, 404);
  });

  it('DISC-02: two CRDs with the same plural in different groups are each reachable by their full name', async () => {
    await api.createEstablished(crdFor(THING_A));
    await api.createEstablished(crdFor(THING_B));
    await ts.kubectlOk(['create', '-f', '-'], { input: json(customResource(THING_A, NS, 'from-a')) });
    await ts.kubectlOk(['create', '-f', '-'], { input: json(customResource(THING_B, NS, 'from-b')) });
    assert.equal(await ts.kubectlOk(['get', 'things.a.example.com', '-n', NS, '-o', 'name']), 'thing.a.example.com/from-a\n');
    assert.equal(await ts.kubectlOk(['get', 'things.b.example.com', '-n', NS, '-o', 'name']), 'thing.b.example.com/from-b\n');
    assert.equal(await ts.kubectlOk(['get', 'things.v1.b.example.com', '-n', NS, '-o', 'name']), 'thing.b.example.com/from-b\n');
    const rowsA = rows(await ts.kubectlOk(['api-resources', '--api-group=a.example.com']));
    assert.deepEqual(rowsA.slice(1), ['things a.example.com/v1 true Thing']);
  });

  it('NamesAccepted: a CRD whose plural another CRD of the group already holds is not accepted, serves nothing, and is accepted once the holder goes', async () => {
    const group = 'conflict.example.com';
    const gears: CustomKind = { group, version: 'v1', plural: 'gears', kind: 'Gear', namespaced: false };
    const gear: CustomKind = { group, version: 'v1', plural: 'gear', kind: 'Cog', namespaced: false };
    await api.createEstablished(crdFor(gears, { singular: 'gear' }));
    const res = await ts.request('POST', CRDS_PATH, crdFor(gear, { singular: 'cog' }));
    assert.equal(res.status, 201, res.text);
    const refused = await api.waitForCrd(
      'gear.conflict.example.com',
      (c) => conditionOf(c, 'NamesAccepted') !== undefined,
      'the naming decision',
    );
    const namesAccepted = conditionOf(refused, 'NamesAccepted');
    assert.equal(namesAccepted?.status, 'False');
    assert.equal(namesAccepted?.message, '"gear" is already in use');
    assert.deepEqual(
      { ...conditionOf(refused, 'Established'), lastTransitionTime: undefined },
      { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted', lastTransitionTime: undefined },
    );
    assert.equal(refused.status.acceptedNames.plural, '');
    // Nothing is served for the refused CRD: no discovery entry, no endpoint.
    const discovery = (await ts.request('GET', `/apis/${group}/v1`)).json;
    assert.deepEqual(
      discovery.resources.map((r: Json) => r.name),
      ['gears'],
    );
    assert.equal((await ts.request('POST', crCollectionPath(gear), customResource(gear, undefined, 'c1'))).status, 404);
    // kubectl resolves "gear" to the holder's singular.
    assert.equal(await ts.kubectlOk(['get', 'gear', '-o', 'name']), '');

    await api.deleteCrd('gears.conflict.example.com');
    const accepted = await api.waitForCrd(
      'gear.conflict.example.com',
      (c) => conditionOf(c, 'Established')?.status === 'True',
      'the waiting CRD to be established',
    );
    assert.equal(conditionOf(accepted, 'NamesAccepted')?.status, 'True');
    assert.equal(conditionOf(accepted, 'NamesAccepted')?.reason, 'NoConflicts');
    assert.equal(accepted.status.acceptedNames.plural, 'gear');
    await waitFor(
      async () =>
        (await ts.request('POST', crCollectionPath(gear), customResource(gear, undefined, 'c1'))).status === 201 ? true : undefined,
      { timeoutMs: 2000, what: 'cog c1 to be created' },
    );
    // kubectl's disk cache still maps "gear" to the deleted holder until discovery is refetched (R7.16).
    assert.deepEqual(rows(await ts.kubectlOk(['api-resources', `--api-group=${group}`])).slice(1), [
      'gear conflict.example.com/v1 false Cog',
    ]);
    assert.equal(await ts.kubectlOk(['get', 'gear', '-o', 'name']), 'cog.conflict.example.com/c1\n');
    await api.deleteCrd('gear.conflict.example.com');
    // The naming controller names the conflicting field: PluralConflict, SingularConflict, ShortNamesConflict,
    // KindConflict or ListKindConflict (apiextensions naming_controller.go).
    assert.equal(namesAccepted?.reason, 'PluralConflict');
  });

  it('CRD-03, DISC-07: deleting a CRD removes its instances, waits for their own finalizers, then drops the resource type', async () => {
    const sprocket: CustomKind = { group: 'cleanup.example.com', version: 'v1', plural: 'sprockets', kind: 'Sprocket', namespaced: true };
    const name = 'sprockets.cleanup.example.com';
    await api.createEstablished(crdFor(sprocket));
    await ts.kubectlOk(['create', '-f', '-'], { input: json(customResource(sprocket, NS, 'free')) });
    await ts.kubectlOk(['create', '-f', '-'], { input: json(customResource(sprocket, NS, 'held', {}, { finalizers: [HOLD_FINALIZER] })) });

    const del = await ts.kubectlOk(['delete', 'crd', name, '--wait=false']);
    assert.equal(del, `customresourcedefinition.apiextensions.k8s.io "${name}" deleted\n`);
    const terminating = await api.getCrd(name);
    assert.ok(terminating, 'the CRD stays while an instance is held');
    assert.ok(terminating.metadata.deletionTimestamp);
    assert.ok(terminating.metadata.finalizers.includes(CLEANUP_FINALIZER));
    assert.equal(conditionOf(terminating, 'Terminating')?.status, 'True');
    assert.equal(conditionOf(terminating, 'Terminating')?.reason, 'InstanceDeletionInProgress');

    await waitFor(async () => ((await ts.request('GET', crPath(sprocket, NS, 'free'))).status === 404 ? true : undefined), {
      timeoutMs: 3000,
      what: 'the free sprocket to go',
    });
    const held = await waitFor(
      async () => {
        const live = (await ts.request('GET', crPath(sprocket, NS, 'held'))).json;
        return live?.metadata?.deletionTimestamp === undefined ? undefined : live;
      },
      { timeoutMs: 3000, what: 'the held sprocket to be marked' },
    );
    assert.deepEqual(held.metadata.finalizers, [HOLD_FINALIZER]);

    const refused = await ts.request('POST', crCollectionPath(sprocket, NS), customResource(sprocket, NS, 'late'));
    assert.equal(refused.status, 405, refused.text);
    assert.equal(refused.json.reason, 'MethodNotAllowed');
    assert.equal(refused.json.message, 'create not allowed while custom resource definition is terminating');
    assert.ok(await api.getCrd(name), 'still held');
    assert.equal(conditionOf((await api.getCrd(name)) as Json, 'Terminating')?.status, 'True');

    await ts.kubectlOk(['patch', 'sprocket', 'held', '-n', NS, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    await waitFor(async () => ((await api.getCrd(name)) === undefined ? true : undefined), { timeoutMs: 3000, what: 'the CRD to go' });

    const resources = rows(await ts.kubectlOk(['api-resources']));
    assert.ok(!resources.some((r) => r.includes('cleanup.example.com')), 'the group is gone from discovery');
    const get = await ts.kubectl(['get', 'sprockets', '-n', NS]);
    assert.notEqual(get.code, 0);
    assert.equal(get.stderr, 'error: the server doesn\'t have a resource type "sprockets"\n');
    assert.equal((await ts.request('GET', '/apis/cleanup.example.com/v1')).status, 404);
    // R9.2: MethodNotAllowed details name the group and the plural resource (crdHandler uses NewMethodNotSupported).
    assert.deepEqual(refused.json.details, { group: 'cleanup.example.com', kind: 'sprockets' });
  });

  it('a multi-version CRD (v1 storage, v1beta1 served, conversion None) serves one object under both versions', async () => {
    const v1: CustomKind = { group: 'mv.example.com', version: 'v1', plural: 'gauges', kind: 'Gauge', namespaced: true };
    const beta: CustomKind = { ...v1, version: 'v1beta1' };
    const schema = { type: 'object', properties: { spec: { type: 'object', properties: { level: { type: 'integer' } } } } };
    await api.createEstablished(
      crdFor(v1, { versions: [crdVersion('v1beta1', { storage: false, schema }), crdVersion('v1', { storage: true, schema })] }),
    );
    const group = (await ts.request('GET', '/apis/mv.example.com')).json;
    assert.deepEqual(group.preferredVersion, { groupVersion: 'mv.example.com/v1', version: 'v1' });
    assert.deepEqual(
      group.versions.map((v: Json) => v.version),
      ['v1', 'v1beta1'],
    );

    await ts.kubectlOk(['create', '-f', '-'], { input: json(customResource(beta, NS, 'g1', { spec: { level: 7 } })) });
    const asBeta = (await ts.request('GET', crPath(beta, NS, 'g1'))).json;
    const asV1 = (await ts.request('GET', crPath(v1, NS, 'g1'))).json;
    assert.equal(asBeta.apiVersion, 'mv.example.com/v1beta1');
    assert.equal(asV1.apiVersion, 'mv.example.com/v1');
    assert.equal(asV1.metadata.uid, asBeta.metadata.uid);
    assert.deepEqual(asV1.spec, { level: 7 });
    const crd = (await api.getCrd('gauges.mv.example.com')) as Json;
    assert.deepEqual(crd.status.storedVersions, ['v1']);

    assert.equal(await ts.kubectlOk(['get', 'gauges', 'g1', '-n', NS, '-o', 'jsonpath={.apiVersion}']), 'mv.example.com/v1');
    assert.equal(
      await ts.kubectlOk(['get', 'gauges.v1beta1.mv.example.com', 'g1', '-n', NS, '-o', 'jsonpath={.apiVersion}']),
      'mv.example.com/v1beta1',
    );
    const list = (await ts.request('GET', crCollectionPath(beta, NS))).json;
    assert.equal(list.kind, 'GaugeList');
    assert.equal(list.apiVersion, 'mv.example.com/v1beta1');
    assert.deepEqual(
      list.items.map((i: Json) => i.apiVersion),
      ['mv.example.com/v1beta1'],
    );
    await api.deleteCrd('gauges.mv.example.com');
  });
});
