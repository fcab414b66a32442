import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { prefixEnd } from './key-range.js';

describe('prefixEnd', () => {
  it('raises the last code point', () => {
    assert.equal(prefixEnd('/registry/pods/'), '/registry/pods0');
    assert.equal(prefixEnd('a\u007f'), 'a\u0080');
    assert.equal(prefixEnd('a\ud7ff'), 'a\ue000', 'skips the surrogate range');
    assert.equal(prefixEnd('a\u{1f600}'), 'a\u{1f601}');
  });

  it('drops trailing U+10FFFF and has no end for the empty prefix', () => {
    assert.equal(prefixEnd('ab\u{10ffff}\u{10ffff}'), 'ac');
    assert.equal(prefixEnd('\u{10ffff}'), undefined);
    assert.equal(prefixEnd(''), undefined);
  });

  it('bounds exactly the keys with the prefix in SQLite text order', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE k (name TEXT PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO k VALUES (?)');
    const keys = ['/a', '/a/', '/a/x', '/a/\u{10ffff}', '/a/\uffff', '/a/\u{1f600}z', '/a0', '/a.', '/b'];
    for (const key of keys) insert.run(key);
    const inRange = db.prepare('SELECT name FROM k WHERE name >= ? AND name < ? ORDER BY name').pluck().all('/a/', prefixEnd('/a/'));
    assert.deepEqual(new Set(inRange), new Set(keys.filter((key) => key.startsWith('/a/'))));
    db.close();
  });
});
