import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../api/errors.js';
import { formatError, runCommand, UsageError } from './command-io.js';

describe('formatError and runCommand', () => {
  it('prints server errors as kubectl does', () => {
    assert.equal(formatError(new StatusError(404, 'NotFound', 'pods "x" not found')), 'Error from server (NotFound): pods "x" not found');
  });
  it('names a bare socket error as a connection failure', () => {
    const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' });
    assert.equal(formatError(err), 'error: unable to connect to the server: connect ECONNREFUSED 127.0.0.1:6443');
  });
  it('keeps the first line of other errors', () => {
    assert.equal(formatError(new Error('first\nsecond')), 'error: first');
  });
  it('exits 2 for usage errors and 1 for the rest, writing one line', async () => {
    const lines: string[] = [];
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => lines.push(s) } };
    assert.equal(await runCommand(io, async () => { throw new UsageError('bad flag'); }), 2);
    assert.equal(await runCommand(io, async () => { throw new Error('boom'); }), 1);
    assert.equal(await runCommand(io, async () => {}), 0);
    assert.deepEqual(lines, ['error: bad flag\n', 'error: boom\n']);
  });
});
