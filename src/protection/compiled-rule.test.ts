import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileRule, referenceFieldLabel, validateRuleSpec } from './compiled-rule.js';
import type { ProtectionRule } from './rule-types.js';

const spec = {
  provider: { group: 'example.com', version: 'v1', resource: 'providers' },
  dependent: { group: 'example.com', version: 'v1', resource: 'dependents' },
  references: ['.spec.providerName', '.spec.providers[*]'],
  condition: '.status.phase != Released',
  finalizer: 'example.com/in-use',
};

describe('ProtectionRule specs', () => {
  it('accept a complete spec', () => {
    assert.deepEqual(validateRuleSpec(spec), []);
    assert.deepEqual(
      validateRuleSpec({ ...spec, provider: { group: '', version: 'v1', resource: 'configmaps' }, condition: undefined }),
      [],
    );
  });

  it('report every problem with its field path', () => {
    const errs = validateRuleSpec({
      ...spec,
      dependent: { group: 'x', version: '' },
      references: ['.ok', 'bad'],
      condition: 'nope',
      finalizer: 'plain',
    });
    assert.deepEqual(
      errs.map((e) => `${e.field} ${e.type}`),
      [
        'spec.dependent.version FieldValueRequired',
        'spec.dependent.resource FieldValueRequired',
        'spec.references[1] FieldValueInvalid',
        'spec.condition FieldValueInvalid',
        'spec.finalizer FieldValueInvalid',
      ],
    );
    assert.deepEqual(
      validateRuleSpec({ ...spec, references: [] }).map((e) => e.field),
      ['spec.references'],
    );
  });

  it('compile to the providers a dependent refers to and uses', () => {
    const rule = compileRule({
      apiVersion: 'cascade.dev/v1alpha1',
      kind: 'ProtectionRule',
      metadata: { name: 'r1' },
      spec,
    } as ProtectionRule);
    assert.equal(rule.fieldLabel, referenceFieldLabel('r1'));
    const dependent = { metadata: { name: 'd' }, spec: { providerName: 'a', providers: ['b', 'a'] } };
    assert.deepEqual(rule.referencedProviders(dependent), ['a', 'b']);
    assert.deepEqual(rule.providersInUse(dependent), ['a', 'b']);
    assert.deepEqual(rule.providersInUse({ ...dependent, status: { phase: 'Released' } }), []);
    assert.deepEqual(rule.referencedProviders({ ...dependent, status: { phase: 'Released' } }), ['a', 'b']);
  });
});
