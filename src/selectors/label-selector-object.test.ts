import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorBody, type FieldError } from '../api/errors.js';
import { aggregateMessage } from './field-error.js';
import {
  InvalidLabelSelectorError,
  labelSelectorAsSelector,
  labelSelectorFromObject,
  validateLabelSelector,
} from './label-selector-object.js';
import { SelectorError } from './selector-error.js';

describe('labelSelectorFromObject', () => {
  it('matches nothing when the selector is absent and everything when it is empty', () => {
    assert.equal(labelSelectorFromObject(undefined).matches({ a: 'b' }), false);
    assert.equal(labelSelectorFromObject(undefined).empty, false);
    const everything = labelSelectorFromObject({});
    assert.equal(everything.empty, true);
    assert.equal(everything.matches({ a: 'b' }), true);
  });

  it('combines matchLabels and matchExpressions, printing them sorted by key', () => {
    const selector = labelSelectorFromObject({
      matchLabels: { tier: 'front', app: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'dev'] },
        { key: 'legacy', operator: 'DoesNotExist' },
        { key: 'zone', operator: 'Exists' },
        { key: 'canary', operator: 'NotIn', values: ['true'] },
      ],
    });
    assert.equal(selector.toString(), 'app=web,canary notin (true),env in (dev,prod),!legacy,tier=front,zone');
    assert.equal(selector.matches({ app: 'web', tier: 'front', env: 'prod', zone: 'a' }), true);
    assert.equal(selector.matches({ app: 'web', tier: 'front', env: 'prod', zone: 'a', legacy: '' }), false);
    assert.equal(selector.matches({ app: 'web', tier: 'front', env: 'qa', zone: 'a' }), false);
  });

  it('throws the field causes of an invalid selector', () => {
    assert.throws(
      () =>
        labelSelectorFromObject(
          {
            matchLabels: { 'bad key': 'v' },
            matchExpressions: [
              { key: 'a', operator: 'In' },
              { key: 'b', operator: 'Exists', values: ['x'] },
              { key: 'c', operator: 'Equals', values: ['x'] },
            ],
          },
          'spec.selector',
        ),
      (error: unknown) => {
        assert.ok(error instanceof InvalidLabelSelectorError);
        assert.deepEqual(error.causes.map((e: FieldError) => `${e.field}: ${fieldErrorBody(e)}`), [
          "spec.selector.matchLabels: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
          "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
          "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          'spec.selector.matchExpressions[2].operator: Invalid value: "Equals": not a valid selector operator',
        ]);
        const cause = error.causes[1];
        assert.ok(cause !== undefined);
        assert.deepEqual([cause.type, fieldErrorBody(cause), cause.field], [
          'FieldValueRequired',
          "Required value: must be specified when `operator` is 'In' or 'NotIn'",
          'spec.selector.matchExpressions[0].values',
        ]);
        return true;
      },
    );
  });

  it('validates matchExpressions values unless invalid values are tolerated', () => {
    const selector = { matchExpressions: [{ key: 'a', operator: 'In', values: ['-x'] }] };
    assert.equal(validateLabelSelector(selector, 'spec.selector').length, 1);
    assert.equal(validateLabelSelector(selector, 'spec.selector', { allowInvalidLabelValueInSelector: true }).length, 0);
  });
});

describe('labelSelectorAsSelector', () => {
  it('reports an unknown operator with the upstream message', () => {
    assert.throws(
      () => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Equals' }] }),
      new SelectorError('"Equals" is not a valid label selector operator'),
    );
  });
});

describe('aggregateMessage', () => {
  it('drops duplicates and brackets several messages', () => {
    const error = { type: 'FieldValueInvalid', field: 'f', badValue: 'v', detail: 'bad' } as const;
    assert.equal(aggregateMessage([error, error]), 'f: Invalid value: "v": bad');
    assert.equal(aggregateMessage([error, { ...error, field: 'g' }]), '[f: Invalid value: "v": bad, g: Invalid value: "v": bad]');
  });
});
