import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadTokenFile, parseTokenFile } from './token-file.js';

function parse(text: string): { tokens: ReturnType<typeof parseTokenFile>; warnings: string[] } {
  const warnings: string[] = [];
  const tokens = parseTokenFile(text, '/etc/tokens.csv', (m) => warnings.push(m));
  return { tokens, warnings };
}

describe('parseTokenFile (--token-auth-file)', () => {
  it('reads token, user, uid and the quoted group list; later columns are ignored', () => {
    const { tokens, warnings } = parse('abc,alice,u-1,"dev,ops"\n\ndef,bob,u-2\nghi,carol,u-3,admins,ignored,too\n');
    assert.deepEqual([...tokens.keys()], ['abc', 'def', 'ghi']);
    assert.deepEqual(tokens.get('abc'), { name: 'alice', uid: 'u-1', groups: ['dev', 'ops'] });
    assert.deepEqual(tokens.get('def'), { name: 'bob', uid: 'u-2', groups: [] });
    assert.deepEqual(tokens.get('ghi'), { name: 'carol', uid: 'u-3', groups: ['admins'] });
    assert.deepEqual(warnings, []);
  });

  it('omits an empty uid and keeps an empty group column as one empty group (strings.Split)', () => {
    const { tokens } = parse('t,user,,\n');
    assert.deepEqual(tokens.get('t'), { name: 'user', groups: [''] });
  });

  it('refuses a record with fewer than 3 columns', () => {
    assert.throws(() => parse('abc,alice,1\nshort,bob\n'), {
      message: "token file '/etc/tokens.csv' must have at least 3 columns (token, user name, user uid), found 2",
    });
  });

  it('skips an empty token with a warning naming the record number', () => {
    const { tokens, warnings } = parse('a,alice,1\n,bob,2\n');
    assert.deepEqual([...tokens.keys()], ['a']);
    assert.deepEqual(warnings, ["empty token has been found in token file '/etc/tokens.csv', record number '2'"]);
  });

  it('lets a repeated token replace the earlier one, with a warning', () => {
    const { tokens, warnings } = parse('a,alice,1\nb,bob,2\na,mallory,3\n');
    assert.equal(tokens.get('a')?.name, 'mallory');
    assert.deepEqual(warnings, ["duplicate token has been found in token file '/etc/tokens.csv', record number '3'"]);
  });

  it('passes CSV syntax errors through as kube-apiserver does', () => {
    assert.throws(() => parse('a,al"ice,1\n'), { message: 'parse error on line 1, column 5: bare " in non-quoted-field' });
  });

  it('loads a file from disk and names it in errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tokens-'));
    try {
      const path = join(dir, 'tokens.csv');
      writeFileSync(path, 'secret,admin,admin-uid,"system:masters"\n');
      const tokens = await loadTokenFile(path);
      assert.deepEqual(tokens.get('secret'), { name: 'admin', uid: 'admin-uid', groups: ['system:masters'] });
      writeFileSync(path, 'secret,admin\n');
      await assert.rejects(loadTokenFile(path), {
        message: `token file '${path}' must have at least 3 columns (token, user name, user uid), found 2`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
