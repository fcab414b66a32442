import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openWatch as openEventStream } from '../support/gc-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'deletion';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const PODS = `/api/v1/namespaces/${NS}/pods`;
const DEPLOYS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const JOBS = `/apis/batch/v1/namespaces/${NS}/jobs`;
const USER_FINALIZER = 'example.com/x';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const JOB_WARNING =
  '299 - "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning"';

type Json = Record<string, any>;
interface Response {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

function configMap(name: string, meta: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, data: { k: 'v' } };
}

function pod(name: string, meta: Json = {}, nodeName?: string): Json {
  const spec: Json = { containers: [{ name: 'c', image: 'nginx' }] };
  if (nodeName !== undefined) spec.nodeName = nodeName;
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...meta }, spec };
}

function deployment(name: string): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

function job(name: string): Json {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
  };
}

/** The common shape of a failure Status (R9.1); returns it for further checks. */
function assertFailure(res: Response, code: number, reason: string): any {
  assert.equal(res.status, code, res.text);
  assert.equal(res.json?.kind, 'Status', res.text);
  assert.equal(res.json.status, 'Failure');
  assert.equal(res.json.reason, reason);
  assert.equal(res.json.code, code);
  return res.json;
}

/** R2.25: the Success Status of a removal, which names the plural resource and carries the uid. */
function successStatus(name: string, group: string, plural: string, uid: string): Json {
  const details: Json = { name };
  if (group !== '') details.group = group;
  details.kind = plural;
  details.uid = uid;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}

interface WatchStream {
  readonly events: Json[];
  /** Resolves with the first event matching `match`, failing after a timeout with what was seen. */
  until(match: (e: Json) => boolean, what: string): Promise<Json>;
  close(): Promise<void>;
}

/** The shared watch collector, plus a bounded wait for one event. */
async function openWatch(url: string): Promise<WatchStream> {
  const stream = await openEventStream(url);
  const events = stream.events;
  return {
    events,
    async until(match, what) {
      const deadline = Date.now() + 5000;
      for (;;) {
        const found = events.find(match);
        if (found !== undefined) return found;
        if (Date.now() > deadline)
          throw new Error(`watch never saw ${what}; events: ${JSON.stringify(events.map((e) => [e.type, e.object?.metadata?.name]))}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () => stream.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// The deletion matrix. Expected outcomes follow §2 of the spec, rule by rule.

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

function assertNearTime(actual: string | undefined, expectedMs: number, what: string): void {
  assert.equal(typeof actual, 'string', `${what} missing`);
  const diff = Math.abs(Date.parse(actual as string) - expectedMs);
  assert.ok(diff < 3000, `${what} ${actual} is ${diff}ms away from ${new Date(expectedMs).toISOString()}`);
}

describe('object deletion over HTTP (§1, §2)', () => {
  let ts: TestServer;
  let seq = 0;

  const create = async (path: string, body: Json): Promise<Json> => {
    const res = await ts.request('POST', path, body);
    assert.equal(res.status, 201, res.text);
    return res.json;
  };
  const get = (path: string): Promise<Response> => ts.request('GET', path);
  const del = (path: string, body?: unknown): Promise<Response> => ts.request('DELETE', path, body);
  const patch = (path: string, body: unknown): Promise<Response> => ts.request('PATCH', path, body, MERGE);
  const unique = (prefix: string): string => `${prefix}-${++seq}`;

  /**
   * Runs `act` while a watch over objects labelled `case=<id>` is open, then writes a sentinel with that label:
   * once its ADDED arrives every earlier event has been delivered, so the events before it are complete.
   */
  const watchDuring = async (collection: string, id: string, fromRv: string, act: () => Promise<void>): Promise<Json[]> => {
    const watch = await openWatch(`${ts.url}${collection}?watch=true&resourceVersion=${fromRv}&labelSelector=case%3D${id}`);
    try {
      await act();
      const sentinel = `sentinel-${id}`;
      await create(
        collection,
        collection === PODS ? pod(sentinel, { labels: { case: id } }) : configMap(sentinel, { labels: { case: id } }),
      );
      await watch.until((e) => e.type === 'ADDED' && e.object?.metadata?.name === sentinel, 'the sentinel');
      const end = watch.events.findIndex((e) => e.object?.metadata?.name === sentinel);
      return watch.events.slice(0, end);
    } finally {
      await watch.close();
    }
  };

  before(async () => {
    // These suites pin the registry's own deletion behaviour: with no controllers, GC and namespace finalizers stay (R2.30).
    ts = await startTestServer({ controllers: { garbageCollector: false, namespaceController: false } });
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
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

  describe('DeleteOptions decoding and validation (R2.1–R2.7)', () => {
    it('R2.2: options in a kubectl-style body are honoured', async () => {
      const name = unique('body');
      await create(CMS, configMap(name));
      const res = await del(`${CMS}/${name}`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.metadata.finalizers, ['foregroundDeletion']);
    });

    it('R2.2: a non-empty body wins and the query is ignored entirely', async () => {
      const a = unique('wins');
      const ca = await create(CMS, configMap(a));
      const res = await del(`${CMS}/${a}?propagationPolicy=Orphan`, {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        propagationPolicy: 'Background',
      });
      assert.deepEqual(res.json, successStatus(a, '', 'configmaps', ca.metadata.uid));

      const b = unique('wins');
      await create(CMS, configMap(b));
      const kept = await del(`${CMS}/${b}?propagationPolicy=Background`, {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        propagationPolicy: 'Orphan',
      });
      assert.equal(kept.status, 200, kept.text);
      assert.deepEqual((await get(`${CMS}/${b}`)).json.metadata.finalizers, ['orphan']);

      // Even options the body leaves out are not taken from the query.
      const c = unique('wins');
      await create(CMS, configMap(c));
      const plain = await del(`${CMS}/${c}?propagationPolicy=Orphan&orphanDependents=true`, { kind: 'DeleteOptions', apiVersion: 'v1' });
      assert.equal(plain.status, 200, plain.text);
      assert.equal(plain.json.kind, 'Status');
      assert.equal((await get(`${CMS}/${c}`)).status, 404);
    });

    const bothSet = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
      reason: 'Invalid',
      details: {
        group: 'meta.k8s.io',
        kind: 'DeleteOptions',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
            field: 'propagationPolicy',
          },
        ],
      },
      code: 422,
    };

    it('R2.3: orphanDependents and propagationPolicy together → the exact 422 Status (query and body)', async () => {
      const name = unique('both');
      await create(CMS, configMap(name));
      const viaQuery = await del(`${CMS}/${name}?orphanDependents=true&propagationPolicy=Orphan`);
      assert.equal(viaQuery.status, 422, viaQuery.text);
      assert.deepEqual(viaQuery.json, bothSet);
      const viaBody = await del(`${CMS}/${name}`, {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        orphanDependents: false,
        propagationPolicy: 'Orphan',
      });
      assert.equal(viaBody.status, 422, viaBody.text);
      assert.deepEqual(viaBody.json, bothSet);
      const stored = await get(`${CMS}/${name}`);
      assert.equal(stored.json.metadata.deletionTimestamp, undefined, 'a rejected DELETE changes nothing');
    });

    it('R2.3: an unknown propagationPolicy → 422 NotSupported', async () => {
      const name = unique('policy');
      await create(CMS, configMap(name));
      const res = await del(`${CMS}/${name}?propagationPolicy=Sideways`);
      const s = assertFailure(res, 422, 'Invalid');
      assert.equal(
        s.message,
        'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
      );
      assert.deepEqual(s.details, {
        group: 'meta.k8s.io',
        kind: 'DeleteOptions',
        causes: [
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
            field: 'propagationPolicy',
          },
        ],
      });
    });

    it('R2.3: an unknown dryRun value → 422 NotSupported', async () => {
      const name = unique('dry');
      await create(CMS, configMap(name));
      const s = assertFailure(await del(`${CMS}/${name}?dryRun=Some`), 422, 'Invalid');
      assert.equal(s.details.kind, 'DeleteOptions');
      assert.equal(s.details.causes[0].field, 'dryRun');
      assert.equal(s.details.causes[0].reason, 'FieldValueNotSupported');
      assert.match(s.details.causes[0].message, /supported values: "All"$/);
      assert.equal((await get(`${CMS}/${name}`)).status, 200);
    });

    it('R2.6: a uid precondition mismatch → 409 naming the Kind', async () => {
      const name = unique('pre');
      const created = await create(CMS, configMap(name));
      const res = await del(`${CMS}/${name}`, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-the-uid' } });
      const s = assertFailure(res, 409, 'Conflict');
      assert.equal(
        s.message,
        `Operation cannot be fulfilled on ConfigMap "${name}": the UID in the precondition (not-the-uid) does not match the UID in record (${created.metadata.uid}). The object might have been deleted and then recreated`,
      );
      assert.deepEqual(s.details, { name, kind: 'ConfigMap' });
      assert.equal((await get(`${CMS}/${name}`)).status, 200);
    });

    it('R2.6: a resourceVersion precondition mismatch → 409 (Deployment.apps)', async () => {
      const name = unique('pre');
      const created = await create(DEPLOYS, deployment(name));
      const rv = created.metadata.resourceVersion;
      const res = await del(`${DEPLOYS}/${name}`, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: '1' } });
      const s = assertFailure(res, 409, 'Conflict');
      assert.equal(
        s.message,
        `Operation cannot be fulfilled on Deployment.apps "${name}": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
      );
      assert.deepEqual(s.details, { name, group: 'apps', kind: 'Deployment' });
      const ok = await del(`${DEPLOYS}/${name}`, {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        preconditions: { uid: created.metadata.uid, resourceVersion: rv },
      });
      assert.deepEqual(ok.json, successStatus(name, 'apps', 'deployments', created.metadata.uid));
    });

    it('R2.5: DELETE of a missing object → 404 with the plural resource', async () => {
      const s = assertFailure(await del(`${DEPLOYS}/missing`), 404, 'NotFound');
      assert.equal(s.message, 'deployments.apps "missing" not found');
      assert.deepEqual(s.details, { name: 'missing', group: 'apps', kind: 'deployments' });
    });
  });

  describe('dry run (R2.27)', () => {
    it('a removal is answered as real but nothing is persisted and nothing is watched', async () => {
      const id = unique('dry');
      const name = `cm-${id}`;
      const created = await create(CMS, configMap(name, { labels: { case: id } }));
      let res: Response | undefined;
      const events = await watchDuring(CMS, id, created.metadata.resourceVersion, async () => {
        res = await del(`${CMS}/${name}?dryRun=All`);
      });
      assert.deepEqual(res?.json, successStatus(name, '', 'configmaps', created.metadata.uid));
      const stored = await get(`${CMS}/${name}`);
      assert.equal(stored.json.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.deepEqual(events, []);
    });

    it('a marking DELETE answers the marked object but stores nothing', async () => {
      const id = unique('dry');
      const name = `cm-${id}`;
      const created = await create(CMS, configMap(name, { labels: { case: id }, finalizers: [USER_FINALIZER] }));
      let res: Response | undefined;
      const events = await watchDuring(CMS, id, created.metadata.resourceVersion, async () => {
        res = await del(`${CMS}/${name}`, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'], propagationPolicy: 'Orphan' });
      });
      assert.equal(res?.status, 200, res?.text);
      assert.deepEqual(res.json.metadata.finalizers, [USER_FINALIZER, 'orphan']);
      assert.equal(typeof res.json.metadata.deletionTimestamp, 'string');
      const stored = (await get(`${CMS}/${name}`)).json;
      assert.equal(stored.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.equal(stored.metadata.deletionTimestamp, undefined);
      assert.deepEqual(stored.metadata.finalizers, [USER_FINALIZER]);
      assert.deepEqual(events, []);
    });
  });

  describe('Jobs default to orphan (R2.9)', () => {
    it('DELETE without a policy warns and leaves the job with the orphan finalizer', async () => {
      const name = unique('job');
      await create(JOBS, job(name));
      const res = await del(`${JOBS}/${name}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('warning'), JOB_WARNING);
      assert.deepEqual(res.json.metadata.finalizers, ['orphan'], 'R2.13: the orphan default adds the orphan finalizer');
      assert.equal(typeof res.json.metadata.deletionTimestamp, 'string');
    });

    it('DELETE with a policy (query or body) gives no warning', async () => {
      const a = unique('job');
      const ca = await create(JOBS, job(a));
      const background = await del(`${JOBS}/${a}?propagationPolicy=Background`);
      assert.equal(background.headers.get('warning'), null);
      assert.deepEqual(background.json, successStatus(a, 'batch', 'jobs', ca.metadata.uid));

      const b = unique('job');
      await create(JOBS, job(b));
      const orphan = await del(`${JOBS}/${b}`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' });
      assert.equal(orphan.status, 200, orphan.text);
      assert.equal(orphan.headers.get('warning'), null);
    });

    it('DELETECOLLECTION without a policy warns too', async () => {
      await create(JOBS, job(unique('job')));
      const res = await del(`${JOBS}?labelSelector=none%3Dmatches`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('warning'), JOB_WARNING);
    });
  });

  describe('DELETECOLLECTION (R2.39, R2.40)', () => {
    it('applies the options to each selected item and answers the list as it was read', async () => {
      const set = unique('set');
      const names = [`${set}-a`, `${set}-b`];
      for (const n of names) await create(CMS, configMap(n, { labels: { set } }));
      const other = await create(CMS, configMap(`${set}-other`, { labels: { set: 'other' } }));

      const res = await del(`${CMS}?labelSelector=set%3D${set}`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.kind, 'ConfigMapList');
      assert.equal(res.json.apiVersion, 'v1');
      assert.deepEqual(
        res.json.items.map((i: Json) => i.metadata.name),
        names,
      );
      for (const item of res.json.items) assert.equal(item.metadata.deletionTimestamp, undefined, 'items as listed, before deletion');
      for (const n of names) {
        const m = (await get(`${CMS}/${n}`)).json.metadata;
        assert.deepEqual(m.finalizers, ['orphan']);
        assert.equal(typeof m.deletionTimestamp, 'string');
      }
      const untouched = (await get(`${CMS}/${set}-other`)).json;
      assert.equal(untouched.metadata.resourceVersion, other.metadata.resourceVersion);

      // A Background pass drops the orphan finalizer per item, which removes them (R2.31).
      const second = await del(`${CMS}?labelSelector=set%3D${set}&propagationPolicy=Background`);
      assert.equal(second.status, 200, second.text);
      assert.equal(second.json.items.length, 2);
      for (const n of names) assert.equal((await get(`${CMS}/${n}`)).status, 404);
      assert.equal((await get(`${CMS}/${set}-other`)).status, 200);
    });

    it('graceful items follow the per-item rules (pods keep their grace period)', async () => {
      const set = unique('podset');
      await create(PODS, pod(`${set}-bound`, { labels: { set } }, 'node-a'));
      await create(PODS, pod(`${set}-unbound`, { labels: { set } }));
      const res = await del(`${PODS}?labelSelector=set%3D${set}`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 20 });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.kind, 'PodList');
      const bound = (await get(`${PODS}/${set}-bound`)).json.metadata;
      assert.equal(bound.deletionGracePeriodSeconds, 20);
      assert.equal((await get(`${PODS}/${set}-unbound`)).status, 404, 'R2.17: an unscheduled pod is removed at once');
    });
  });

  describe('finalizers while deleting (R1.20, R2.35)', () => {
    it('R1.20: adding a finalizer to a deleting object → 422 Forbidden; removing or reordering is allowed', async () => {
      const name = unique('fin');
      await create(CMS, configMap(name, { finalizers: [USER_FINALIZER, 'example.com/z'] }));
      assert.equal((await del(`${CMS}/${name}`)).status, 200);
      const res = await patch(`${CMS}/${name}`, { metadata: { finalizers: [USER_FINALIZER, 'example.com/z', 'example.com/y'] } });
      const s = assertFailure(res, 422, 'Invalid');
      assert.equal(
        s.message,
        `ConfigMap "${name}" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/y"}`,
      );
      assert.deepEqual(s.details, {
        name,
        kind: 'ConfigMap',
        causes: [
          {
            reason: 'FieldValueForbidden',
            message:
              'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/y"}',
            field: 'metadata.finalizers',
          },
        ],
      });
      const reordered = await patch(`${CMS}/${name}`, {
        metadata: { finalizers: ['example.com/z', USER_FINALIZER], labels: { still: 'mutable' } },
      });
      assert.equal(reordered.status, 200, reordered.text);
      assert.deepEqual(reordered.json.metadata.finalizers, ['example.com/z', USER_FINALIZER]);
      assert.equal(reordered.json.metadata.labels.still, 'mutable', 'R1.22');
    });

    it('R2.35: removing the last finalizer by PATCH removes the object; the watcher sees DELETED with the deletion mark', async () => {
      const id = unique('last');
      const name = `cm-${id}`;
      const created = await create(CMS, configMap(name, { labels: { case: id }, finalizers: [USER_FINALIZER] }));
      let patched: Response | undefined;
      const events = await watchDuring(CMS, id, created.metadata.resourceVersion, async () => {
        assert.equal((await del(`${CMS}/${name}`)).status, 200);
        patched = await patch(`${CMS}/${name}`, { metadata: { finalizers: null } });
      });
      assert.equal(patched?.status, 200, patched?.text);
      assert.equal(patched.json.kind, 'ConfigMap', 'the answer is the submitted object, not a Status');
      assert.equal(patched.json.metadata.finalizers, undefined);
      assert.equal(typeof patched.json.metadata.deletionTimestamp, 'string');
      assert.equal((await get(`${CMS}/${name}`)).status, 404);
      assert.deepEqual(
        events.map((e) => e.type),
        ['MODIFIED', 'DELETED'],
      );
      const gone = events[1]?.object.metadata;
      assert.equal(typeof gone.deletionTimestamp, 'string');
      // The DELETED event carries the last stored state; the finalizer-less update itself is never stored.
      assert.deepEqual(gone.finalizers, [USER_FINALIZER]);
    });

    it('R2.37: a pod still in its grace period is only updated when its last finalizer goes', async () => {
      const name = unique('graceful');
      await create(PODS, pod(name, { finalizers: [USER_FINALIZER] }, 'node-a'));
      assert.equal((await del(`${PODS}/${name}?gracePeriodSeconds=30`)).status, 200);
      const res = await patch(`${PODS}/${name}`, { metadata: { finalizers: null } });
      assert.equal(res.status, 200, res.text);
      const stored = await get(`${PODS}/${name}`);
      assert.equal(stored.status, 200, 'still terminating');
      assert.equal(stored.json.metadata.finalizers, undefined);
      assert.equal((await del(`${PODS}/${name}?gracePeriodSeconds=0`)).status, 200);
      assert.equal((await get(`${PODS}/${name}`)).status, 404);
    });
  });

  describe('repeated DELETEs (R2.20, R2.21, R2.31, R2.32)', () => {
    it('R2.31: Foreground → Orphan → Background switches the GC finalizer, then removes the object', async () => {
      const id = unique('switch');
      const name = `cm-${id}`;
      const created = await create(CMS, configMap(name, { labels: { case: id } }));
      const path = `${CMS}/${name}`;
      const seen: Json[] = [];
      const events = await watchDuring(CMS, id, created.metadata.resourceVersion, async () => {
        for (const policy of ['Foreground', 'Orphan']) {
          const res = await del(path, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: policy });
          assert.equal(res.status, 200, res.text);
          seen.push(res.json);
        }
        // R2.32: no options keep the current GC finalizer and write nothing.
        const same = await del(path);
        assert.equal(same.status, 200, same.text);
        assert.equal(same.json.metadata.resourceVersion, seen[1]?.metadata.resourceVersion);
        assert.deepEqual(same.json.metadata.finalizers, ['orphan']);
        const last = await del(path, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
        assert.deepEqual(last.json, successStatus(name, '', 'configmaps', created.metadata.uid));
      });
      assert.deepEqual(seen[0]?.metadata.finalizers, ['foregroundDeletion']);
      assert.deepEqual(seen[1]?.metadata.finalizers, ['orphan']);
      assert.equal(seen[1]?.metadata.deletionTimestamp, seen[0]?.metadata.deletionTimestamp, 'the first mark is kept');
      assert.deepEqual(
        events.map((e) => [e.type, e.object.metadata.finalizers]),
        [
          ['MODIFIED', ['foregroundDeletion']],
          ['MODIFIED', ['orphan']],
          ['DELETED', ['orphan']],
        ],
      );
      assert.equal((await get(path)).status, 404);
    });

    it('R2.31: with a user finalizer, Background only drops the GC finalizer', async () => {
      const name = unique('switch');
      await create(CMS, configMap(name, { finalizers: [USER_FINALIZER] }));
      await del(`${CMS}/${name}?propagationPolicy=Orphan`);
      const res = await del(`${CMS}/${name}?propagationPolicy=Background`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.metadata.finalizers, [USER_FINALIZER]);
      assert.deepEqual((await get(`${CMS}/${name}`)).json.metadata.finalizers, [USER_FINALIZER]);
    });

    it('R1.10: the first deletionTimestamp bumps a deployment generation; a second DELETE does not', async () => {
      const name = unique('gen');
      const created = await create(DEPLOYS, deployment(name));
      assert.equal(created.metadata.generation, 1);
      const first = await del(`${DEPLOYS}/${name}?propagationPolicy=Foreground`);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.json.metadata.generation, 2);
      const second = await del(`${DEPLOYS}/${name}?propagationPolicy=Orphan`);
      assert.equal(second.status, 200, second.text);
      assert.deepEqual(second.json.metadata.finalizers, ['orphan']);
      assert.equal(second.json.metadata.generation, 2);
      assert.equal((await get(`${DEPLOYS}/${name}`)).json.metadata.generation, 2);
    });

    it('R2.20: a shorter grace period moves the pod deletionTimestamp back; grace 0 then marks and removes it', async () => {
      const id = unique('shorter');
      const name = `pod-${id}`;
      const created = await create(PODS, pod(name, { labels: { case: id } }, 'node-a'));
      const path = `${PODS}/${name}`;
      let firstStamp = '';
      let removed: Response | undefined;
      const events = await watchDuring(PODS, id, created.metadata.resourceVersion, async () => {
        const first = await del(`${path}?gracePeriodSeconds=30`);
        firstStamp = first.json.metadata.deletionTimestamp;
        const longer = await del(`${path}?gracePeriodSeconds=60`);
        assert.equal(longer.json.metadata.resourceVersion, first.json.metadata.resourceVersion, 'a longer period changes nothing');
        const shorter = await del(`${path}?gracePeriodSeconds=10`);
        assert.equal(shorter.json.metadata.deletionGracePeriodSeconds, 10);
        assert.equal(Date.parse(shorter.json.metadata.deletionTimestamp), Date.parse(firstStamp) - 20_000);
        removed = await del(`${path}?gracePeriodSeconds=0`);
      });
      assert.equal(removed?.status, 200, removed?.text);
      assert.equal(removed.json.kind, 'Pod', 'R2.25: pods answer with the deleted object');
      assert.equal(removed.json.metadata.deletionGracePeriodSeconds, 0);
      assert.equal((await get(path)).status, 404);
      assert.deepEqual(
        events.map((e) => [e.type, e.object.metadata.deletionGracePeriodSeconds]),
        [
          ['MODIFIED', 30],
          ['MODIFIED', 10],
          ['MODIFIED', 0],
          ['DELETED', 0],
        ],
      );
    });

    it('R2.21: a pod marked with grace 0 (held by a finalizer) is not given a new grace period by a later DELETE', async () => {
      const name = unique('zero');
      await create(PODS, pod(name, { finalizers: [USER_FINALIZER] }, 'node-a'));
      const first = await del(`${PODS}/${name}?gracePeriodSeconds=0`);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.json.metadata.deletionGracePeriodSeconds, 0);
      const again = await del(`${PODS}/${name}`);
      assert.equal(again.status, 200, again.text);
      assert.equal(again.json.metadata.deletionGracePeriodSeconds, 0);
      assert.equal(again.json.metadata.deletionTimestamp, first.json.metadata.deletionTimestamp);
      assert.equal(again.json.metadata.resourceVersion, first.json.metadata.resourceVersion);
    });
  });

  describe('ownerReferences validation (R1.24–R1.27)', () => {
    const owner = (extra: Json = {}): Json => ({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u-1', ...extra });
    const rejected = async (refs: Json[]): Promise<any> => {
      const name = unique('owned');
      const s = assertFailure(await ts.request('POST', CMS, configMap(name, { ownerReferences: refs })), 422, 'Invalid');
      assert.equal(s.details.name, name);
      assert.equal(s.details.kind, 'ConfigMap');
      return { s, name };
    };

    it('a missing uid → metadata.ownerReferences.uid: uid must not be empty', async () => {
      const { s, name } = await rejected([owner({ uid: '' })]);
      assert.equal(s.message, `ConfigMap "${name}" is invalid: metadata.ownerReferences.uid: Invalid value: "": uid must not be empty`);
      assert.deepEqual(s.details.causes, [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "": uid must not be empty', field: 'metadata.ownerReferences.uid' },
      ]);
    });

    it('an apiVersion without a version → version must not be empty (R1.25)', async () => {
      const { s, name } = await rejected([owner({ apiVersion: 'apps/' })]);
      assert.equal(
        s.message,
        `ConfigMap "${name}" is invalid: metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty`,
      );
      assert.equal(s.details.causes[0].field, 'metadata.ownerReferences.apiVersion');
    });

    it('a bare word apiVersion is a core version and accepted (R1.25)', async () => {
      const res = await ts.request('POST', CMS, configMap(unique('owned'), { ownerReferences: [owner({ apiVersion: 'apps' })] }));
      assert.equal(res.status, 201, res.text);
    });

    it('a core v1 Event owner is disallowed (R1.26)', async () => {
      const { s } = await rejected([owner({ apiVersion: 'v1', kind: 'Event', name: 'ev' })]);
      assert.equal(s.details.causes.length, 1);
      assert.equal(s.details.causes[0].field, 'metadata.ownerReferences');
      assert.equal(s.details.causes[0].reason, 'FieldValueInvalid');
      assert.match(s.details.causes[0].message, /: \/v1, Kind=Event is disallowed from being an owner$/);
    });

    it('two controllers → Only one reference can have Controller set to true (R1.27)', async () => {
      const { s } = await rejected([
        owner({ controller: true }),
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u-2', controller: true },
      ]);
      assert.equal(s.details.causes.length, 1);
      assert.equal(s.details.causes[0].field, 'metadata.ownerReferences');
      assert.match(
        s.details.causes[0].message,
        /: Only one reference can have Controller set to true\. Found "true" in references for Deployment\/d and ReplicaSet\/rs$/,
      );
    });

    it('the same checks apply on update', async () => {
      const name = unique('owned');
      await create(CMS, configMap(name));
      const s = assertFailure(await patch(`${CMS}/${name}`, { metadata: { ownerReferences: [owner({ kind: '' })] } }), 422, 'Invalid');
      assert.equal(s.message, `ConfigMap "${name}" is invalid: metadata.ownerReferences.kind: Invalid value: "": kind must not be empty`);
    });
  });

  describe('finalizer names (R1.16–R1.19)', () => {
    it('R1.17: an unqualified non-standard finalizer on a built-in type → 422 at metadata.finalizers[i]', async () => {
      const name = unique('fname');
      const s = assertFailure(await ts.request('POST', CMS, configMap(name, { finalizers: [USER_FINALIZER, 'foo'] })), 422, 'Invalid');
      assert.equal(
        s.message,
        `ConfigMap "${name}" is invalid: metadata.finalizers[1]: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified`,
      );
      assert.deepEqual(s.details.causes, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified',
          field: 'metadata.finalizers[1]',
        },
      ]);
    });

    it('R1.17: the check also runs on update; standard names are accepted', async () => {
      const name = unique('fname');
      await create(CMS, configMap(name, { finalizers: ['kubernetes'] }));
      const s = assertFailure(await patch(`${CMS}/${name}`, { metadata: { finalizers: ['foo'] } }), 422, 'Invalid');
      assert.equal(s.details.causes[0].field, 'metadata.finalizers[0]');
    });

    it('R1.16: a finalizer with two slashes is not a qualified name (one cause, un-indexed path)', async () => {
      const s = assertFailure(await ts.request('POST', CMS, configMap(unique('fname'), { finalizers: ['a.io/b/c'] })), 422, 'Invalid');
      assert.equal(s.details.causes.length, 1);
      assert.equal(s.details.causes[0].field, 'metadata.finalizers');
      assert.match(s.details.causes[0].message, /^Invalid value: "a\.io\/b\/c": a qualified name must consist of /);
    });

    it('R1.19: orphan and foregroundDeletion together → 422', async () => {
      const name = unique('fname');
      const s = assertFailure(
        await ts.request('POST', CMS, configMap(name, { finalizers: ['orphan', 'foregroundDeletion'] })),
        422,
        'Invalid',
      );
      assert.equal(
        s.message,
        `ConfigMap "${name}" is invalid: metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set`,
      );
      assert.equal(s.details.causes.length, 1);
      assert.equal(s.details.causes[0].field, 'metadata.finalizers');
    });
  });

  describe('server-owned metadata (R1.1–R1.3, R1.12–R1.14)', () => {
    it('R1.1: client-set uid, creationTimestamp and deletion fields are discarded on create', async () => {
      const name = unique('owned');
      const created = await create(
        CMS,
        configMap(name, {
          uid: 'mine',
          creationTimestamp: '2001-01-01T00:00:00Z',
          deletionTimestamp: '2001-01-01T00:00:00Z',
          deletionGracePeriodSeconds: 5,
        }),
      );
      assert.notEqual(created.metadata.uid, 'mine');
      assert.notEqual(created.metadata.creationTimestamp, '2001-01-01T00:00:00Z');
      assert.equal(created.metadata.deletionTimestamp, undefined);
      assert.equal(created.metadata.deletionGracePeriodSeconds, undefined);
    });

    it('R1.2: an update restores creationTimestamp and fills an empty uid', async () => {
      const name = unique('owned');
      const created = await create(CMS, configMap(name));
      const body = structuredClone(created);
      delete body.metadata.uid;
      body.metadata.creationTimestamp = '2001-01-01T00:00:00Z';
      body.data = { k: 'changed' };
      const res = await ts.request('PUT', `${CMS}/${name}`, body);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.metadata.uid, created.metadata.uid);
      assert.equal(res.json.metadata.creationTimestamp, created.metadata.creationTimestamp);
    });

    it('R1.3: a different uid in an update is a failed precondition → 409', async () => {
      const name = unique('owned');
      const created = await create(CMS, configMap(name));
      const body = { ...structuredClone(created), metadata: { ...created.metadata, uid: 'other-uid' } };
      const s = assertFailure(await ts.request('PUT', `${CMS}/${name}`, body), 409, 'Conflict');
      assert.equal(
        s.message,
        `Operation cannot be fulfilled on configmaps "${name}": Precondition failed: UID in precondition: other-uid, UID in object meta: ${created.metadata.uid}`,
      );
    });

    it('R1.13: setting deletionTimestamp on a live object → 422 field is immutable', async () => {
      const name = unique('owned');
      await create(CMS, configMap(name));
      const s = assertFailure(await patch(`${CMS}/${name}`, { metadata: { deletionTimestamp: '2030-01-01T00:00:00Z' } }), 422, 'Invalid');
      assert.equal(s.details.causes[0].field, 'metadata.deletionTimestamp');
      assert.match(s.details.causes[0].message, /field is immutable/);
      assert.equal((await get(`${CMS}/${name}`)).json.metadata.deletionTimestamp, undefined);
    });

    it('R1.12: on a deleting object a changed or removed deletionTimestamp is silently restored', async () => {
      const name = unique('owned');
      await create(CMS, configMap(name, { finalizers: [USER_FINALIZER] }));
      const marked = (await del(`${CMS}/${name}`)).json;
      const changed = await patch(`${CMS}/${name}`, { metadata: { deletionTimestamp: '2030-01-01T00:00:00Z' } });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.json.metadata.deletionTimestamp, marked.metadata.deletionTimestamp);
      const removed = await patch(`${CMS}/${name}`, { metadata: { deletionTimestamp: null, labels: { a: 'b' } } });
      assert.equal(removed.status, 200, removed.text);
      assert.equal(removed.json.metadata.deletionTimestamp, marked.metadata.deletionTimestamp);
    });

    it('R1.14: a different deletionGracePeriodSeconds → 422; omitting it keeps the stored value', async () => {
      const name = unique('owned');
      await create(CMS, configMap(name, { finalizers: [USER_FINALIZER] }));
      await del(`${CMS}/${name}`);
      const s = assertFailure(await patch(`${CMS}/${name}`, { metadata: { deletionGracePeriodSeconds: 5 } }), 422, 'Invalid');
      assert.equal(s.message, `ConfigMap "${name}" is invalid: metadata.deletionGracePeriodSeconds: Invalid value: 5: field is immutable`);
      const omitted = await patch(`${CMS}/${name}`, { metadata: { deletionGracePeriodSeconds: null, labels: { a: 'b' } } });
      assert.equal(omitted.status, 200, omitted.text);
      assert.equal(omitted.json.metadata.deletionGracePeriodSeconds, 0);
    });
  });
});
