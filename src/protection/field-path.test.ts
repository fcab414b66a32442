import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFieldPath, stringsAt } from './field-path.js';

describe('reference field paths', () => {
  const dependent = {
    spec: { providerName: 'p1', providers: ['p2', 'p3', '', 4], mounts: [{ source: { name: 'p4' } }, { source: {} }, { other: 1 }] },
  };

  it('reads a single field', () => {
    assert.deepEqual(stringsAt(dependent, parseFieldPath('.spec.providerName')), ['p1']);
  });

  it('reads every string member of a list, skipping empty strings and other types', () => {
    assert.deepEqual(stringsAt(dependent, parseFieldPath('.spec.providers[*]')), ['p2', 'p3']);
  });

  it('steps into list members that are objects', () => {
    assert.deepEqual(stringsAt(dependent, parseFieldPath('.spec.mounts[*].source.name')), ['p4']);
  });

  it('reaches nothing through missing fields or a non-list under [*]', () => {
    assert.deepEqual(stringsAt(dependent, parseFieldPath('.spec.missing.name')), []);
    assert.deepEqual(stringsAt(dependent, parseFieldPath('.spec.providerName[*]')), []);
  });

  it('rejects paths outside the subset', () => {
    assert.throws(() => parseFieldPath('spec.name'), /must start with "."/);
    assert.throws(() => parseFieldPath('.spec.items[0]'), /not a field name optionally followed by \[\*\]/);
    assert.throws(() => parseFieldPath('.spec..name'), /not a field name/);
  });
});
