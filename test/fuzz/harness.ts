import type { TestServer } from '../support/test-server.js';
import { type Actor, type ActorName, actors } from './actors.js';
import { generateRequest } from './generate.js';
import { checkOutcome } from './invariants.js';
import { FailureLog } from './report.js';
import type { FuzzRequest } from './request.js';
import { WireClient, type WireOutcome } from './wire-client.js';
import { canaryChanges, canarySnapshot, freshProbe, prepareWorld, restoreSeeds } from './world.js';

// Runs a seeded fuzz campaign against a secure test server and checks the invariants of issue 19 on every answer
// and on the server's state: readiness, canaries, and probed objects left as they were by refused requests.

export interface FuzzOptions {
  readonly seed: number;
  readonly requests: number;
  readonly concurrency: number;
  /** Only these request indices (replaying failures); all of 0..requests-1 otherwise. */
  readonly only?: readonly number[];
  /** Called every `progressEvery` requests (for a heartbeat in long runs). */
  readonly onProgress?: (done: number) => void;
  /** Told of each request as it goes out: what a crash that takes the whole process leaves behind. */
  readonly onSend?: (request: FuzzRequest) => void;
}

export interface FuzzResult {
  readonly sent: number;
  /** Requests whose target the harness read before and after (nothing half-written). */
  readonly probed: number;
  readonly failures: FailureLog;
  readonly byStatus: Map<string, number>;
  readonly byCategory: Map<string, number>;
  readonly elapsedMs: number;
}

/** Readiness and the seeds are checked this often (in requests). */
const CHECKPOINT_EVERY = 250;

/** Serialises the requests aimed at one probed object, so "before" and "after" belong to one request. */
class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

function statusLabel(outcome: WireOutcome): string {
  return outcome.kind === 'response' ? String(outcome.status) : outcome.kind;
}

export async function runFuzz(ts: TestServer, options: FuzzOptions): Promise<FuzzResult> {
  const started = Date.now();
  const cast = actors(ts.adminToken ?? '');
  const byName = new Map<ActorName, Actor>(cast.map((a) => [a.name, a]));
  const secureTokens = Object.fromEntries(cast.filter((a) => a.name !== 'admin' && a.token !== undefined).map((a) => [a.name, a.user]));
  await prepareWorld(ts, { editor: secureTokens.editor as string, reader: secureTokens.reader as string });
  const canariesBefore = await canarySnapshot(ts);

  const failures = new FailureLog();
  const byStatus = new Map<string, number>();
  const byCategory = new Map<string, number>();
  const fail = (request: FuzzRequest, outcome: WireOutcome | undefined, invariant: string, detail: string): void => {
    failures.add({ request, outcome, violation: { invariant, detail } });
  };
  // A crash of the in-process server shows as an uncaught error: recorded against the requests then in flight.
  const inFlight = new Set<FuzzRequest>();
  const onCrash = (err: unknown): void => {
    for (const request of inFlight) fail(request, undefined, 'no-crash', String(err instanceof Error ? err.stack : err).slice(0, 500));
    if (inFlight.size === 0)
      failures.add({ request: placeholder(options.seed), outcome: undefined, violation: { invariant: 'no-crash', detail: String(err) } });
  };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);

  const client = new WireClient({
    baseUrl: ts.url,
    ca: ts.pki?.caCert ?? '',
    maxSockets: options.concurrency * 2,
    timeoutMs: 20_000,
    streamCutMs: 1000,
  });
  const locks = new KeyedLock();
  const indices = options.only ?? Array.from({ length: options.requests }, (_, i) => i);
  let next = 0;
  let done = 0;
  let probed = 0;
  let checkpoint = Promise.resolve();

  const sendAndCheck = async (request: FuzzRequest): Promise<void> => {
    inFlight.add(request);
    options.onSend?.(request);
    try {
      const send = async (): Promise<WireOutcome> => {
        const outcome = await client.send(request);
        byStatus.set(statusLabel(outcome), (byStatus.get(statusLabel(outcome)) ?? 0) + 1);
        for (const v of checkOutcome(request, outcome)) failures.add({ request, outcome, violation: v });
        return outcome;
      };
      const probe = request.probe;
      if (probe === undefined) {
        await send();
        return;
      }
      probed++;
      await locks.run(probe.path, async () => {
        let before: { status: number; text: string };
        try {
          before = await freshProbe(ts, probe.path, probe.kind, probe.name);
        } catch (err) {
          fail(request, undefined, 'probe-reset', `could not reset ${probe.path} before the request: ${String(err)}`);
          await send();
          return;
        }
        const outcome = await send();
        const after = await ts.request('GET', probe.path);
        const succeeded = outcome.kind === 'response' && outcome.status < 300;
        if ((!succeeded || request.dryRun) && (after.status !== before.status || after.text !== before.text)) {
          fail(
            request,
            outcome,
            'nothing-half-written',
            `${succeeded ? 'dry run' : 'refused request'} changed ${probe.path}: ${before.status} → ${after.status} ${after.text.slice(0, 300)}`,
          );
        }
      });
    } finally {
      inFlight.delete(request);
    }
  };

  const readiness = async (label: string): Promise<void> => {
    const res = await ts.request('GET', '/readyz');
    if (res.status !== 200)
      failures.add({
        request: placeholder(options.seed),
        outcome: undefined,
        violation: { invariant: 'readyz', detail: `${label}: /readyz answered ${res.status} ${res.text.slice(0, 200)}` },
      });
  };

  /** The seeds deleted by fuzz requests come back; namespaces A and B must still be there. */
  const restore = async (label: string): Promise<void> => {
    try {
      for (const lost of await restoreSeeds(ts)) {
        failures.add({
          request: placeholder(options.seed),
          outcome: undefined,
          violation: { invariant: 'namespaces-kept', detail: `${label}: ${lost}` },
        });
      }
    } catch (err) {
      failures.add({
        request: placeholder(options.seed),
        outcome: undefined,
        violation: { invariant: 'seeds-restorable', detail: `${label}: ${String(err).slice(0, 300)}` },
      });
    }
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      await checkpoint;
      const i = next++;
      if (i >= indices.length) return;
      const request = generateRequest(options.seed, indices[i] as number, byName);
      byCategory.set(request.category, (byCategory.get(request.category) ?? 0) + 1);
      await sendAndCheck(request);
      done++;
      if (done % CHECKPOINT_EVERY === 0) {
        // Between batches: the server must still be ready.
        const at = done;
        checkpoint = checkpoint.then(async () => {
          await readiness(`after ${at} requests`);
          await restore(`after ${at} requests`);
          options.onProgress?.(at);
        });
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    await checkpoint;
    await readiness('at the end');
    await restore('at the end');
    for (const change of canaryChanges(canariesBefore, await canarySnapshot(ts))) {
      failures.add({
        request: placeholder(options.seed),
        outcome: undefined,
        violation: { invariant: 'canaries-unchanged', detail: change },
      });
    }
  } finally {
    client.close();
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  }
  return { sent: done, probed, failures, byStatus, byCategory, elapsedMs: Date.now() - started };
}

/** Stands for the run as a whole in failures that no single request caused (readiness, canaries). */
function placeholder(seed: number): FuzzRequest {
  return {
    index: -1,
    category: 'rbac',
    variant: `run(seed ${seed})`,
    actor: 'admin',
    method: '-',
    path: '-',
    headers: {},
    intent: undefined,
    probe: undefined,
    dryRun: false,
  };
}
