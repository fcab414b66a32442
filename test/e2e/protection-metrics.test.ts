import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createRule,
  dependent,
  dependentsPath,
  createProviderDependentCrds,
  metric,
  provider,
  providerRule,
  providersPath,
  waitForGone,
} from '../support/protection-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const N = 200;
const RULE = 'counted';
const CONTROLLER = `protectionrule/${RULE}`;
const P = providersPath('default');
const D = dependentsPath('default');

describe('live LISTs while a provider with N dependents is deleted and they go one by one', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
    await createProviderDependentCrds(ts);
    await createRule(ts, providerRule(RULE));
  });
  after(async () => {
    await ts.stop();
  });

  it(`are O(1): with ${N} dependents at most 3 live LISTs, every other decision from the cache (/metrics)`, async () => {
    assert.equal((await ts.request('POST', P, provider('shared'))).status, 201);
    assert.equal((await ts.request('POST', P, provider('other'))).status, 201);
    for (let i = 0; i < N; i++) {
      const res = await ts.request(
        'POST',
        D,
        dependent(`d-${i}`, i % 2 === 0 ? { providerName: 'shared' } : { providers: ['other', 'shared'] }),
      );
      assert.equal(res.status, 201, res.text);
    }
    const listsBefore = await metric(ts, 'cascade_protection_live_lists_total', CONTROLLER);
    const hitsBefore = await metric(ts, 'cascade_protection_cache_hits_total', CONTROLLER);
    const removedBefore = await metric(ts, 'cascade_protection_finalizers_removed_total', CONTROLLER);
    assert.equal((await ts.request('DELETE', `${P}/shared`)).status, 200);
    for (let i = 0; i < N - 1; i++) {
      assert.equal((await ts.request('DELETE', `${D}/d-${i}`)).status, 200);
      // Let the controller reconsider the provider after each deletion, so each one costs a decision.
      const hits = hitsBefore + i + 1;
      await waitFor(async () => ((await metric(ts, 'cascade_protection_cache_hits_total', CONTROLLER)) >= hits ? true : undefined), {
        timeoutMs: 5000,
        what: `cache hit ${hits}`,
      });
    }
    assert.ok((await ts.request('GET', `${P}/shared`)).status === 200, 'one dependent still holds the provider');
    assert.equal((await ts.request('DELETE', `${D}/d-${N - 1}`)).status, 200);
    await waitForGone(ts, `${P}/shared`);
    const lists = (await metric(ts, 'cascade_protection_live_lists_total', CONTROLLER)) - listsBefore;
    assert.ok(lists >= 1 && lists <= 3, `live lists: ${lists}`);
    assert.ok((await metric(ts, 'cascade_protection_cache_hits_total', CONTROLLER)) - hitsBefore >= N - 1);
    assert.equal((await metric(ts, 'cascade_protection_finalizers_removed_total', CONTROLLER)) - removedBefore, 1);
  });
});
