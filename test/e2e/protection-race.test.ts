import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StatusError } from '../../src/api/errors.js';
import type { KubeObject } from '../../src/api/types.js';
import { createInProcessClient } from '../../src/server/in-process-client.js';
import type { ApiClient, ResourceRef } from '../../src/client/interface.js';
import { BUILTIN_DEFINITIONS } from '../../src/kinds/definitions.js';
import { assertProviderUsable, ProviderUnusableError } from '../../src/protection/provider-usable.js';
import type { ProtectionRule } from '../../src/protection/rule-types.js';
import { createRule, dependent, GROUP, createProviderDependentCrds, provider, providerRule } from '../support/protection-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PROVIDERS: ResourceRef = { group: GROUP, version: 'v1', resource: 'providers' };
const DEPENDENTS: ResourceRef = { group: GROUP, version: 'v1', resource: 'dependents' };
const RULE = 'race';
const LABEL = `protectionrule.cascade.dev/${RULE}`;
const ROUNDS = 300;
const PARALLEL = 10;
const NS = 'default';

const jitter = async (): Promise<void> => {
  for (let i = Math.floor(Math.random() * 4); i > 0; i--) await new Promise((resolve) => setImmediate(resolve));
};

type Outcome = 'InUse' | 'Broken' | 'refused';

/**
 * The design's dependent implementation controller, reduced to one dependent: before "implementing" the dependency
 * (recording phase InUse) it reads the provider live; a provider that is gone or being deleted makes the dependent
 * permanently Broken, which the rule's condition counts as no longer using it.
 */
async function implement(client: ApiClient, rule: ProtectionRule, dep: KubeObject, providerName: string): Promise<Outcome> {
  let phase: 'InUse' | 'Broken';
  for (;;) {
    try {
      await jitter();
      await assertProviderUsable(client, rule, providerName, NS);
      phase = 'InUse';
      break;
    } catch (err) {
      if (!(err instanceof ProviderUnusableError)) throw err;
      if (err.reason !== 'Unprotected') {
        phase = 'Broken';
        break;
      }
    }
  }
  await jitter();
  await client.patch(DEPENDENTS, NS, dep.metadata.name ?? '', 'merge', { status: { phase } });
  return phase;
}

describe('the design’s race: deleting a provider while a dependent that uses it is created', () => {
  let ts: TestServer;
  let client: ApiClient;
  before(async () => {
    ts = await startTestServer();
    client = createInProcessClient(ts.server.registry, BUILTIN_DEFINITIONS);
    await createProviderDependentCrds(ts);
    await createRule(ts, providerRule(RULE));
  });
  after(async () => {
    await ts.stop();
  });

  it(`${ROUNDS} rounds: never a dependent marked InUse whose provider is gone`, async (t) => {
    const rule = (await client.get(
      { group: 'cascade.dev', version: 'v1alpha1', resource: 'protectionrules' },
      undefined,
      RULE,
    )) as ProtectionRule;
    // Whenever a provider leaves storage, no dependent naming it may be InUse (a live, consistent check).
    const violations: string[] = [];
    const checks: Promise<void>[] = [];
    const watch = await client.watch(PROVIDERS, NS, {});
    const watching = (async () => {
      for await (const event of watch) {
        if (event.type !== 'DELETED') continue;
        const name = (event.object as KubeObject).metadata.name ?? '';
        checks.push(
          client.list(DEPENDENTS, NS, { fieldSelector: `${LABEL}=${name}` }).then((list) => {
            for (const d of list.items)
              if ((d.status as { phase?: string } | undefined)?.phase === 'InUse') violations.push(`${d.metadata.name} uses ${name}`);
          }),
        );
      }
    })();

    const outcomes: Outcome[] = [];
    const round = async (i: number): Promise<void> => {
      const p = `p-${i}`;
      await client.create(PROVIDERS, NS, provider(p) as KubeObject);
      const deleteProvider = async (): Promise<void> => {
        if (i % 3 === 0) await jitter();
        await client.delete(PROVIDERS, NS, p);
      };
      const createAndImplement = async (): Promise<void> => {
        if (i % 3 === 1) await jitter();
        const spec = i % 2 === 0 ? { providerName: p } : { providers: [`p-${i}`] };
        let dep: KubeObject;
        try {
          dep = await client.create(DEPENDENTS, NS, dependent(`d-${i}`, spec) as KubeObject);
        } catch (err) {
          assert.ok(err instanceof StatusError && err.code === 403, String(err));
          outcomes.push('refused');
          return;
        }
        outcomes.push(await implement(client, rule, dep, p));
      };
      await Promise.all([deleteProvider(), createAndImplement()]);
    };
    for (let start = 0; start < ROUNDS; start += PARALLEL) {
      await Promise.all(Array.from({ length: Math.min(PARALLEL, ROUNDS - start) }, (_, k) => round(start + k)));
    }

    // Providers whose dependent never came, or broke, go; those with an InUse dependent are still there.
    const inUse = new Set<string>();
    for (const d of (await client.list(DEPENDENTS, NS)).items) {
      if ((d.status as { phase?: string } | undefined)?.phase === 'InUse')
        inUse.add(
          String(
            (d.spec as { providerName?: string; providers?: string[] }).providerName ?? (d.spec as { providers: string[] }).providers[0],
          ),
        );
    }
    await waitFor(async () => ((await client.list(PROVIDERS, NS)).items.length === inUse.size ? true : undefined), {
      timeoutMs: 10_000,
      what: 'unused providers to go',
    });
    const left = (await client.list(PROVIDERS, NS)).items.map((p) => p.metadata.name ?? '');
    assert.deepEqual(left.sort(), [...inUse].sort(), 'exactly the providers of InUse dependents remain');
    for (const p of (await client.list(PROVIDERS, NS)).items) assert.ok(p.metadata.deletionTimestamp, `${p.metadata.name} is terminating`);

    // Once the users go, so do the providers.
    await client.deleteCollection(DEPENDENTS, NS);
    await waitFor(async () => ((await client.list(PROVIDERS, NS)).items.length === 0 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'every provider to go',
    });
    watch.stop();
    await watching;
    await Promise.all(checks);

    assert.deepEqual(violations, []);
    assert.equal(outcomes.length, ROUNDS);
    const count = (o: Outcome): number => outcomes.filter((x) => x === o).length;
    t.diagnostic(`InUse ${count('InUse')}, Broken ${count('Broken')}, refused ${count('refused')}`);
    assert.ok(
      count('InUse') > 0 && count('Broken') + count('refused') > 0,
      `both sides win some rounds: ${JSON.stringify({ inUse: count('InUse'), broken: count('Broken'), refused: count('refused') })}`,
    );
  });
});
