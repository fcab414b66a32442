import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../api/errors.js';
import { Query } from '../query.js';
import { decodeListOptions } from './list-options.js';

function decode(query: string, watch = false): ReturnType<typeof decodeListOptions> {
  return decodeListOptions(new Query(new URLSearchParams(query)), watch);
}

function failure(query: string, watch = false): StatusError {
  try {
    decode(query, watch);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  assert.fail(`${query} was accepted`);
}

describe('decodeListOptions (url.Values → ListOptions, then ValidateListOptions)', () => {
  it('converts each field as apimachinery does, first value only', () => {
    const opts = decode(
      'limit=%2B5&limit=7&timeoutSeconds=-3&allowWatchBookmarks=&sendInitialEvents=False&resourceVersionMatch=NotOlderThan&resourceVersion=12',
      true,
    );
    assert.equal(opts.limit, 5);
    assert.equal(opts.timeoutSeconds, -3);
    assert.equal(opts.allowWatchBookmarks, true);
    assert.equal(opts.sendInitialEvents, false);
    assert.equal(opts.resourceVersion, '12');
  });

  it('reports the first malformed number in field order (timeoutSeconds before limit)', () => {
    const err = failure('limit=x&timeoutSeconds=1.5');
    assert.equal(err.code, 400);
    assert.equal(err.message, 'strconv.ParseInt: parsing "1.5": invalid syntax');
  });

  it('validates a list', () => {
    assert.equal(
      failure('resourceVersionMatch=Exact&resourceVersion=0').message,
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    );
    assert.equal(
      failure('resourceVersionMatch=Exact&resourceVersion=5&continue=abc').message,
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
    );
    assert.equal(
      failure('sendInitialEvents=false').message,
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
    );
    assert.equal(decode('resourceVersionMatch=NotOlderThan&resourceVersion=3').resourceVersionMatch, 'NotOlderThan');
  });

  it('validates a watch', () => {
    const err = failure('sendInitialEvents=true', true);
    assert.equal(err.code, 422);
    assert.equal(
      err.message,
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
    assert.equal(
      failure('resourceVersionMatch=NotOlderThan', true).message,
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    );
    assert.equal(decode('sendInitialEvents=1&resourceVersionMatch=NotOlderThan', true).sendInitialEvents, true);
  });
});
