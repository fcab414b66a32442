import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goQuote } from '../../util/go-quote.js';
import { aggregateMessage, goQuoteList } from './go-format.js';
import { type PolicyRule, policyRule } from './policy.js';
import { compactString, describeMissing, uncoveredRules } from './rule-coverage.js';

const r = (fields: Record<string, string[]>): PolicyRule => policyRule(fields);

test('coverage: owner rules must cover every verb, group, resource and name asked for', () => {
  const owned = [
    r({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'services'] }),
    r({ verbs: ['*'], apiGroups: ['apps'], resources: ['deployments'] }),
    r({ verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }),
    r({ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a', 'b'] }),
    r({ verbs: ['get'], nonResourceURLs: ['/healthz/*'] }),
  ];
  const covered = (wanted: PolicyRule): boolean => uncoveredRules(owned, [wanted]).length === 0;
  assert.ok(covered(r({ verbs: ['get'], apiGroups: [''], resources: ['pods'] })));
  assert.ok(covered(r({ verbs: ['list', 'get'], apiGroups: [''], resources: ['services', 'pods'] })));
  assert.ok(covered(r({ verbs: ['delete', 'patch'], apiGroups: ['apps'], resources: ['deployments'] })));
  assert.ok(covered(r({ verbs: ['update'], apiGroups: ['batch'], resources: ['jobs/status'] })));
  assert.ok(covered(r({ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['b'] })));
  assert.ok(covered(r({ verbs: ['get'], nonResourceURLs: ['/healthz/etcd', '/healthz/*'] })));
  assert.ok(!covered(r({ verbs: ['watch'], apiGroups: [''], resources: ['pods'] })));
  assert.ok(!covered(r({ verbs: ['get'], apiGroups: ['*'], resources: ['pods'] })), 'a wildcard group is not held by listing one');
  assert.ok(!covered(r({ verbs: ['get'], apiGroups: [''], resources: ['secrets'] })), 'all names are more than some names');
  assert.ok(!covered(r({ verbs: ['update'], apiGroups: ['apps'], resources: ['deployments/scale'] })));
  assert.ok(!covered(r({ verbs: ['get'], nonResourceURLs: ['/healthz'] })));
  assert.ok(
    uncoveredRules([r({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] })], [r({ verbs: ['get'], nonResourceURLs: ['/x'] })]).length ===
      1,
  );
});

test('missing permissions are broken down, compacted per resource and listed sorted', () => {
  const missing = uncoveredRules(
    [r({ verbs: ['get'], apiGroups: [''], resources: ['pods'] })],
    [
      r({ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'configmaps'] }),
      r({ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] }),
      r({ verbs: ['get', 'post'], nonResourceURLs: ['/metrics'] }),
    ],
  );
  assert.equal(
    describeMissing(missing),
    [
      '{APIGroups:[""], Resources:["configmaps"], Verbs:["get" "list" "watch"]}',
      '{APIGroups:[""], Resources:["pods"], Verbs:["list" "watch"]}',
      '{APIGroups:[""], Resources:["secrets"], ResourceNames:["s1"], Verbs:["get"]}',
      '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
      '{NonResourceURLs:["/metrics"], Verbs:["post"]}',
    ].join('\n'),
  );
  assert.equal(compactString(r({})), '{}');
});

test('Go formatting of quoted strings, string lists and aggregated errors', () => {
  assert.equal(goQuote('a"b\\c\nd\x01é'), '"a\\"b\\\\c\\nd\\x01é"');
  assert.equal(goQuoteList(['g1', 'g2']), '["g1" "g2"]');
  assert.equal(goQuoteList([]), '[]');
  assert.equal(aggregateMessage([]), '');
  assert.equal(aggregateMessage(['x']), 'x');
  assert.equal(aggregateMessage(['x', 'x']), 'x');
  assert.equal(aggregateMessage(['x', 'y', 'x']), '[x, y]');
});
