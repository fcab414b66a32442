import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCondition } from './condition.js';

describe('dependent conditions', () => {
  it('an empty condition always holds', () => {
    assert.equal(parseCondition('').holds({}), true);
    assert.equal(parseCondition('  ').holds({ status: { phase: 'Succeeded' } }), true);
  });

  it('compares one field with == and !=, a missing field comparing as ""', () => {
    const notDone = parseCondition('.status.phase != Succeeded');
    assert.equal(notDone.holds({ status: { phase: 'Running' } }), true);
    assert.equal(notDone.holds({ status: { phase: 'Succeeded' } }), false);
    assert.equal(notDone.holds({}), true);
    assert.equal(parseCondition('.status.phase == ""').holds({}), true);
    assert.equal(parseCondition('.status.phase=Bound').holds({ status: { phase: 'Bound' } }), true);
  });

  it('requires every comma-separated comparison', () => {
    const running = parseCondition('.status.phase!=Succeeded, .status.phase!=Failed');
    assert.equal(running.holds({ status: { phase: 'Failed' } }), false);
    assert.equal(running.holds({ status: { phase: 'Running' } }), true);
  });

  it('keeps spaces and commas inside a quoted value, and compares non-strings by their JSON text', () => {
    assert.equal(parseCondition('.spec.note == "a, b"').holds({ spec: { note: 'a, b' } }), true);
    assert.equal(parseCondition('.spec.ready == true').holds({ spec: { ready: true } }), true);
  });

  it('rejects malformed conditions', () => {
    assert.throws(() => parseCondition('.status.phase'), /not of the form/);
    assert.throws(() => parseCondition('.spec.items[*] == x'), /\[\*\] is not allowed/);
    assert.throws(() => parseCondition('.spec.a == "x'), /unterminated/);
  });
});
