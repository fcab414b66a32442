import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { configMap, type GcApi, gcApi, type Json, namespaceObject, ownerRef, secret } from '../support/gc-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Many owners deleted at once with mixed policies (GC-INT TestStressingCascadingDeletion, reduced; R4.27, R4.29,
// R4.31, R4.34–R4.37). Shared dependents only pair owners whose policies give an order-independent outcome:
// a cascading owner together with an orphaning one could leave either result depending on which the GC sees first.
const NS = 'gc-stress';
const OWNERS = 50;
const DEPENDENTS_PER_OWNER = 20;
const POLICIES = ['Background', 'Foreground', 'Orphan'] as const;
type Policy = (typeof POLICIES)[number];

const policyOf = (i: number): Policy => POLICIES[i % 3] as Policy;

/** Runs `work` over `items` with at most `limit` in flight. */
async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}

interface Expected {
  /** `<Kind>/<name>` → the ownerReferences it must end with (undefined: none). */
  readonly survivors: Map<string, Json[] | undefined>;
  /** `<Kind>/<name>` of everything that must be gone. */
  readonly gone: Set<string>;
}

const key = (obj: Json): string => `${obj.kind}/${obj.metadata.name}`;

describe('garbage collector: concurrent deletion of many owners', () => {
  let ts: TestServer;
  let gc: GcApi;

  before(async () => {
    ts = await startTestServer();
    gc = gcApi(ts);
    await gc.create(namespaceObject(NS));
  });
  after(async () => {
    await ts.stop();
  });

  async function snapshot(): Promise<Map<string, Json>> {
    const all = new Map<string, Json>();
    for (const [kind, plural] of [
      ['ConfigMap', 'configmaps'],
      ['Secret', 'secrets'],
    ] as const) {
      const res = await ts.request('GET', `/api/v1/namespaces/${NS}/${plural}`);
      assert.equal(res.status, 200, res.text);
      for (const item of res.json.items as Json[]) all.set(`${kind}/${item.metadata.name}`, item);
    }
    return all;
  }

  /** Whether the live state is exactly the expected one; the reason when not. */
  function mismatch(live: Map<string, Json>, expected: Expected): string | undefined {
    for (const name of expected.gone) if (live.has(name)) return `${name} still exists`;
    for (const [name, refs] of expected.survivors) {
      const obj = live.get(name);
      if (obj === undefined) return `${name} was deleted`;
      if (obj.metadata.deletionTimestamp !== undefined) return `${name} is being deleted`;
      if (JSON.stringify(obj.metadata.ownerReferences) !== JSON.stringify(refs))
        return `${name} has ownerReferences ${JSON.stringify(obj.metadata.ownerReferences)}`;
    }
    const known = new Set([...expected.gone, ...expected.survivors.keys()]);
    const extra = [...live.keys()].filter((k) => !known.has(k) && !k.startsWith('ConfigMap/gc-sentinel'));
    return extra.length > 0 ? `unexpected objects ${extra.join(', ')}` : undefined;
  }

  it(`deletes ${OWNERS} owners × ${DEPENDENTS_PER_OWNER} dependents plus shared dependents concurrently, with mixed policies`, async () => {
    const expected: Expected = { survivors: new Map(), gone: new Set() };
    const keeper = await gc.create(configMap(NS, 'keeper'));
    expected.survivors.set(key(keeper), undefined);

    const owners = await inParallel(
      Array.from({ length: OWNERS }, (_, i) => i),
      25,
      (i) => gc.create(configMap(NS, `owner-${i}`)),
    );
    for (const o of owners) expected.gone.add(key(o));

    const specs: { obj: Json; survives: boolean; refsAfter?: Json[] }[] = [];
    owners.forEach((owner, i) => {
      const policy = policyOf(i);
      for (let j = 0; j < DEPENDENTS_PER_OWNER; j++) {
        const meta = { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: policy === 'Foreground' && j % 2 === 0 })] };
        const obj = j % 4 === 0 ? secret(NS, `dep-${i}-${j}`, meta) : configMap(NS, `dep-${i}-${j}`, meta);
        specs.push({ obj, survives: policy === 'Orphan' });
      }
    });
    // Two cascading owners (Background + Foreground): gone.
    for (let k = 0; k < 10; k++) {
      const [a, b] = [owners[3 * k] as Json, owners[3 * k + 1] as Json];
      specs.push({
        obj: configMap(NS, `shared-cascade-${k}`, { ownerReferences: [ownerRef(a), ownerRef(b, { blockOwnerDeletion: true })] }),
        survives: false,
      });
    }
    // Two orphaning owners: kept, without references.
    for (let k = 0; k < 5; k++) {
      const [a, b] = [owners[3 * k + 2] as Json, owners[3 * k + 5] as Json];
      specs.push({ obj: configMap(NS, `shared-orphan-${k}`, { ownerReferences: [ownerRef(a), ownerRef(b)] }), survives: true });
    }
    // One deleted owner of any policy and the keeper: kept with only the keeper (R4.27 prune, D1, or orphaning).
    for (let k = 0; k < 12; k++) {
      const doomed = owners[k] as Json;
      specs.push({
        obj: configMap(NS, `shared-keeper-${k}`, { ownerReferences: [ownerRef(doomed, { blockOwnerDeletion: true }), ownerRef(keeper)] }),
        survives: true,
        refsAfter: [ownerRef(keeper)],
      });
    }
    const created = await inParallel(specs, 50, (s) => gc.create(s.obj));
    created.forEach((obj, i) => {
      const spec = specs[i] as (typeof specs)[number];
      if (spec.survives) expected.survivors.set(key(obj), spec.refsAfter);
      else expected.gone.add(key(obj));
    });

    const deletes = await Promise.all(owners.map((o, i) => gc.delete(o, { propagationPolicy: policyOf(i) })));
    for (const res of deletes) assert.equal(res.status, 200, res.text);

    let reason: string | undefined;
    try {
      await waitFor(
        async () => {
          reason = mismatch(await snapshot(), expected);
          return reason === undefined ? true : undefined;
        },
        { timeoutMs: 10_000, what: 'the final state' },
      );
    } catch {
      assert.fail(`final state not reached within 10 s: ${reason}`);
    }

    // Nothing changes once the collector has caught up.
    await gc.settle({ namespace: NS });
    assert.equal(mismatch(await snapshot(), expected), undefined);
  });
});
