import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { crdApi, type CrdApi, crdFor, crdVersion, type CustomKind } from '../support/crd-fixtures.js';
import type { Json } from '../support/gc-fixtures.js';
import { startKubectl } from '../support/kubectl-process.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { startWebhookServer, type WebhookServer } from '../support/webhook-server.js';

// CRD conversion webhooks (issue 21; spec R11.85–R11.99, scenarios CONV-01 and CONV-02): a two-version CRD whose
// v1 (storage) has spec.host and spec.port and whose v2 has spec.url, converted in both directions by a real
// HTTPS webhook in this process, driven with kubectl; then the webhook's faults as Kubernetes reports them.

const NS = 'default';
const GROUP = 'conv.example.com';
const BACKEND: CustomKind = { group: GROUP, version: 'v1', plural: 'backends', kind: 'Backend', namespaced: true };
const V1 = 'backends.v1.conv.example.com';
const V2 = 'backends.v2.conv.example.com';
const TIMEOUT_MS = 1500;

type Mode = 'ok' | 'garbage' | 'wrong-uid' | 'rename' | 'relabel' | 'slow';

const objectSchema = (spec: Json): Json => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: spec } },
});

/** The conversion itself: v1 {host, port} ⇄ v2 {url}. */
function convert(obj: Json, desired: string): Json {
  const spec = obj.spec ?? {};
  if (desired === `${GROUP}/v2`) return { ...obj, apiVersion: desired, spec: { url: `http://${spec.host}:${spec.port}` } };
  const url = new URL(spec.url);
  return { ...obj, apiVersion: desired, spec: { host: url.hostname, port: Number(url.port) } };
}

describe('CRD conversion webhooks with kubectl (issue 21)', () => {
  let ts: TestServer;
  let hooks: WebhookServer;
  let api: CrdApi;
  let mode: Mode = 'ok';

  const reviews = () => hooks.received.filter((r) => r.path === '/convert').map((r) => r.request);
  const manifest = (version: 'v1' | 'v2', name: string, spec: Json): string =>
    JSON.stringify({ apiVersion: `${GROUP}/${version}`, kind: 'Backend', metadata: { name, namespace: NS }, spec });

  before(async () => {
    hooks = await startWebhookServer();
    hooks.handle('/convert', async (request) => {
      const objects: Json[] = request.objects;
      const converted = objects.map((o) => convert(o, request.desiredAPIVersion));
      if (mode === 'garbage') return { raw: { status: 200, body: '<html>' } };
      if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 500));
      if (mode === 'rename') for (const o of converted) o.metadata = { ...o.metadata, name: 'renamed' };
      if (mode === 'relabel') for (const o of converted) o.metadata = { ...o.metadata, labels: { converted: 'yes' }, generation: 99 };
      const uid = mode === 'wrong-uid' ? 'not-the-uid' : request.uid;
      return {
        review: {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'ConversionReview',
          response: { uid, convertedObjects: converted, result: { status: 'Success' } },
        },
      };
    });
    ts = await startTestServer({ conversionWebhookTimeoutMs: TIMEOUT_MS });
    api = crdApi(ts);
    const crd = crdFor(BACKEND, {
      versions: [
        crdVersion('v1', { storage: true, schema: objectSchema({ host: { type: 'string' }, port: { type: 'integer' } }) }),
        crdVersion('v2', { storage: false, schema: objectSchema({ url: { type: 'string' } }) }),
      ],
    });
    crd.spec.conversion = {
      strategy: 'Webhook',
      webhook: { clientConfig: { url: `${hooks.url}/convert`, caBundle: hooks.caBundle }, conversionReviewVersions: ['v1'] },
    };
    await api.createEstablished(crd);
  });
  after(async () => {
    await ts.stop();
    await hooks.stop();
  });

  it('stores a v2 apply in v1 and serves it at both versions; the storage version needs no call (R11.88, R11.89, R11.91)', async () => {
    const before = reviews().length;
    assert.equal(
      await ts.kubectlOk(['apply', '-f', '-'], { input: manifest('v2', 'b1', { url: 'http://h1:8080' }) }),
      'backend.conv.example.com/b1 created\n',
    );
    const sent = reviews().slice(before);
    assert.ok(sent.length >= 2, 'the object goes to the storage version, and the stored one back for the answer');
    const toStorage = sent.find((r) => r.desiredAPIVersion === `${GROUP}/v1`);
    assert.equal(toStorage?.objects.length, 1);
    assert.equal(toStorage?.objects[0].apiVersion, `${GROUP}/v2`);
    assert.deepEqual(toStorage?.objects[0].spec, { url: 'http://h1:8080' });
    assert.match(toStorage?.uid ?? '', /^[0-9a-f-]{36}$/);
    const atV1 = reviews().length;
    assert.equal(
      await ts.kubectlOk(['get', V1, 'b1', '-n', NS, '-o', 'jsonpath={.apiVersion} {.spec.host} {.spec.port}']),
      `${GROUP}/v1 h1 8080`,
    );
    assert.equal(reviews().length, atV1, 'reading the storage version calls no webhook');
    assert.equal(await ts.kubectlOk(['get', V2, 'b1', '-n', NS, '-o', 'jsonpath={.apiVersion} {.spec.url}']), `${GROUP}/v2 http://h1:8080`);
    const read = reviews().slice(atV1);
    assert.equal(read.length, 1);
    assert.equal(read[0]?.desiredAPIVersion, `${GROUP}/v2`);
  });

  it('applies at v1 over a v2-created object, and lists at v2 with one review for the page (R11.89)', async () => {
    await ts.kubectlOk(['apply', '-f', '-'], { input: manifest('v1', 'b2', { host: 'h2', port: 9000 }) });
    await ts.kubectlOk(['patch', V1, 'b1', '-n', NS, '--type=merge', '-p', '{"spec":{"port":8081}}']);
    const start = reviews().length;
    const listed = await ts.kubectlOk(['get', V2, '-n', NS, '-o', 'jsonpath={range .items[*]}{.metadata.name}={.spec.url} {end}']);
    assert.equal(listed, 'b1=http://h1:8081 b2=http://h2:9000 ');
    const sent = reviews().slice(start);
    assert.equal(sent.length, 1, 'one ConversionReview for the list');
    assert.deepEqual(
      sent[0]?.objects.map((o: Json) => o.metadata.name),
      ['b1', 'b2'],
    );
  });

  it('kubectl get -w at v2 sees changes written at v1, converted (R11.88)', async () => {
    const watch = startKubectl(ts, ['get', V2, '-n', NS, '-w', '-o', 'custom-columns=NAME:.metadata.name,URL:.spec.url']);
    try {
      await watch.waitForStdout(/b2\s+http:\/\/h2:9000/);
      await ts.kubectlOk(['patch', V1, 'b2', '-n', NS, '--type=merge', '-p', '{"spec":{"port":9001}}']);
      await watch.waitForStdout(/b2\s+http:\/\/h2:9001/);
    } finally {
      await watch.stop();
    }
  });

  it('keeps labels and annotations the webhook changes, and drops its other metadata changes (R11.95)', async () => {
    const generation = await ts.kubectlOk(['get', V1, 'b2', '-n', NS, '-o', 'jsonpath={.metadata.generation}']);
    mode = 'relabel';
    try {
      const got = await ts.kubectlOk(['get', V2, 'b2', '-n', NS, '-o', 'jsonpath={.metadata.labels} {.metadata.generation}']);
      assert.equal(got, `{"converted":"yes"} ${generation}`);
    } finally {
      mode = 'ok';
    }
  });

  it('reports a bad answer on reads as a 500 without reason (R11.93, R11.94, R11.97)', async () => {
    const gvk = `conversion webhook for ${GROUP}/v1, Kind=Backend`;
    const cases: [Mode, RegExp][] = [
      ['garbage', new RegExp(`^Error from server: ${gvk} failed: invalid character '<' looking for beginning of value\\n$`)],
      ['wrong-uid', new RegExp(`^Error from server: ${gvk} failed: expected response\\.uid="[0-9a-f-]{36}", got "not-the-uid"\\n$`)],
      ['rename', new RegExp(`^Error from server: ${gvk} returned invalid object: must have the same name: b1 != renamed\\n$`)],
      ['slow', new RegExp(`^Error from server: ${gvk} failed: Post "${hooks.url}/convert\\?timeout=2s": context deadline exceeded\\n$`)],
    ];
    for (const [m, expected] of cases) {
      mode = m;
      try {
        const r = await ts.kubectl(['get', V2, 'b1', '-n', NS]);
        assert.equal(r.code, 1, m);
        assert.match(r.stderr, expected, m);
      } finally {
        mode = 'ok';
      }
    }
    const raw = await ts.request('GET', `/apis/${GROUP}/v2/namespaces/${NS}/backends/b1`);
    assert.equal(raw.status, 200);
    mode = 'wrong-uid';
    try {
      const failed = await ts.request('GET', `/apis/${GROUP}/v2/namespaces/${NS}/backends/b1`);
      assert.equal(failed.status, 500);
      assert.equal(failed.json.reason, undefined);
      const list = await ts.request('GET', `/apis/${GROUP}/v2/namespaces/${NS}/backends`);
      assert.equal(list.status, 500);
      assert.match(list.json.message, new RegExp(`^conversion webhook for ${GROUP}/v1, Kind=BackendList failed: expected response\\.uid=`));
    } finally {
      mode = 'ok';
    }
  });

  it('refuses a write it cannot convert with 500 InternalError, storing nothing (R11.96)', async () => {
    mode = 'wrong-uid';
    try {
      const r = await ts.kubectl(['create', '-f', '-'], { input: manifest('v2', 'b3', { url: 'http://h3:1' }) });
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        new RegExp(
          `^Error from server \\(InternalError\\): error when creating "STDIN": Internal error occurred: conversion webhook for ${GROUP}/v2, Kind=Backend failed: expected response\\.uid=`,
        ),
      );
    } finally {
      mode = 'ok';
    }
    const absent = await ts.kubectl(['get', V1, 'b3', '-n', NS]);
    assert.equal(absent.stderr, `Error from server (NotFound): backends.conv.example.com "b3" not found\n`);
  });

  it('garbage-collects dependents of a custom resource deleted at the non-storage version', async () => {
    const owner = JSON.parse(await ts.kubectlOk(['get', V2, 'b2', '-n', NS, '-o', 'json']));
    await ts.kubectlOk(['create', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'b2-config',
          namespace: NS,
          ownerReferences: [{ apiVersion: `${GROUP}/v2`, kind: 'Backend', name: 'b2', uid: owner.metadata.uid }],
        },
      }),
    });
    await ts.kubectlOk(['delete', V2, 'b2', '-n', NS]);
    await waitFor(async () => (await ts.kubectl(['get', 'configmap', 'b2-config', '-n', NS])).code !== 0 || undefined, {
      timeoutMs: 5000,
      what: 'the collector to delete the dependent',
    });
  });

  it('refuses conversion stanzas as Kubernetes validates them (R11.86, quirk Q10)', async () => {
    const kind: CustomKind = { ...BACKEND, plural: 'badconvs', kind: 'BadConv' };
    const crd = crdFor(kind);
    crd.spec.conversion = {
      strategy: 'None',
      webhook: { clientConfig: { url: `${hooks.url}/convert` }, conversionReviewVersions: ['v1'] },
    };
    const none = await ts.kubectl(['create', '-f', '-'], { input: JSON.stringify(crd) });
    assert.equal(
      none.stderr,
      'The CustomResourceDefinition "badconvs.conv.example.com" is invalid: \n' +
        '* spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook\n' +
        '* spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook\n',
    );
    crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v3'] } };
    const webhook = await ts.kubectl(['create', '-f', '-'], { input: JSON.stringify(crd) });
    assert.equal(
      webhook.stderr,
      'The CustomResourceDefinition "badconvs.conv.example.com" is invalid: \n' +
        '* spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook\n' +
        '* spec.conversion.conversionReviewVersions: Invalid value: []string{"v3"}: must include at least one of v1, v1beta1\n',
    );
  });

  it('a webhook that is down fails reads and writes, and the watch ends (R11.96–R11.98)', async () => {
    const watch = startKubectl(ts, ['get', V2, '-n', NS, '-w', '-o', 'name']);
    await watch.waitForStdout(/backend\.conv\.example\.com\/b1/);
    await hooks.stop();
    await ts.kubectlOk(['patch', V1, 'b1', '-n', NS, '--type=merge', '-p', '{"spec":{"port":7000}}']);
    const refused = `Post "${hooks.url}/convert?timeout=2s": dial tcp 127.0.0.1:${hooks.port}: connect: connection refused`;
    const read = await ts.kubectl(['get', V2, 'b1', '-n', NS]);
    assert.equal(read.stderr, `Error from server: conversion webhook for ${GROUP}/v1, Kind=Backend failed: ${refused}\n`);
    const write = await ts.kubectl(['create', '-f', '-'], { input: manifest('v2', 'b4', { url: 'http://h4:1' }) });
    assert.equal(
      write.stderr,
      `Error from server (InternalError): error when creating "STDIN": Internal error occurred: conversion webhook for ${GROUP}/v2, Kind=Backend failed: ${refused}\n`,
    );
    await watch.stop();
    assert.doesNotMatch(watch.stdout(), /ERROR/);
  });
});
