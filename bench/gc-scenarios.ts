import type { ApiClient } from '../src/client/interface.js';
import type { OwnerReference } from '../src/api/types.js';
import {
  CONFIGMAPS,
  createConfigMap,
  createDependents,
  type GcFixture,
  NAMESPACE,
  startGcFixture,
  waitForGraph,
  waitForGraphToDrop,
} from './gc-fixture.js';
import { maybeYield } from '../src/util/yield-to-event-loop.js';
import { meterLoopStalls } from './loop-stall.js';
import type { ArchiveOptions } from '../src/server/api-server.js';

/** The collector's default worker count (--concurrent-gc-syncs), used as the fair in-flight count for baselines. */
export const GC_WORKERS = 20;
const TIMEOUT_MS = 60_000;

export interface Timed {
  /** From the first DELETE until storage removed the last object. */
  readonly ms: number;
  /**
   * CPU time (user + system, all threads) the process spent over the same span: near `ms` on an idle machine,
   * and unaffected by other work stealing the cores, so ratios of it are steadier on a shared machine.
   */
  readonly cpuMs: number;
  /** From the first DELETE until the collector's graph no longer holds any of the deleted objects. */
  readonly settledMs: number;
  /** The longest the event loop went without a turn (so without serving HTTP) while the objects were deleted. */
  readonly stallMs: number;
  /** Resident set size once the timed part is over (the fixture and its deleted objects still held), in MiB. */
  readonly rssMiB: number;
}

/**
 * Times `act` on a fresh fixture: `gone` lists the objects it must delete (through the collector or directly);
 * afterwards exactly `left` bench ConfigMaps must remain in storage.
 */
async function timeDeletion(
  setup: (f: GcFixture) => Promise<{ gone: readonly OwnerReference[]; left: number; act: () => Promise<unknown> }>,
  archive?: ArchiveOptions,
): Promise<Timed> {
  const f = await startGcFixture(archive);
  try {
    const { gone, left, act } = await setup(f);
    const removed = f.clock.expect(f.prefix, gone.length, TIMEOUT_MS);
    const stalls = meterLoopStalls();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await act();
    const ms = (await removed) - started;
    const cpu = process.cpuUsage(cpuBefore);
    const stallMs = await stalls.stop();
    await waitForGraphToDrop(
      f.collector,
      gone.map((o) => o.uid),
    );
    const settledMs = performance.now() - started;
    const rssMiB = process.memoryUsage().rss / 2 ** 20;
    const remaining = await f.storage.count(f.prefix);
    if (remaining !== left) throw new Error(`expected ${left} bench objects to remain, found ${remaining}`);
    return { ms, cpuMs: (cpu.user + cpu.system) / 1000, settledMs, stallMs, rssMiB };
  } finally {
    await f.close();
  }
}

/**
 * How a baseline loop shares the event loop. `yielding` gives up a turn once the budget is spent, exactly as the
 * collector's workers (and every long loop in the server) do: the informer then takes its delete events and V8 runs
 * its GC tasks inside the timed span, as they do for the cascade. `unbroken` never gives up a turn: nothing else
 * runs, HTTP included, until the last delete, and that deferred work lands after its stopwatch stops.
 */
export type LoopDiscipline = 'yielding' | 'unbroken';

/** Deletes `objects` with `inFlight` requests outstanding at a time, in order. */
async function deleteAll(
  client: ApiClient,
  objects: readonly OwnerReference[],
  inFlight: number,
  discipline: LoopDiscipline,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < objects.length) {
      await client.delete(CONFIGMAPS, NAMESPACE, (objects[next++] as OwnerReference).name);
      const turn = discipline === 'yielding' ? maybeYield() : undefined;
      if (turn !== undefined) await turn;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

async function ownedSet(f: GcFixture, dependents: number): Promise<{ owner: OwnerReference; dependents: OwnerReference[] }> {
  const owner = await createConfigMap(f.client, 'owner');
  const created = await createDependents(f.client, 'dependent', dependents, owner);
  await waitForGraph(f.collector, [{ uid: owner.uid, dependents }]);
  return { owner, dependents: created };
}

/** Background cascade: DELETE of one owner until its last dependent is gone from storage (`archive`: archiving on). */
export function backgroundCascade(dependents: number, archive?: ArchiveOptions): Promise<Timed> {
  return timeDeletion(async (f) => {
    const set = await ownedSet(f, dependents);
    return {
      gone: [set.owner, ...set.dependents],
      left: 0,
      act: () => f.client.delete(CONFIGMAPS, NAMESPACE, set.owner.name, { propagationPolicy: 'Background' }),
    };
  }, archive);
}

/** Baseline: the same owned objects, deleted one by one through the same client while the collector watches. */
export function directDeletes(dependents: number, inFlight: number, discipline: LoopDiscipline): Promise<Timed> {
  return timeDeletion(async (f) => {
    const set = await ownedSet(f, dependents);
    return { gone: set.dependents, left: 1, act: () => deleteAll(f.client, set.dependents, inFlight, discipline) };
  });
}

interface Tree {
  readonly root: OwnerReference;
  readonly children: readonly OwnerReference[];
  readonly leaves: readonly OwnerReference[];
}

/** root → `width` children → `width` leaves each, every reference blocking its owner's deletion. */
async function createTree(f: GcFixture, width: number): Promise<Tree> {
  const root = await createConfigMap(f.client, 'root');
  const owners: { uid: string; dependents: number }[] = [{ uid: root.uid, dependents: width }];
  const children: OwnerReference[] = [];
  const leaves: OwnerReference[] = [];
  for (let c = 0; c < width; c++) {
    const child = await createConfigMap(f.client, `child-${c}`, { ...root, blockOwnerDeletion: true });
    children.push(child);
    owners.push({ uid: child.uid, dependents: width });
    leaves.push(...(await createDependents(f.client, `leaf-${c}`, width, { ...child, blockOwnerDeletion: true })));
  }
  await waitForGraph(f.collector, owners);
  return { root, children, leaves };
}

/** Foreground deletion of the root of a three-level tree, until the root itself is gone. */
export function foregroundTree(width: number): Promise<Timed> {
  return timeDeletion(async (f) => {
    const tree = await createTree(f, width);
    return {
      gone: [tree.root, ...tree.children, ...tree.leaves],
      left: 0,
      act: () => f.client.delete(CONFIGMAPS, NAMESPACE, tree.root.name, { propagationPolicy: 'Foreground' }),
    };
  });
}

/** Baseline: the same tree deleted bottom-up through the same client, `inFlight` requests at a time, yielding. */
export function directTreeDeletes(width: number, inFlight: number): Promise<Timed> {
  return timeDeletion(async (f) => {
    const tree = await createTree(f, width);
    return {
      gone: [tree.root, ...tree.children, ...tree.leaves],
      left: 0,
      act: async () => {
        await deleteAll(f.client, tree.leaves, inFlight, 'yielding');
        await deleteAll(f.client, tree.children, inFlight, 'yielding');
        await f.client.delete(CONFIGMAPS, NAMESPACE, tree.root.name);
      },
    };
  });
}
