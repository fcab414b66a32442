import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statusErrorFromResponse } from './http-errors.js';

const response = (status: number, body: string, contentType = 'application/json', retryAfter?: string) => ({
  status,
  contentType,
  retryAfter,
  body: Buffer.from(body),
});

test('a Status body is taken as the server sent it, with Retry-After kept (R9.1, R9.11)', () => {
  const body = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Too many requests: slow down',
    reason: 'TooManyRequests',
    details: { retryAfterSeconds: 3 },
    code: 429,
  };
  const err = statusErrorFromResponse(response(429, JSON.stringify(body), 'application/json', '3'), 'GET', { group: '', resource: 'pods' });
  assert.equal(err.code, 429);
  assert.equal(err.reason, 'TooManyRequests');
  assert.equal(err.message, 'Too many requests: slow down');
  assert.deepEqual(err.details, { retryAfterSeconds: 3 });
  assert.deepEqual(err.headers, { 'Retry-After': '3' });
  assert.deepEqual(err.toStatus(), body);
});

test('non-Status bodies get client-go generic reasons and messages, with the verb and resource appended', () => {
  const conflictOnCreate = statusErrorFromResponse(response(409, '<html/>', 'text/html'), 'POST', {
    group: 'apps',
    resource: 'deployments',
  });
  assert.equal(conflictOnCreate.reason, 'AlreadyExists');
  assert.equal(conflictOnCreate.message, 'the server reported a conflict (post deployments.apps)');
  assert.deepEqual(conflictOnCreate.details, {
    group: 'apps',
    kind: 'deployments',
    causes: [{ reason: 'UnexpectedServerResponse', message: 'unknown' }],
  });

  const forbidden = statusErrorFromResponse(response(403, 'no access for you\n', 'text/plain'), 'GET', {
    group: '',
    resource: 'secrets',
    name: 's',
  });
  assert.equal(forbidden.reason, 'Forbidden');
  assert.equal(forbidden.message, 'no access for you (get secrets s)');
  assert.equal(forbidden.details?.name, 's');

  const unknown = statusErrorFromResponse(response(418, 'teapot', 'text/plain', '7'), 'GET', undefined);
  assert.equal(unknown.reason, 'Unknown');
  assert.equal(unknown.message, 'the server responded with the status code 418 but did not return more information');
  assert.equal(unknown.details?.retryAfterSeconds, 7);
});
