import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'deadline-bookmarks';
const WATCH = `/api/v1/namespaces/${NS}/configmaps?watch=true`;

function eventsOf(text: string): { type: string; object: any }[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

// kube-apiserver's watch cache bookmarks a watcher 2 s before its deadline (besides roughly every minute), so a
// client re-watching after a short timeoutSeconds resumes from a recent revision. The periodic interval here is the
// CLI's minute, so every bookmark these watches see is the pre-deadline one.
describe('a BOOKMARK comes 2 s before the watch deadline', () => {
  let ts: TestServer;
  let listed: string;
  before(async () => {
    ts = await startTestServer({ bookmarkIntervalMs: 60_000 });
    assert.equal((await ts.request('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
    listed = (await ts.request('GET', `/api/v1/namespaces/${NS}/configmaps`)).json.metadata.resourceVersion;
    assert.equal((await ts.request('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'a' } })).status, 201);
  });
  after(async () => {
    await ts.stop();
  });

  it('sends one before a 3 s timeout, none before a 2 s one, none unless allowed', async () => {
    const [three, two, unasked] = await Promise.all([
      ts.request('GET', `${WATCH}&resourceVersion=${listed}&allowWatchBookmarks=true&timeoutSeconds=3`),
      ts.request('GET', `${WATCH}&resourceVersion=${listed}&allowWatchBookmarks=true&timeoutSeconds=2`),
      ts.request('GET', `${WATCH}&resourceVersion=${listed}&timeoutSeconds=3`),
    ]);
    const created = (await ts.request('GET', `/api/v1/namespaces/${NS}/configmaps/a`)).json.metadata.resourceVersion;

    const events = eventsOf(three.text);
    assert.deepEqual(
      events.map((e) => e.type),
      ['ADDED', 'BOOKMARK'],
    );
    const bookmark = events[1]?.object;
    assert.equal(bookmark.kind, 'ConfigMap');
    assert.equal(bookmark.apiVersion, 'v1');
    assert.ok(
      Number(bookmark.metadata.resourceVersion) >= Number(created),
      `bookmark at ${bookmark.metadata.resourceVersion}, create at ${created}`,
    );
    assert.deepEqual(
      eventsOf(two.text).map((e) => e.type),
      ['ADDED'],
    );
    assert.deepEqual(
      eventsOf(unasked.text).map((e) => e.type),
      ['ADDED'],
    );
  });
});
