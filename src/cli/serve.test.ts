import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withBareBooleans } from './serve.js';

test('a bare boolean flag means true, as pflag reads it; other flags and values pass through (issue 31)', () => {
  const booleans = new Set(['insecure-http', 'leader-elect']);
  assert.deepEqual(withBareBooleans(['--insecure-http', '--storage', 'memory'], booleans), ['--insecure-http=true', '--storage', 'memory']);
  assert.deepEqual(withBareBooleans(['--leader-elect=false', '--data-dir', 'x'], booleans), ['--leader-elect=false', '--data-dir', 'x']);
  assert.deepEqual(withBareBooleans(['--storage', 'insecure-http'], booleans), ['--storage', 'insecure-http']);
});
