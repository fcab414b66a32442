import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldError, fieldErrorBody } from './errors.js';

test('field errors quote string values with Go %q escapes, not JSON ones (R9)', () => {
  assert.equal(fieldErrorBody(fieldError.invalid('metadata.name', 'a\u0000\u00a0b', 'bad')), 'Invalid value: "a\\x00\\u00a0b": bad');
  assert.equal(fieldErrorBody(fieldError.invalid('spec.x', ['\u0007', 'ok'], 'bad')), 'Invalid value: []string{"\\a", "ok"}: bad');
});
