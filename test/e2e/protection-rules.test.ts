import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createInProcessClient } from '../../src/server/in-process-client.js';
import { BUILTIN_DEFINITIONS } from '../../src/kinds/definitions.js';
import { assertProviderUsable, ProviderUnusableError } from '../../src/protection/provider-usable.js';
import type { ProtectionRule } from '../../src/protection/rule-types.js';
import {
  assertHeld,
  createRule,
  dependent,
  dependentsPath,
  GROUP,
  getJson,
  IN_USE_FINALIZER,
  createProviderDependentCrds,
  type Json,
  provider,
  providerRule,
  providersPath,
  RULES_PATH,
  waitForGone,
} from '../support/protection-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const P = providersPath('default');
const D = dependentsPath('default');
const RULE = 'providers-in-use';
const LABEL = `protectionrule.cascade.dev/${RULE}`;

async function create(ts: TestServer, path: string, body: Json): Promise<Json> {
  const res = await ts.request('POST', path, body);
  assert.equal(res.status, 201, res.text);
  return res.json;
}

async function update(ts: TestServer, path: string, change: (obj: Json) => Json): Promise<Json> {
  const current = await getJson(ts, path);
  const res = await ts.request('PUT', path, change(structuredClone(current) as Json));
  assert.equal(res.status, 200, res.text);
  return res.json;
}

describe('ProtectionRule: declarative in-use protection for a custom Provider/Dependent pair', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
    await createProviderDependentCrds(ts);
    // A provider that exists before the rule does.
    await create(ts, P, provider('early'));
    await createRule(ts, providerRule(RULE));
  });
  after(async () => {
    await ts.stop();
  });

  it('the rule is born with its cleanup finalizer; providers existing before it get the finalizer', async () => {
    const rule = await getJson(ts, `${RULES_PATH}/${RULE}`);
    assert.deepEqual(rule?.metadata.finalizers, ['cascade.dev/protection-rule-cleanup']);
    await waitFor(async () => ((await getJson(ts, `${P}/early`))?.metadata.finalizers?.includes(IN_USE_FINALIZER) ? true : undefined));
  });

  it('new providers are born with the finalizer (admission)', async () => {
    assert.deepEqual((await create(ts, P, provider('fresh'))).metadata.finalizers, [IN_USE_FINALIZER]);
  });

  it('a provider named by a single-valued reference stays Terminating until the dependent goes', async () => {
    await create(ts, P, provider('single'));
    await create(ts, D, dependent('uses-single', { providerName: 'single' }));
    assert.equal((await ts.request('DELETE', `${P}/single`)).status, 200);
    await assertHeld(ts, `${P}/single`);
    assert.equal((await ts.request('DELETE', `${D}/uses-single`)).status, 200);
    await waitForGone(ts, `${P}/single`);
  });

  it('providers named in a list are each held until no dependent lists them', async () => {
    await create(ts, P, provider('l1'));
    await create(ts, P, provider('l2'));
    await create(ts, D, dependent('lists-both', { providers: ['l1', 'l2'] }));
    await create(ts, D, dependent('lists-l2', { providers: ['l2'] }));
    await ts.request('DELETE', `${P}/l1`);
    await ts.request('DELETE', `${P}/l2`);
    await assertHeld(ts, `${P}/l1`);
    await ts.request('DELETE', `${D}/lists-both`);
    await waitForGone(ts, `${P}/l1`);
    await assertHeld(ts, `${P}/l2`);
    await ts.request('DELETE', `${D}/lists-l2`);
    await waitForGone(ts, `${P}/l2`);
  });

  it('a dependent for which the condition fails no longer holds its provider', async () => {
    await create(ts, P, provider('cond'));
    await create(ts, D, dependent('breaks', { providerName: 'cond' }));
    await ts.request('DELETE', `${P}/cond`);
    await assertHeld(ts, `${P}/cond`);
    await update(ts, `${D}/breaks`, (d) => ({ ...d, status: { phase: 'Broken' } }));
    await waitForGone(ts, `${P}/cond`);
    assert.ok(await getJson(ts, `${D}/breaks`), 'the broken dependent stays');
  });

  it('the reference field label selects exactly the dependents naming a provider, list members included', async () => {
    await create(ts, P, provider('sel-a'));
    await create(ts, P, provider('sel-b'));
    await create(ts, D, dependent('sel-1', { providerName: 'sel-a' }));
    await create(ts, D, dependent('sel-2', { providers: ['sel-b', 'sel-a'] }));
    await create(ts, D, dependent('sel-3', { providers: ['sel-b'] }));
    const names = async (selector: string): Promise<string[]> => {
      const res = await ts.request('GET', `${D}?fieldSelector=${encodeURIComponent(selector)}`);
      assert.equal(res.status, 200, res.text);
      return res.json.items.map((i: Json) => i.metadata.name).sort();
    };
    assert.deepEqual(await names(`${LABEL}=sel-a`), ['sel-1', 'sel-2']);
    assert.deepEqual(await names(`${LABEL}=sel-b`), ['sel-2', 'sel-3']);
    assert.deepEqual(await names(`${LABEL}=sel-b,metadata.name!=sel-2`), ['sel-3']);
    const unknown = await ts.request('GET', `${P}?fieldSelector=${encodeURIComponent(`${LABEL}=x`)}`);
    assert.equal(unknown.status, 400, 'providers have no such field');
  });

  it('admission refuses a dependent naming a missing or terminating provider (403, Kubernetes wording)', async () => {
    const missing = await ts.request('POST', D, dependent('orphan', { providers: ['fresh', 'nope'] }));
    assert.equal(missing.status, 403, missing.text);
    assert.equal(missing.json.reason, 'Forbidden');
    assert.equal(missing.json.message, `dependents.${GROUP} "orphan" is forbidden: providers.${GROUP} "nope" not found`);
    assert.deepEqual(missing.json.details.causes, [
      { reason: 'ProviderNotFound', message: `providers.${GROUP} "nope" not found`, field: 'spec.providers[*]' },
    ]);

    await create(ts, P, provider('dying'));
    await create(ts, D, dependent('keeps-dying', { providerName: 'dying' }));
    await ts.request('DELETE', `${P}/dying`);
    const late = await ts.request('POST', D, dependent('too-late', { providerName: 'dying' }));
    assert.equal(late.status, 403, late.text);
    assert.equal(
      late.json.message,
      `dependents.${GROUP} "too-late" is forbidden: unable to refer to providers.${GROUP} "dying" because it is being deleted`,
    );
    // An update may not add a reference to it either, but may keep the one it has.
    const added = await ts.request('PUT', `${D}/keeps-dying`, {
      ...(await getJson(ts, `${D}/keeps-dying`)),
      spec: { providerName: 'dying', providers: ['nope'] },
    });
    assert.equal(added.status, 403, added.text);
    await update(ts, `${D}/keeps-dying`, (d) => ({ ...d, metadata: { ...d.metadata, labels: { touched: 'yes' } } }));
    await ts.request('DELETE', `${D}/keeps-dying`);
    await waitForGone(ts, `${P}/dying`);
  });

  it('assertProviderUsable reads the provider live: present and protected passes; terminating or missing throws', async () => {
    const client = createInProcessClient(ts.server.registry, BUILTIN_DEFINITIONS);
    const rule = (await getJson(ts, `${RULES_PATH}/${RULE}`)) as ProtectionRule;
    await create(ts, P, provider('usable'));
    const got = await assertProviderUsable(client, rule, 'usable', 'default');
    assert.equal(got.metadata.name, 'usable');
    await assert.rejects(
      assertProviderUsable(client, rule, 'absent', 'default'),
      (err: unknown) => err instanceof ProviderUnusableError && err.reason === 'NotFound',
    );
    await create(ts, D, dependent('holds-usable', { providerName: 'usable' }));
    await ts.request('DELETE', `${P}/usable`);
    await assert.rejects(
      assertProviderUsable(client, rule, 'usable', 'default'),
      (err: unknown) => err instanceof ProviderUnusableError && err.reason === 'Terminating',
    );
    await ts.request('DELETE', `${D}/holds-usable`);
    await waitForGone(ts, `${P}/usable`);
  });

  it('rule specs are validated and immutable (422)', async () => {
    const bad = providerRule('bad');
    bad.spec.references = ['spec.name'];
    bad.spec.finalizer = 'unqualified';
    const res = await ts.request('POST', RULES_PATH, bad);
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(
      res.json.details.causes.map((c: Json) => c.field),
      ['spec.references[0]', 'spec.finalizer'],
    );
    const rule = await getJson(ts, `${RULES_PATH}/${RULE}`);
    const changed = await ts.request('PUT', `${RULES_PATH}/${RULE}`, { ...rule, spec: { ...rule?.spec, condition: '' } });
    assert.equal(changed.status, 422, changed.text);
    assert.match(changed.json.message, /spec is immutable/);
  });

  it('deleting the rule withdraws the protection: the finalizer leaves every provider, then the rule goes', async () => {
    await create(ts, D, dependent('last-user', { providerName: 'early' }));
    await ts.request('DELETE', `${P}/early`);
    await assertHeld(ts, `${P}/early`);
    assert.equal((await ts.request('DELETE', `${RULES_PATH}/${RULE}`)).status, 200);
    await waitForGone(ts, `${RULES_PATH}/${RULE}`);
    await waitForGone(ts, `${P}/early`);
    assert.deepEqual((await getJson(ts, `${P}/fresh`))?.metadata.finalizers, undefined);
    assert.deepEqual((await create(ts, P, provider('after-rule'))).metadata.finalizers, undefined);
  });
});
