import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guessKindToResource } from './kind-to-resource.js';

describe('guessKindToResource (R7.5)', () => {
  const cases: [string, string, string][] = [
    ['Pod', 'pods', 'pod'],
    ['ReplicationController', 'replicationcontrollers', 'replicationcontroller'],
    ['ImageRepository', 'imagerepositories', 'imagerepository'],
    ['Status', 'statuses', 'status'],
    ['miss', 'misses', 'miss'],
    ['lowercase', 'lowercases', 'lowercase'],
    ['lowercases', 'lowercaseses', 'lowercases'],
    ['Endpoints', 'endpoints', 'endpoints'],
    ['PodList', 'podlists', 'podlist'],
  ];
  for (const [kind, plural, singular] of cases) {
    it(`${kind} → ${plural} / ${singular}`, () => {
      assert.deepEqual(guessKindToResource(kind), { plural, singular });
    });
  }

  it('guesses "ies" for every kind ending in y, as v1.32 does (Gateway → gatewaies)', () => {
    assert.equal(guessKindToResource('Gateway').plural, 'gatewaies');
  });

  it('guesses nothing for an empty kind', () => {
    assert.deepEqual(guessKindToResource(''), { plural: '', singular: '' });
  });
});
