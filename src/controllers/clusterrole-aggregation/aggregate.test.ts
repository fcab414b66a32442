import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterRole, PolicyRule } from '../../auth/rbac/bootstrap/rbac-types.js';
import { aggregatedRules } from './aggregate.js';

const role = (
  name: string,
  labels: Record<string, string>,
  rules: PolicyRule[],
  aggregationRule?: ClusterRole['aggregationRule'],
): ClusterRole => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, labels },
  rules,
  ...(aggregationRule === undefined ? {} : { aggregationRule }),
});
const read = (resource: string): PolicyRule => ({ verbs: ['get'], apiGroups: [''], resources: [resource] });

test('rules come per selector, from matching roles sorted by name, deduplicated, never from the role itself', () => {
  const target = role('target', { team: 'a' }, [read('stale')], {
    clusterRoleSelectors: [{ matchLabels: { team: 'a' } }, { matchExpressions: [{ key: 'tier', operator: 'In', values: ['x', 'y'] }] }],
  });
  const all = [
    target,
    role('zeta', { team: 'a' }, [read('pods'), read('secrets')]),
    role('alpha', { team: 'a' }, [read('configmaps'), read('pods')]),
    role('beta', { tier: 'y' }, [read('services'), { apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: [] }]),
    role('other', { team: 'b' }, [read('nodes')]),
  ];
  // "beta" matches only the second selector, so its rules follow those of the first selector's matches; its
  // configmaps rule equals alpha's once an empty resourceNames is read as absent.
  assert.deepEqual(aggregatedRules(target, all), [read('configmaps'), read('pods'), read('secrets'), read('services')]);
});

test('a role without matches aggregates to no rules, and an invalid selector is an error', () => {
  const target = role('target', {}, [], { clusterRoleSelectors: [{ matchLabels: { nobody: 'true' } }] });
  assert.deepEqual(aggregatedRules(target, [target]), []);
  const broken = role('broken', {}, [], { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Like' }] }] });
  assert.throws(() => aggregatedRules(broken, [broken]), /"Like" is not a valid label selector operator/);
});
