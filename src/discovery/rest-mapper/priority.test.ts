import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANY, discoveryPriorities, narrowByPriority, type PriorityPattern } from './priority.js';

interface Candidate {
  group: string;
  version: string;
  name: string;
}

const first: Candidate = { group: 'one', version: 'a', name: 'first' };
const second: Candidate = { group: 'two', version: 'b', name: 'second' };
const third: Candidate = { group: 'one', version: 'c', name: 'third' };

function pick(candidates: Candidate[], patterns: PriorityPattern[]): string | string[] {
  const result = narrowByPriority(candidates, patterns, (candidate) => candidate);
  return 'picked' in result ? result.picked.name : result.remaining.map((candidate) => candidate.name);
}

describe('priority narrowing (apimachinery priority.go, R7.9)', () => {
  it('leaves candidates ambiguous without patterns', () => {
    assert.deepEqual(pick([first, second], []), ['first', 'second']);
  });

  it('picks by group', () => {
    assert.equal(pick([first, second], [{ group: 'one', version: ANY }]), 'first');
  });

  it('skips a pattern matching nothing and continues', () => {
    assert.equal(
      pick(
        [first, second],
        [
          { group: 'fail', version: ANY },
          { group: 'one', version: ANY },
        ],
      ),
      'first',
    );
  });

  it('narrows by group, then by version', () => {
    assert.equal(
      pick(
        [first, second, third],
        [
          { group: 'one', version: ANY },
          { group: ANY, version: 'a' },
        ],
      ),
      'first',
    );
  });

  it('keeps the narrowed set when later patterns cannot decide', () => {
    assert.deepEqual(pick([first, second, third], [{ group: 'one', version: ANY }]), ['first', 'third']);
  });
});

describe('discovery priorities (R7.4)', () => {
  it('core v1 first, then each group with its preferred version before its others, then any version per group', () => {
    assert.deepEqual(
      discoveryPriorities([
        { group: '', versions: ['v1'] },
        { group: 'autoscaling', versions: ['v2', 'v1'] },
        { group: 'example.com', versions: ['v1', 'v1beta1'] },
      ]),
      [
        { group: '', version: 'v1' },
        { group: '', version: 'v1' },
        { group: 'autoscaling', version: 'v2' },
        { group: 'autoscaling', version: 'v1' },
        { group: 'example.com', version: 'v1' },
        { group: 'example.com', version: 'v1beta1' },
        { group: '', version: ANY },
        { group: 'autoscaling', version: ANY },
        { group: 'example.com', version: ANY },
      ],
    );
  });
});
