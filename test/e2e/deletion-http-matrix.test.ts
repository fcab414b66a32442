import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertFailure,
  assertNearTime,
  CMS,
  configMap,
  deletionRequests,
  type Json,
  pod,
  PODS,
  type Response,
  startDeletionServer,
  successStatus,
  USER_FINALIZER,
} from '../support/deletion-fixtures.js';
import type { TestServer } from '../support/test-server.js';

// The deletion matrix: finalizers × propagation × grace × repeat, each outcome per §2 of the spec, rule by rule.

type Subject = 'configmap' | 'pod';
type Grace = 'none' | 0 | 30;
type Transport = 'query' | 'body';

interface Policy {
  readonly label: string;
  readonly options: Json;
}

const POLICIES: readonly Policy[] = [
  { label: 'no propagation option', options: {} },
  { label: 'propagationPolicy=Orphan', options: { propagationPolicy: 'Orphan' } },
  { label: 'propagationPolicy=Background', options: { propagationPolicy: 'Background' } },
  { label: 'propagationPolicy=Foreground', options: { propagationPolicy: 'Foreground' } },
  { label: 'orphanDependents=true', options: { orphanDependents: true } },
  { label: 'orphanDependents=false', options: { orphanDependents: false } },
];

interface Case {
  readonly subject: Subject;
  readonly grace: Grace;
  readonly userFinalizer: boolean;
  readonly policy: Policy;
  readonly transport: Transport;
  readonly deletes: 1 | 2;
}

interface Expected {
  readonly rule: string;
  /** Response of the last DELETE. */
  readonly code: 200 | 202 | 404;
  readonly body: 'object' | 'status' | 'notfound';
  /** Stored state after the DELETE(s); `finalizers` and `gracePeriod` apply only when the object remains. */
  readonly remains: boolean;
  readonly finalizers: readonly string[];
  readonly gracePeriod: number;
  /** Watch events for the object after its creation, over all DELETEs. */
  readonly events: readonly ('MODIFIED' | 'DELETED')[];
  /** Whether the DELETED event (if any) carries a deletionTimestamp (R2.28). */
  readonly deletedMarked: boolean;
}

/** R2.13–R2.15 for resources whose default is background (configmaps, pods). */
function gcFinalizer(options: Json): string | undefined {
  if (options.orphanDependents === true || options.propagationPolicy === 'Orphan') return 'orphan';
  if (options.propagationPolicy === 'Foreground') return 'foregroundDeletion';
  return undefined;
}

function expected(c: Case): Expected {
  const gc = gcFinalizer(c.policy.options);
  const finalizers = [...(c.userFinalizer ? [USER_FINALIZER] : []), ...(gc === undefined ? [] : [gc])];
  // R2.26: legacy orphanDependents=false answers 202 whenever the object stays.
  const kept: 200 | 202 = c.policy.options.orphanDependents === false ? 202 : 200;
  let first: Expected;
  if (c.subject === 'pod') {
    const period = c.grace === 'none' ? 30 : c.grace;
    if (period > 0) {
      first = {
        rule: 'R2.18',
        code: kept,
        body: 'object',
        remains: true,
        finalizers,
        gracePeriod: period,
        events: ['MODIFIED'],
        deletedMarked: false,
      };
    } else if (finalizers.length > 0) {
      first = {
        rule: 'R2.19',
        code: kept,
        body: 'object',
        remains: true,
        finalizers,
        gracePeriod: 0,
        events: ['MODIFIED'],
        deletedMarked: false,
      };
    } else {
      first = {
        rule: 'R2.19',
        code: 200,
        body: 'object',
        remains: false,
        finalizers: [],
        gracePeriod: 0,
        events: ['MODIFIED', 'DELETED'],
        deletedMarked: true,
      };
    }
  } else if (finalizers.length > 0) {
    first = {
      rule: 'R2.22',
      code: kept,
      body: 'object',
      remains: true,
      finalizers,
      gracePeriod: 0,
      events: ['MODIFIED'],
      deletedMarked: false,
    };
  } else {
    first = {
      rule: 'R2.23',
      code: 200,
      body: 'status',
      remains: false,
      finalizers: [],
      gracePeriod: 0,
      events: ['DELETED'],
      deletedMarked: false,
    };
  }
  if (c.deletes === 1) return first;
  if (!first.remains) return { ...first, rule: 'R2.5', code: 404, body: 'notfound' };
  // A repeated DELETE with the same options changes nothing: a pending grace period is kept (R2.20), and a
  // finalizer-only deletion recomputes the same GC finalizers (R2.21, R2.32).
  return { ...first, rule: first.gracePeriod > 0 ? 'R2.20' : 'R2.32' };
}

function queryOf(c: Case): string {
  const params = new URLSearchParams();
  if (c.grace !== 'none') params.set('gracePeriodSeconds', String(c.grace));
  for (const [k, v] of Object.entries(c.policy.options)) params.set(k, String(v));
  const q = params.toString();
  return q === '' ? '' : `?${q}`;
}

function bodyOf(c: Case): Json {
  const body: Json = { kind: 'DeleteOptions', apiVersion: 'v1', ...c.policy.options };
  if (c.grace !== 'none') body.gracePeriodSeconds = c.grace;
  return body;
}

function describeCase(c: Case, e: Expected): string {
  const subject =
    c.subject === 'pod' ? `bound pod, grace ${c.grace}` : `configmap${c.grace === 'none' ? '' : `, grace ${c.grace} (ignored)`}`;
  const fin = c.userFinalizer ? `[${USER_FINALIZER}]` : 'no finalizers';
  const outcome =
    e.body === 'notfound'
      ? '404'
      : `${e.code} ${e.body}, ${e.remains ? `kept with finalizers [${e.finalizers.join(', ')}]` : 'removed'}, events ${e.events.join('+')}`;
  return `${e.rule}: ${subject}, ${fin}, ${c.policy.label}, ${c.deletes === 1 ? '1st' : '2nd'} DELETE via ${c.transport} → ${outcome}`;
}

function matrix(): Case[] {
  const subjects: { subject: Subject; grace: Grace }[] = [
    { subject: 'configmap', grace: 'none' },
    { subject: 'configmap', grace: 30 },
    { subject: 'pod', grace: 'none' },
    { subject: 'pod', grace: 0 },
    { subject: 'pod', grace: 30 },
  ];
  const runs: { transport: Transport; deletes: 1 | 2 }[] = [
    { transport: 'query', deletes: 1 },
    { transport: 'body', deletes: 1 },
    { transport: 'body', deletes: 2 },
  ];
  const cases: Case[] = [];
  for (const s of subjects) {
    for (const userFinalizer of [false, true]) {
      for (const policy of POLICIES) {
        for (const run of runs) cases.push({ ...s, userFinalizer, policy, ...run });
      }
    }
  }
  return cases;
}

describe('object deletion over HTTP (§1, §2)', () => {
  let ts: TestServer;
  const { create, get, del, unique, watchDuring } = deletionRequests(() => ts);

  before(async () => {
    ts = await startDeletionServer();
  });
  after(async () => {
    await ts.stop();
  });

  describe('matrix: finalizers × propagation × grace × repeat', () => {
    for (const c of matrix()) {
      const e = expected(c);
      it(describeCase(c, e), async () => {
        const id = unique('m');
        const name = `obj-${id}`;
        const collection = c.subject === 'pod' ? PODS : CMS;
        const meta: Json = { labels: { case: id } };
        if (c.userFinalizer) meta.finalizers = [USER_FINALIZER];
        const created = await create(collection, c.subject === 'pod' ? pod(name, meta, 'node-a') : configMap(name, meta));
        const path = `${collection}/${name}`;
        let res: Response | undefined;
        const deletedAt = Date.now();
        const events = await watchDuring(collection, id, created.metadata.resourceVersion, async () => {
          for (let i = 0; i < c.deletes; i++) {
            res = c.transport === 'query' ? await del(path + queryOf(c)) : await del(path, bodyOf(c));
          }
        });
        assert.ok(res);

        assert.equal(res.status, e.code, res.text);
        if (e.body === 'notfound') {
          const s = assertFailure(res, 404, 'NotFound');
          assert.equal(s.message, `${c.subject === 'pod' ? 'pods' : 'configmaps'} "${name}" not found`);
        } else if (e.body === 'status') {
          assert.deepEqual(res.json, successStatus(name, '', 'configmaps', created.metadata.uid));
        } else {
          assert.equal(res.json.kind, c.subject === 'pod' ? 'Pod' : 'ConfigMap', res.text);
          assert.equal(res.json.metadata.name, name);
          assert.equal(res.json.metadata.uid, created.metadata.uid);
          assert.equal(typeof res.json.metadata.deletionTimestamp, 'string', 'the answer shows the deletion');
          assert.equal(res.json.metadata.deletionGracePeriodSeconds, e.gracePeriod);
          assert.deepEqual(res.json.metadata.finalizers ?? [], e.remains ? e.finalizers : []);
        }

        const stored = await get(path);
        if (!e.remains) {
          assert.equal(stored.status, 404, `expected removal, found ${stored.text}`);
        } else {
          assert.equal(stored.status, 200, stored.text);
          const m = stored.json.metadata;
          assert.deepEqual(m.finalizers ?? [], e.finalizers);
          assert.equal(m.deletionGracePeriodSeconds, e.gracePeriod);
          // R1.15: graceful deletion stamps now + grace; finalizer-only deletion stamps now.
          assertNearTime(m.deletionTimestamp, deletedAt + e.gracePeriod * 1000, 'deletionTimestamp');
          if (e.body === 'object') assert.equal(res.json.metadata.resourceVersion, m.resourceVersion, 'the answer is the stored state');
        }

        assert.deepEqual(
          events.map((ev) => ev.type),
          e.events,
          `events: ${JSON.stringify(events.map((ev) => [ev.type, ev.object?.metadata]))}`,
        );
        for (const ev of events) {
          const m = ev.object.metadata;
          assert.equal(m.name, name);
          if (ev.type === 'MODIFIED') {
            assert.equal(typeof m.deletionTimestamp, 'string', 'R2.28: MODIFIED shows the mark');
            assert.deepEqual(m.finalizers ?? [], e.remains ? e.finalizers : []);
          } else {
            assert.equal(
              typeof m.deletionTimestamp === 'string',
              e.deletedMarked,
              `R2.28: DELETED carries the last state: ${JSON.stringify(m)}`,
            );
          }
        }
      });
    }
  });
});
