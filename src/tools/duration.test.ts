import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from './command-io.js';
import { parseDuration } from './duration.js';

describe('parseDuration (kubectl --timeout)', () => {
  for (const [text, ms] of [['30s', 30_000], ['500ms', 500], ['2m', 120_000], ['1m30s', 90_000], ['1h', 3_600_000], ['1.5s', 1500]] as const) {
    it(`${text} = ${ms} ms`, () => assert.equal(parseDuration('timeout', text), ms));
  }
  for (const text of ['30', 'soon', '1x', '', 's']) {
    it(`rejects "${text}" as a usage error`, () => assert.throws(() => parseDuration('timeout', text), UsageError));
  }
});
