import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { type MatchRequest, matchResources, ruleMatches } from './matching.js';

const cm = (labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'ns', labels },
});

function request(over: Partial<MatchRequest> = {}): MatchRequest {
  return {
    operation: 'CREATE',
    resource: { group: '', version: 'v1', resource: 'configmaps' },
    subresource: '',
    namespace: 'ns',
    name: 'c',
    object: cm(),
    oldObject: undefined,
    equivalents: () => [],
    namespaceLabels: () => ({ env: 'prod' }),
    ...over,
  };
}

const rule = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  operations: ['CREATE'],
  apiGroups: [''],
  apiVersions: ['v1'],
  resources: ['configmaps'],
  scope: '*',
  ...over,
});

test('a rule matches operation, group, version and resource, with * wildcards (R11.38)', () => {
  assert.equal(ruleMatches(rule(), request()), true);
  assert.equal(ruleMatches(rule({ operations: ['UPDATE'] }), request()), false);
  assert.equal(ruleMatches(rule({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }), request()), true);
  assert.equal(ruleMatches(rule({ apiGroups: ['apps'] }), request()), false);
});

test('resources split at the first slash: * is no subresource, pods/* also the main resource (R11.39, Q3)', () => {
  const status = request({ resource: { group: '', version: 'v1', resource: 'pods' }, subresource: 'status', operation: 'UPDATE' });
  const main = request({ resource: { group: '', version: 'v1', resource: 'pods' }, operation: 'UPDATE' });
  const r = (resources: string[]) => rule({ operations: ['UPDATE'], resources });
  assert.equal(ruleMatches(r(['*']), status), false);
  assert.equal(ruleMatches(r(['*/*']), status), true);
  assert.equal(ruleMatches(r(['pods/status']), status), true);
  assert.equal(ruleMatches(r(['pods/status']), main), false);
  assert.equal(ruleMatches(r(['pods/*']), main), true);
  assert.equal(ruleMatches(r(['*/status']), status), true);
});

test('scope: Namespaced needs a namespace, Cluster takes cluster-scoped requests and namespaces (R11.40)', () => {
  assert.equal(ruleMatches(rule({ scope: 'Namespaced' }), request()), true);
  assert.equal(ruleMatches(rule({ scope: 'Cluster' }), request()), false);
  const ns = request({ resource: { group: '', version: 'v1', resource: 'namespaces' }, namespace: '', name: 'x' });
  assert.equal(ruleMatches(rule({ scope: 'Cluster', resources: ['namespaces'] }), ns), true);
});

test('resourceNames compare with the request name, so a generateName create never matches (R11.155)', () => {
  assert.equal(ruleMatches(rule({ resourceNames: ['c'] }), request()), true);
  assert.equal(ruleMatches(rule({ resourceNames: ['c'] }), request({ name: '' })), false);
});

test('exclude rules win; a binding without resource rules takes what the policy matched (R11.154)', () => {
  const m = { resourceRules: [rule()], excludeResourceRules: [rule({ resourceNames: ['c'] })], matchPolicy: 'Equivalent' };
  assert.equal(matchResources(m, request()), undefined);
  assert.deepEqual(matchResources({}, request(), true), { group: '', version: 'v1', resource: 'configmaps' });
  assert.equal(matchResources({}, request()), undefined);
});

test('Equivalent matches another served version of the resource and reports it; Exact does not (R11.41)', () => {
  const req = request({
    resource: { group: 'example.com', version: 'v2', resource: 'widgets' },
    equivalents: () => [{ group: 'example.com', version: 'v1', resource: 'widgets' }],
  });
  const rules = [rule({ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] })];
  assert.deepEqual(matchResources({ resourceRules: rules, matchPolicy: 'Equivalent' }, req), {
    group: 'example.com',
    version: 'v1',
    resource: 'widgets',
  });
  assert.equal(matchResources({ resourceRules: rules, matchPolicy: 'Exact' }, req), undefined);
});

test('namespaceSelector uses the namespace labels; cluster-scoped requests always pass it (R11.42, R11.44)', () => {
  const m = (env: string) => ({ resourceRules: [rule({ resources: ['*'] })], namespaceSelector: { matchLabels: { env } } });
  assert.ok(matchResources(m('prod'), request()));
  assert.equal(matchResources(m('dev'), request()), undefined);
  const cluster = request({ resource: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' }, namespace: '' });
  assert.ok(matchResources({ ...m('dev'), resourceRules: [rule({ apiGroups: ['*'], resources: ['*'] })] }, cluster));
});

test('a namespace lookup failure surfaces only when the rules match (R11.37)', () => {
  const failing = request({
    namespaceLabels: () => {
      throw new Error('namespaces "ns" not found');
    },
  });
  const selector = { namespaceSelector: { matchLabels: { env: 'prod' } } };
  assert.equal(matchResources({ ...selector, resourceRules: [rule({ apiGroups: ['apps'] })] }, failing), undefined);
  assert.throws(() => matchResources({ ...selector, resourceRules: [rule()] }, failing), /not found/);
});

test('objectSelector matches the new or the old object; a missing object never matches (R11.45)', () => {
  const m = { resourceRules: [rule({ operations: ['*'] })], objectSelector: { matchLabels: { watch: 'yes' } } };
  assert.ok(matchResources(m, request({ object: cm({ watch: 'yes' }) })));
  assert.ok(matchResources(m, request({ operation: 'UPDATE', object: cm(), oldObject: cm({ watch: 'yes' }) })));
  assert.equal(matchResources(m, request({ operation: 'DELETE', object: undefined, oldObject: cm() })), undefined);
});
