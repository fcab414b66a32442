import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { ApiClient } from '../client/interface.js';
import { describeDiscoveryFailures } from '../client/http-discovery.js';
import { FLUNDERS } from '../../test/support/sample-api-server.js';
import { createAggregatedApiClient } from './aggregated-client.js';
import { type AggregatorFixture, startAggregatorFixture, until } from './testing/fixture.js';

const CONTROLLER = {
  name: 'system:serviceaccount:kube-system:namespace-controller',
  groups: ['system:serviceaccounts', 'system:authenticated'],
};

function flunder(name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name, ...extra } };
}

describe('the aggregator: discovery, diagnostics and the aggregated ApiClient', () => {
  let f: AggregatorFixture;
  let client: ApiClient;

  before(async () => {
    f = await startAggregatorFixture();
    client = createAggregatedApiClient(f.aggregator, CONTROLLER);
  });
  after(() => f.close());

  test('before the APIService exists nothing is aggregated; once available its resources are discoverable', async () => {
    assert.equal(f.aggregator.serves('wardle.example.com', 'v1alpha1'), false);
    let changes = 0;
    const unsubscribe = f.aggregator.onChange(() => changes++);
    await f.wireAll();
    await until(() => f.aggregator.resources().length > 0, 'aggregated resources');
    unsubscribe();
    assert.ok(changes > 0);
    assert.equal(f.aggregator.serves('wardle.example.com', 'v1alpha1'), true);
    const [info] = f.aggregator.resources();
    assert.equal(info?.plural, 'flunders');
    assert.equal(info?.kind, 'Flunder');
    assert.equal(info?.namespaced, true);
    assert.ok(info?.verbs.includes('deletecollection'));
    assert.deepEqual(f.aggregator.discoveryFailures(), []);
    assert.equal(f.aggregator.describeFailure('wardle.example.com', 'v1alpha1'), undefined);
    assert.deepEqual(
      f.aggregator.remoteGroupVersions().map((r) => [r.group, r.version, r.resources?.resources.length]),
      [['wardle.example.com', 'v1alpha1', 1]],
    );
  });

  test('the aggregated client creates, reads, lists, patches, watches and deletes through the backend as the controller', async () => {
    const created = await client.create(
      FLUNDERS,
      'ns1',
      flunder('a', {
        finalizers: ['example.com/hold'],
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u-1' }],
      }),
    );
    assert.equal(created.metadata.namespace, 'ns1');
    assert.ok(created.metadata.uid);
    const sent = f.backend.requests.filter((r) => r.method === 'POST').at(-1);
    assert.equal(sent?.user, CONTROLLER.name);
    assert.deepEqual(sent?.groups, CONTROLLER.groups);

    const got = await client.get(FLUNDERS, 'ns1', 'a');
    assert.deepEqual(got.metadata.ownerReferences, created.metadata.ownerReferences);
    const listed = await client.list(FLUNDERS, 'ns1');
    assert.deepEqual(
      listed.items.map((i) => i.metadata.name),
      ['a'],
    );

    const watch = await client.watch(FLUNDERS, 'ns1', { resourceVersion: listed.metadata.resourceVersion });
    const events: string[] = [];
    const reading = (async () => {
      for await (const event of watch) {
        events.push(`${event.type} ${(event.object as KubeObject).metadata.name}`);
        if (events.length === 3) break;
      }
    })();

    // Deleting an object with a finalizer only marks it; removing the finalizer lets it go.
    const deleted = await client.delete(FLUNDERS, 'ns1', 'a', { propagationPolicy: 'Background' });
    assert.equal(deleted.code, 200);
    assert.ok((deleted.body as KubeObject).metadata.deletionTimestamp);
    const current = await client.get(FLUNDERS, 'ns1', 'a');
    await client.patch(FLUNDERS, 'ns1', 'a', 'merge', {
      metadata: { resourceVersion: current.metadata.resourceVersion, finalizers: null },
    });
    await client.create(FLUNDERS, 'ns1', flunder('b'));
    await reading;
    watch.stop();
    assert.deepEqual(events, ['MODIFIED a', 'DELETED a', 'ADDED b']);

    await assert.rejects(
      client.get(FLUNDERS, 'ns1', 'a'),
      (err: unknown) => err instanceof StatusError && err.code === 404 && err.message === 'flunders.wardle.example.com "a" not found',
    );
    const collected = await client.deleteCollection(FLUNDERS, 'ns1', {}, { propagationPolicy: 'Background' });
    assert.deepEqual(
      collected.items.map((i) => i.metadata.name),
      ['b'],
    );
    assert.deepEqual(f.backend.flunders('ns1'), []);
  });

  test('backend down: the group-version is a discovery failure naming the APIService, and calls fail as client-go reports a 503', async () => {
    await client.create(FLUNDERS, 'ns2', flunder('kept'));
    await f.backend.stop();
    try {
      await f.waitForCondition((c) => c.status === 'False', 'Available=False');
      await until(() => f.aggregator.resources().length === 0, 'resources withdrawn');
      const failures = f.aggregator.discoveryFailures();
      // client-go's words, then (beyond Kubernetes) which APIService failed, why, and at which endpoint.
      assert.match(
        describeDiscoveryFailures(failures),
        /^unable to retrieve the complete list of server APIs: wardle\.example\.com\/v1alpha1: stale GroupVersion discovery: wardle\.example\.com\/v1alpha1 \(APIService "v1alpha1\.wardle\.example\.com" is unavailable \(FailedDiscoveryCheck\): .*; endpoint 127\.0\.0\.1:\d+\)$/,
      );
      assert.equal(f.aggregator.remoteGroupVersions()[0]?.resources, undefined);
      const description = f.aggregator.describeFailure('wardle.example.com', 'v1alpha1') ?? '';
      assert.match(
        description,
        new RegExp(
          `^APIService "v1alpha1\\.wardle\\.example\\.com" is unavailable \\(FailedDiscoveryCheck\\): failing or missing response from https://127\\.0\\.0\\.1:${f.backend.port}/apis/wardle\\.example\\.com/v1alpha1: .*; endpoint 127\\.0\\.0\\.1:${f.backend.port}$`,
        ),
      );
      await assert.rejects(
        client.list(FLUNDERS, 'ns2'),
        (err: unknown) =>
          err instanceof StatusError &&
          err.code === 503 &&
          err.reason === 'ServiceUnavailable' &&
          err.message === 'the server is currently unable to handle the request (get flunders.wardle.example.com)',
      );
    } finally {
      await f.backend.start();
    }
    await until(() => f.aggregator.resources().length > 0, 'resources back');
    assert.deepEqual(f.aggregator.discoveryFailures(), []);
    assert.deepEqual(
      (await client.list(FLUNDERS, 'ns2')).items.map((i) => i.metadata.name),
      ['kept'],
    );
  });
});
