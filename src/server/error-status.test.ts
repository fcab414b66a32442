import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../api/errors.js';
import { StorageUnavailableError } from '../storage/errors.js';
import { responseStatus } from './error-status.js';

describe('responseStatus (issue 25)', () => {
  it('answers a failed store as kube-apiserver answers a non-Status error: 500, its message, no reason', () => {
    const cause = new Error('https://10.0.0.1:2379: no answer to an HTTP/2 PING within 2000 ms');
    assert.deepEqual(responseStatus(new StorageUnavailableError(cause.message, cause)).toStatus(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'https://10.0.0.1:2379: no answer to an HTTP/2 PING within 2000 ms',
      code: 500,
    });
  });

  it('keeps Status errors and makes anything else an internal error', () => {
    const conflict = new StatusError(409, 'Conflict', 'x');
    assert.equal(responseStatus(conflict), conflict);
    const internal = responseStatus(new Error('boom')).toStatus();
    assert.equal(internal.reason, 'InternalError');
    assert.equal(internal.message, 'Internal error occurred: boom');
  });
});
