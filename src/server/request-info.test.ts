import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestPath } from './request-info.js';

describe('parseRequestPath (RequestInfoFactory on the unresolved path)', () => {
  it('parses namespaced, cluster-wide and namespace paths', () => {
    assert.deepEqual(parseRequestPath('/api/v1/namespaces/default/configmaps/x'), {
      type: 'resource',
      group: '',
      version: 'v1',
      namespace: 'default',
      resource: 'configmaps',
      name: 'x',
      subresource: undefined,
      pathVerb: undefined,
      routable: true,
    });
    assert.deepEqual(parseRequestPath('/apis/apps/v1/deployments/'), {
      type: 'resource',
      group: 'apps',
      version: 'v1',
      namespace: undefined,
      resource: 'deployments',
      name: undefined,
      subresource: undefined,
      pathVerb: undefined,
      routable: true,
    });
    assert.deepEqual(parseRequestPath('/api/v1/namespaces/kube-system/finalize'), {
      type: 'resource',
      group: '',
      version: 'v1',
      namespace: undefined,
      resource: 'namespaces',
      name: 'kube-system',
      subresource: 'finalize',
      pathVerb: undefined,
      routable: true,
    });
  });

  it('takes "." and ".." as names, never as directions', () => {
    const up = parseRequestPath('/api/v1/namespaces/default/configmaps/..');
    assert.equal(up.type === 'resource' && up.name, '..');
    const ns = parseRequestPath('/api/v1/namespaces/../secrets');
    assert.equal(ns.type === 'resource' && ns.namespace, '..');
    const climb = parseRequestPath('/api/v1/../../api/v1/secrets');
    assert.equal(climb.type === 'resource' && climb.resource, '..');
    assert.equal(climb.type === 'resource' && climb.routable, false);
  });

  it('keeps inner empty segments: an empty namespace is every namespace, other empty segments route nowhere', () => {
    const all = parseRequestPath('/api/v1/namespaces//configmaps');
    assert.equal(all.type === 'resource' && all.namespace, '');
    assert.equal(all.type === 'resource' && all.routable, true);
    const gap = parseRequestPath('/api/v1/namespaces/x//configmaps');
    assert.deepEqual(gap.type === 'resource' && [gap.resource, gap.name, gap.routable], ['', 'configmaps', false]);
    const noName = parseRequestPath('/api/v1/namespaces/x/pods//status');
    assert.deepEqual(noName.type === 'resource' && [noName.name, noName.subresource, noName.routable], ['', 'status', true]);
    const extra = parseRequestPath('/api/v1/namespaces/x/pods/a/status/more');
    assert.equal(extra.type === 'resource' && extra.routable, false);
    assert.deepEqual(parseRequestPath('/apis//v1'), { type: 'unknown' });
    const noGroup = parseRequestPath('/apis//v1/configmaps');
    assert.equal(noGroup.type === 'resource' && noGroup.routable, false);
  });

  it('parses discovery paths', () => {
    assert.deepEqual(parseRequestPath('/api'), { type: 'discovery-api' });
    assert.deepEqual(parseRequestPath('/apis/'), { type: 'discovery-apis' });
    assert.deepEqual(parseRequestPath('/apis/apps'), { type: 'discovery-group', group: 'apps' });
    assert.deepEqual(parseRequestPath('/api/v1/'), { type: 'discovery-version', group: '', version: 'v1' });
    assert.deepEqual(parseRequestPath('/version'), { type: 'unknown' });
  });

  it('takes a leading watch or proxy segment as the verb (deprecated paths RequestInfoFactory still parses)', () => {
    const watch = parseRequestPath('/api/v1/watch/namespaces/ns/configmaps/x');
    assert.deepEqual(watch.type === 'resource' && [watch.pathVerb, watch.namespace, watch.resource, watch.name, watch.routable], [
      'watch',
      'ns',
      'configmaps',
      'x',
      true,
    ]);
    const all = parseRequestPath('/apis/apps/v1/watch/deployments');
    assert.deepEqual(all.type === 'resource' && [all.pathVerb, all.namespace, all.resource, all.name], [
      'watch',
      undefined,
      'deployments',
      undefined,
    ]);
    const ns = parseRequestPath('/api/v1/watch/namespaces/ns');
    assert.deepEqual(ns.type === 'resource' && [ns.resource, ns.name], ['namespaces', 'ns']);
    // A proxy path has no subresource and no route any more.
    const proxy = parseRequestPath('/api/v1/proxy/namespaces/ns/pods/p/extra');
    assert.deepEqual(proxy.type === 'resource' && [proxy.pathVerb, proxy.name, proxy.subresource, proxy.routable], [
      'proxy',
      'p',
      undefined,
      false,
    ]);
    // Nothing after the verb: kube-apiserver cannot build its RequestInfo.
    assert.deepEqual(parseRequestPath('/api/v1/watch'), { type: 'unknown' });
  });
});
