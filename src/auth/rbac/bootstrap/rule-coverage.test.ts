import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resourceRule, urlRule } from './rule-builder.js';
import { breakdownRule, uncoveredRules } from './rule-coverage.js';

test('a rule breaks down into one rule per group, resource, name and verb, then per URL and verb', () => {
  assert.deepEqual(breakdownRule(resourceRule(['get', 'list'], [''], ['pods'], ['a'])), [
    { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
    { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
  ]);
  assert.deepEqual(breakdownRule(urlRule(['get'], ['/healthz', '/livez'])), [
    { verbs: ['get'], nonResourceURLs: ['/healthz'] },
    { verbs: ['get'], nonResourceURLs: ['/livez'] },
  ]);
});

test('coverage honours wildcards, subresource stars, URL prefixes and resource names', () => {
  assert.deepEqual(uncoveredRules([resourceRule(['*'], ['*'], ['*'])], [resourceRule(['get'], ['apps'], ['deployments/scale'])]), []);
  assert.deepEqual(
    uncoveredRules([resourceRule(['get'], ['*'], ['*/scale'])], [resourceRule(['get'], ['apps'], ['deployments/scale'])]),
    [],
  );
  assert.deepEqual(uncoveredRules([urlRule(['get'], ['/healthz/*'])], [urlRule(['get'], ['/healthz/etcd'])]), []);
  assert.deepEqual(uncoveredRules([urlRule(['get'], ['/healthz/*'])], [urlRule(['get'], ['/healthz'])]), [
    { verbs: ['get'], nonResourceURLs: ['/healthz'] },
  ]);
  // A rule limited to some names does not cover the whole resource; an unrestricted one covers any name.
  assert.deepEqual(uncoveredRules([resourceRule(['get'], [''], ['leases'], ['x'])], [resourceRule(['get'], [''], ['leases'])]), [
    { verbs: ['get'], apiGroups: [''], resources: ['leases'] },
  ]);
  assert.deepEqual(uncoveredRules([resourceRule(['get'], [''], ['leases'])], [resourceRule(['get'], [''], ['leases'], ['x'])]), []);
  // Only the verbs the owner lacks are reported.
  assert.deepEqual(
    uncoveredRules([resourceRule(['get', 'list'], [''], ['pods'])], [resourceRule(['get', 'list', 'watch'], [''], ['pods'])]),
    [{ verbs: ['watch'], apiGroups: [''], resources: ['pods'] }],
  );
});
