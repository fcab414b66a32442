import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resourceInfo } from '../../kinds/define/resource.js';
import { equivalentResources, isExemptFromWebhooks, ruleMatches, type RuleTarget } from './rule-matching.js';

const pods: RuleTarget = { operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource: '', namespace: 'ns' };
const rule = (resources: string[], extra: Record<string, unknown> = {}) => ({
  operations: ['*'],
  apiGroups: ['*'],
  apiVersions: ['*'],
  resources,
  ...extra,
});

describe('webhook rule matching (predicates/rules, R11.38–R11.40)', () => {
  const cases: [string, string[], RuleTarget, boolean][] = [
    ['"pods" matches the main resource', ['pods'], pods, true],
    ['"pods" does not match pods/status', ['pods'], { ...pods, subresource: 'status' }, false],
    ['"pods/status" matches only that subresource', ['pods/status'], { ...pods, subresource: 'status' }, true],
    ['"pods/status" does not match the main resource', ['pods/status'], pods, false],
    ['"*" matches every main resource', ['*'], { ...pods, resource: 'configmaps' }, true],
    ['"*" does not match subresources', ['*'], { ...pods, subresource: 'status' }, false],
    ['"*/*" matches everything', ['*/*'], { ...pods, subresource: 'binding' }, true],
    ['"*/scale" matches any scale', ['*/scale'], { ...pods, resource: 'deployments', subresource: 'scale' }, true],
    ['"pods/*" also matches the main resource (quirk Q3)', ['pods/*'], pods, true],
  ];
  for (const [name, resources, target, expected] of cases) it(name, () => assert.equal(ruleMatches(rule(resources), target), expected));

  it('matches operations, groups and versions exactly or through "*"; "" is only the core group', () => {
    assert.equal(ruleMatches(rule(['pods'], { operations: ['UPDATE'] }), pods), false);
    assert.equal(ruleMatches(rule(['pods'], { apiGroups: [''] }), pods), true);
    assert.equal(ruleMatches(rule(['deployments'], { apiGroups: [''] }), { ...pods, group: 'apps', resource: 'deployments' }), false);
    assert.equal(ruleMatches(rule(['pods'], { apiVersions: ['v2'] }), pods), false);
  });

  it('scope: Namespaced needs a namespace; Cluster takes cluster-scoped requests and namespaces themselves (R11.40)', () => {
    assert.equal(ruleMatches(rule(['*'], { scope: 'Namespaced' }), pods), true);
    assert.equal(ruleMatches(rule(['*'], { scope: 'Cluster' }), pods), false);
    const namespace = { ...pods, resource: 'namespaces', namespace: 'ns' };
    assert.equal(ruleMatches(rule(['*'], { scope: 'Cluster' }), namespace), true);
    assert.equal(ruleMatches(rule(['*'], { scope: 'Namespaced' }), namespace), false);
    assert.equal(ruleMatches(rule(['*'], { scope: 'Cluster' }), { ...pods, resource: 'nodes', namespace: '' }), true);
  });

  it('finds the other served versions of a resource for matchPolicy Equivalent (R11.41)', () => {
    const v1 = resourceInfo({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
    const v2 = resourceInfo({ group: 'example.com', version: 'v2', kind: 'Widget', plural: 'widgets', namespaced: true });
    const other = resourceInfo({ group: 'example.com', version: 'v1', kind: 'Gadget', plural: 'gadgets', namespaced: true });
    assert.deepEqual(equivalentResources(v1, [v1, v2, other]), [v2]);
  });

  it('exempts the admissionregistration configuration kinds only (R11.34)', () => {
    const vwc = resourceInfo({
      group: 'admissionregistration.k8s.io',
      version: 'v1',
      kind: 'ValidatingWebhookConfiguration',
      plural: 'validatingwebhookconfigurations',
      namespaced: false,
    });
    assert.equal(isExemptFromWebhooks(vwc), true);
    assert.equal(isExemptFromWebhooks(resourceInfo({ group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true })), false);
  });
});
