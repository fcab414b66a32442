import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { CompactedError, RevisionConflictError } from '../errors.js';
import { bytes, keysOf, rejectionOf, summary, text } from '../testing/case-helpers.js';
import { runBackendConformance } from '../testing/conformance.js';
import { EventReader } from '../testing/event-reader.js';
import { createSqliteBackend, DatabaseInUseError } from './backend.js';

const dir = mkdtempSync(join(tmpdir(), 'cascade-sqlite-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = (): string => join(dir, `store-${++files}.db`);

runBackendConformance({ name: 'sqlite :memory:', newBackend: async () => createSqliteBackend({ path: ':memory:' }) });
runBackendConformance({ name: 'sqlite file', newBackend: async () => createSqliteBackend({ path: newFile() }) });

/** Rows in the log table, read through a second connection after the backend closed its file. */
function rowCount(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM log').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const until = async (check: () => Promise<boolean>, what: string): Promise<void> => {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('sqlite backend', () => {
  it('finds every key, revision and history entry again after reopening the file', async () => {
    const path = newFile();
    const first = createSqliteBackend({ path });
    const a1 = await first.create('/r/a', bytes('a1')); // 2
    const a2 = await first.update('/r/a', bytes('a2'), a1.modRevision); // 3
    const b1 = await first.create('/r/b', bytes('b1')); // 4
    await first.delete('/r/b'); // 5
    await first.close();

    const second = createSqliteBackend({ path });
    assert.equal(await second.currentRevision(), 5);
    assert.equal(await second.compactedRevision(), 1);
    assert.deepEqual(summary((await second.get('/r/a')).kv), summary(a2));
    assert.equal((await second.get('/r/b')).kv, undefined);
    assert.deepEqual(summary((await second.get('/r/b', { revision: 4 })).kv), summary(b1));
    const next = await second.create('/r/c', bytes('c1'));
    assert.equal(next.modRevision, 6, 'the revision counter continues where it stopped');

    const watcher = await second.watch('/r/', a1.modRevision);
    const events = await new EventReader(watcher).take(4);
    assert.deepEqual(
      events.map((event) => [event.type, event.kv.key, event.revision]),
      [
        ['put', '/r/a', 3],
        ['put', '/r/b', 4],
        ['delete', '/r/b', 5],
        ['put', '/r/c', 6],
      ],
    );
    assert.deepEqual(summary(events[0]?.prevKv), summary(a1));
    await second.close();
  });

  it('keeps the compact revision across a restart: older watches fail, newer ones resume', async () => {
    const path = newFile();
    const first = createSqliteBackend({ path });
    const a1 = await first.create('/c/a', bytes('a1')); // 2
    const a2 = await first.update('/c/a', bytes('a2'), a1.modRevision); // 3
    await first.update('/c/a', bytes('a3'), a2.modRevision); // 4
    await first.compact(4);
    await first.close();

    const second = createSqliteBackend({ path });
    assert.equal(await second.compactedRevision(), 4);
    await rejectionOf(second.watch('/c/', 2), CompactedError);
    await rejectionOf(second.get('/c/a', { revision: 3 }), CompactedError);
    const watcher = await second.watch('/c/', 3);
    const [event] = await new EventReader(watcher).take(1);
    assert.equal(event?.revision, 4);
    assert.equal(text(event?.prevKv), 'a2', 'prevKv comes from the row itself, not the compacted one');
    await second.close();
  });

  it('an empty store starts at revision 1 and stays there when reopened without writes', async () => {
    const path = newFile();
    await createSqliteBackend({ path }).close();
    const reopened = createSqliteBackend({ path });
    assert.equal(await reopened.currentRevision(), 1);
    assert.equal((await reopened.create('/e/a', bytes('a'))).modRevision, 2);
    await reopened.close();
  });

  it('compacts in the background, keeping the last retainRevisions revisions and deleting superseded rows', async () => {
    const path = newFile();
    const backend = createSqliteBackend({ path, compactIntervalMs: 20, retainRevisions: 3 });
    let kv = await backend.create('/b/a', bytes('0')); // 2
    for (let i = 1; i <= 20; i++) kv = await backend.update('/b/a', bytes(String(i)), kv.modRevision); // 3..22
    await backend.create('/b/gone', bytes('x')); // 23
    await backend.delete('/b/gone'); // 24
    await backend.create('/b/kept', bytes('y')); // 25
    await backend.create('/b/last', bytes('z')); // 26
    await until(async () => (await backend.compactedRevision()) === 24, 'background compaction to 24');

    await rejectionOf(backend.get('/b/a', { revision: 23 }), CompactedError);
    await rejectionOf(backend.watch('/b/', 22), CompactedError);
    assert.equal(text((await backend.get('/b/a', { revision: 24 })).kv), '20');
    assert.deepEqual(keysOf((await backend.list('/b/')).kvs), ['/b/a', '/b/kept', '/b/last']);
    const watcher = await backend.watch('/b/', 23);
    const events = await new EventReader(watcher).take(3);
    assert.deepEqual(
      events.map((event) => [event.type, event.kv.key]),
      [
        ['delete', '/b/gone'],
        ['put', '/b/kept'],
        ['put', '/b/last'],
      ],
    );
    await backend.close();
    // Left: /b/a's newest row (22), the delete at 24 (a watch from 23 replays it) and the rows at 25 and 26.
    assert.equal(rowCount(path), 4);
  });

  it('compaction sweeps a live key row below an earlier compact revision once it is superseded', async () => {
    const path = newFile();
    const backend = createSqliteBackend({ path, compactIntervalMs: 0 });
    const old = await backend.create('/s/old', bytes('1')); // 2
    await backend.create('/s/x', bytes('x')); // 3
    await backend.compact(3);
    await backend.update('/s/old', bytes('2'), old.modRevision); // 4
    await backend.create('/s/y', bytes('y')); // 5
    await backend.compact(5);
    assert.equal(text((await backend.get('/s/old')).kv), '2');
    assert.equal(await backend.count('/s/'), 3);
    await backend.close();
    assert.equal(rowCount(path), 3, 'the row at 2 went; the rows at 3, 4 and 5 stay');
  });

  it('refuses a second handle on the same file while the first is open, and allows it after close', async () => {
    const path = newFile();
    const first = createSqliteBackend({ path });
    await first.create('/l/a', bytes('a'));
    assert.throws(() => createSqliteBackend({ path }), DatabaseInUseError);
    assert.equal(text((await first.get('/l/a')).kv), 'a', 'the refused opener did not disturb the owner');
    await first.close();
    const second = createSqliteBackend({ path });
    assert.equal(text((await second.get('/l/a')).kv), 'a');
    await second.close();
  });

  it('refuses a second process on the same file', async () => {
    const path = newFile();
    const owner = createSqliteBackend({ path });
    await owner.create('/p/a', bytes('a'));
    const backendModule = fileURLToPath(new URL('./backend.js', import.meta.url));
    const script = `
      const { createSqliteBackend } = await import(${JSON.stringify(backendModule)});
      try { createSqliteBackend({ path: ${JSON.stringify(path)} }); console.log('opened'); }
      catch (error) { console.log(error.name); }
    `;
    const output = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout) => (error ? reject(error) : resolve(stdout)));
    });
    assert.equal(output.trim(), 'DatabaseInUseError');
    await owner.close();
  });

  it('enforces compare-and-swap in the database: a second successor of one version is refused', async () => {
    const path = newFile();
    const backend = createSqliteBackend({ path, compactIntervalMs: 0 });
    const base = await backend.create('/u/a', bytes('base')); // 2
    await backend.update('/u/a', bytes('winner'), base.modRevision); // 3
    await backend.close();
    const db = new Database(path);
    try {
      const loser = db.prepare(
        "INSERT INTO log (id, name, created, deleted, create_revision, prev_revision, value, old_value) VALUES (4, '/u/a', 0, 0, 2, 2, x'00', x'00')",
      );
      assert.throws(
        () => loser.run(),
        (error: unknown) => error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE',
      );
    } finally {
      db.close();
    }
    const reopened = createSqliteBackend({ path, compactIntervalMs: 0 });
    const conflict = await rejectionOf(reopened.update('/u/a', bytes('late'), base.modRevision), RevisionConflictError);
    assert.equal(text(conflict.current), 'winner');
    assert.equal(await reopened.currentRevision(), 3, 'the refused write consumed no revision');
    await reopened.close();
  });

  it('rejects bad options and every call after close', async () => {
    assert.throws(() => createSqliteBackend({ path: ':memory:', retainRevisions: 0 }), RangeError);
    assert.throws(() => createSqliteBackend({ path: ':memory:', compactIntervalMs: -1 }), RangeError);
    const backend = createSqliteBackend({ path: ':memory:' });
    await backend.close();
    await assert.rejects(backend.get('/a'), /closed/);
    await assert.rejects(backend.create('/a', bytes('a')), /closed/);
    await assert.rejects(backend.watch('/', 1), /closed/);
    await backend.close();
  });

  it('pages through a 10,000-key prefix among 20,000 keys', async () => {
    const backend = createSqliteBackend({ path: newFile() });
    for (let i = 0; i < 10_000; i++) {
      const name = String(i).padStart(5, '0');
      await backend.create(`/registry/pods/ns/${name}`, bytes(name));
      await backend.create(`/registry/configmaps/ns/${name}`, bytes(name));
    }
    const page = await backend.list('/registry/pods/', { limit: 500, startKey: '/registry/pods/ns/05000' });
    assert.equal(page.kvs.length, 500);
    assert.equal(page.kvs[0]?.key, '/registry/pods/ns/05000');
    assert.equal(page.kvs[499]?.key, '/registry/pods/ns/05499');
    assert.equal(page.remaining, 4_500);
    assert.equal(await backend.count('/registry/configmaps/'), 10_000);
    await backend.close();
  });
});
