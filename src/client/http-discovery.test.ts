import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../api/errors.js';
import { AGGREGATED_DISCOVERY_CONTENT_TYPE } from '../discovery/negotiation.js';
import { createHttpClient, describeDiscoveryFailures } from './http-client.js';
import { sendJson, startStubServer } from './testing/stub-server.js';

const CORE_LIST = {
  kind: 'APIResourceList',
  groupVersion: 'v1',
  resources: [
    {
      name: 'pods',
      singularName: 'pod',
      namespaced: true,
      kind: 'Pod',
      verbs: ['get', 'list', 'watch', 'create', 'delete'],
      shortNames: ['po'],
      categories: ['all'],
    },
    { name: 'pods/status', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get', 'patch', 'update'] },
    { name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] },
  ],
};

/** Legacy discovery of a cluster whose metrics.k8s.io APIService is down (R8.14). */
const legacyCluster = () =>
  startStubServer((req, res) => {
    switch (req.url) {
      case '/api':
        return sendJson(res, 200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] });
      case '/api/v1':
        return sendJson(res, 200, CORE_LIST);
      case '/apis':
        return sendJson(res, 200, {
          kind: 'APIGroupList',
          apiVersion: 'v1',
          groups: [
            {
              name: 'apps',
              versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
              preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
            },
            {
              name: 'metrics.k8s.io',
              versions: [{ groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' }],
              preferredVersion: { groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' },
            },
          ],
        });
      case '/apis/apps/v1':
        return sendJson(res, 200, {
          kind: 'APIResourceList',
          apiVersion: 'v1',
          groupVersion: 'apps/v1',
          resources: [
            {
              name: 'deployments',
              singularName: 'deployment',
              namespaced: true,
              kind: 'Deployment',
              verbs: ['get', 'list'],
              shortNames: ['deploy'],
            },
            {
              name: 'deployments/scale',
              singularName: '',
              namespaced: true,
              group: 'autoscaling',
              version: 'v1',
              kind: 'Scale',
              verbs: ['get', 'patch', 'update'],
            },
          ],
        });
      default:
        if (req.url?.startsWith('/apis/metrics.k8s.io/v1beta1')) {
          res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
          return res.end('service unavailable\n');
        }
        return sendJson(res, 404, {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'not found',
          reason: 'NotFound',
          code: 404,
        });
    }
  });

test('legacy discovery folds subresources into their parents and collects a failing group-version without failing (R8.7, R8.16)', async () => {
  const stub = await legacyCluster();
  const client = createHttpClient({ server: stub.url });
  try {
    const resources = await client.discover();
    assert.deepEqual(
      resources.map((r) => `${r.group}/${r.version}/${r.plural}`),
      ['/v1/pods', 'apps/v1/deployments'],
    );
    const pods = resources[0];
    assert.ok(pods);
    assert.equal(pods.kind, 'Pod');
    assert.equal(pods.listKind, 'PodList');
    assert.equal(pods.namespaced, true);
    assert.deepEqual(pods.shortNames, ['po']);
    assert.deepEqual(pods.categories, ['all']);
    assert.deepEqual(pods.subresources, [
      { name: 'status', verbs: ['get', 'patch', 'update'] },
      { name: 'eviction', verbs: ['create'], group: 'policy', version: 'v1', kind: 'Eviction' },
    ]);
    assert.deepEqual(resources[1]?.subresources, [
      { name: 'scale', verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1', kind: 'Scale' },
    ]);

    assert.equal(client.lastDiscoveryErrors.length, 1);
    const failure = client.lastDiscoveryErrors[0];
    assert.equal(failure?.groupVersion, 'metrics.k8s.io/v1beta1');
    assert.ok(failure?.error instanceof StatusError);
    // R8.15: a non-Status 503 becomes ServiceUnavailable with client-go's message.
    assert.equal(failure.error.code, 503);
    assert.equal(failure.error.reason, 'ServiceUnavailable');
    assert.equal(failure.error.message, 'the server is currently unable to handle the request');
    assert.deepEqual(failure.error.details?.causes, [{ reason: 'UnexpectedServerResponse', message: 'service unavailable' }]);
    assert.equal(
      describeDiscoveryFailures(client.lastDiscoveryErrors),
      'unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request',
    );
  } finally {
    client.close();
    await stub.close();
  }
});

test('a request to an unavailable aggregated API is a ServiceUnavailable StatusError naming the resource (R8.14, R8.15)', async () => {
  const stub = await legacyCluster();
  const client = createHttpClient({ server: stub.url });
  try {
    await assert.rejects(client.list({ group: 'metrics.k8s.io', version: 'v1beta1', resource: 'pods' }, undefined), {
      name: 'StatusError',
      code: 503,
      reason: 'ServiceUnavailable',
      message: 'the server is currently unable to handle the request (get pods.metrics.k8s.io)',
    });
  } finally {
    client.close();
    await stub.close();
  }
});

test('aggregated discovery is used when /api and /apis both answer with it; Stale versions are failures (R8.8, R8.13)', async () => {
  const aggregated = (items: unknown[]) => ({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items });
  const stub = await startStubServer((req, res) => {
    assert.match(req.headers.accept ?? '', /^application\/json;g=apidiscovery\.k8s\.io;v=v2;as=APIGroupDiscoveryList,.*application\/json$/);
    if (req.url === '/api') {
      return sendJson(
        res,
        200,
        aggregated([
          {
            metadata: { creationTimestamp: null },
            versions: [
              {
                version: 'v1',
                freshness: 'Current',
                resources: [
                  {
                    resource: 'namespaces',
                    responseKind: { group: '', version: '', kind: 'Namespace' },
                    scope: 'Cluster',
                    singularResource: 'namespace',
                    verbs: ['get', 'list'],
                    shortNames: ['ns'],
                    subresources: [
                      { subresource: 'finalize', responseKind: { group: '', version: '', kind: 'Namespace' }, verbs: ['update'] },
                    ],
                  },
                ],
              },
            ],
          },
        ]),
        AGGREGATED_DISCOVERY_CONTENT_TYPE,
      );
    }
    if (req.url === '/apis') {
      return sendJson(
        res,
        200,
        aggregated([
          {
            metadata: { name: 'metrics.k8s.io', creationTimestamp: null },
            versions: [{ version: 'v1beta1', freshness: 'Stale' }],
          },
        ]),
        AGGREGATED_DISCOVERY_CONTENT_TYPE,
      );
    }
    res.writeHead(500);
    res.end();
  });
  const client = createHttpClient({ server: stub.url });
  try {
    const resources = await client.discover();
    assert.deepEqual(stub.requests, ['GET /api', 'GET /apis']);
    assert.equal(resources.length, 1);
    assert.deepEqual(resources[0], {
      group: '',
      version: 'v1',
      kind: 'Namespace',
      plural: 'namespaces',
      singular: 'namespace',
      namespaced: false,
      verbs: ['get', 'list'],
      shortNames: ['ns'],
      categories: [],
      subresources: [{ name: 'finalize', verbs: ['update'] }],
      listKind: 'NamespaceList',
      nameFormat: 'dns1123-subdomain',
      definition: '',
      custom: false,
    });
    assert.deepEqual(
      client.lastDiscoveryErrors.map((f) => [f.groupVersion, f.error.message]),
      [['metrics.k8s.io/v1beta1', 'stale GroupVersion discovery: metrics.k8s.io/v1beta1']],
    );
  } finally {
    client.close();
    await stub.close();
  }
});

test('/api answering 404 means no core group; an error on /apis fails discovery (R8.12)', async () => {
  let apisFails = false;
  const stub = await startStubServer((req, res) => {
    if (req.url === '/apis' && !apisFails) return sendJson(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
    if (req.url === '/apis') {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      return res.end('boom');
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('404 page not found');
  });
  const client = createHttpClient({ server: stub.url });
  try {
    assert.deepEqual(await client.discover(), []);
    assert.deepEqual(client.lastDiscoveryErrors, []);
    apisFails = true;
    await assert.rejects(client.discover(), {
      name: 'StatusError',
      code: 500,
      reason: 'InternalError',
      message: 'an error on the server ("boom") has prevented the request from succeeding',
    });
  } finally {
    client.close();
    await stub.close();
  }
});
