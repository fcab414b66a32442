import { CONFIGMAPS, createConfigMap, createDependents, NAMESPACE, startGcFixture, waitForGraph } from './gc-fixture.js';
import { backgroundCascade, type Timed } from './gc-scenarios.js';
import { median } from './stats.js';

/**
 * Issue 28's figures: the 10,000-dependent background cascade with the archive off and on (alternating rounds, after
 * warm-up rounds, as bench/gc.ts measures it), and restoring that cascade with its dependents.
 */
const DEPENDENTS = 10_000;
const WARM_UP_ROUNDS = 3;
const ROUNDS = 5;
const ARCHIVE = { retentionMs: 3_600_000, maxBytes: 1024 ** 3 };
const RESTORE_DEADLINE_MS = 120_000;
const CASCADE_GOAL = 1.3;
const RESTORE_GOAL_MS = 3000;

async function restoreTime(): Promise<number> {
  const f = await startGcFixture(ARCHIVE);
  try {
    const owner = await createConfigMap(f.client, 'owner');
    await createDependents(f.client, 'dependent', DEPENDENTS, owner);
    await waitForGraph(f.collector, [{ uid: owner.uid, dependents: DEPENDENTS }]);
    const removed = f.clock.expect(f.prefix, DEPENDENTS + 1, 60_000);
    await f.client.delete(CONFIGMAPS, NAMESPACE, 'owner', { propagationPolicy: 'Background' });
    await removed;
    const started = performance.now();
    // Over HTTP, as the admin: a Restore acts as the user who created it.
    const created = await fetch(`${f.server.url}/apis/cascade.dev/v1alpha1/restores`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        apiVersion: 'cascade.dev/v1alpha1',
        kind: 'Restore',
        metadata: { name: 'bench' },
        spec: { target: { resource: 'configmaps', namespace: NAMESPACE, name: 'owner' }, withDependents: true },
      }),
    });
    if (created.status !== 201) throw new Error(`restore create: ${created.status} ${await created.text()}`);
    while (performance.now() - started < RESTORE_DEADLINE_MS) {
      const r = (await (await fetch(`${f.server.url}/apis/cascade.dev/v1alpha1/restores/bench`)).json()) as {
        status?: { conditions?: { type: string; message: string }[]; restored?: unknown[] };
      };
      const condition = r.status?.conditions?.[0];
      if (condition !== undefined) {
        if (condition.type !== 'Complete' || r.status?.restored?.length !== DEPENDENTS + 1) throw new Error(condition.message);
        return performance.now() - started;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`the restore did not finish in ${RESTORE_DEADLINE_MS} ms`);
  } finally {
    await f.close();
  }
}

export async function benchArchive(): Promise<string[][]> {
  for (let i = 0; i < WARM_UP_ROUNDS; i++) {
    await backgroundCascade(DEPENDENTS);
    await backgroundCascade(DEPENDENTS, ARCHIVE);
  }
  const off: Timed[] = [];
  const on: Timed[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    off.push(await backgroundCascade(DEPENDENTS));
    on.push(await backgroundCascade(DEPENDENTS, ARCHIVE));
  }
  const ms = (runs: Timed[]) => median(runs.map((r) => r.ms));
  const cpu = (runs: Timed[]) => median(runs.map((r) => r.cpuMs));
  const ratio = ms(on) / ms(off);
  const restores = [await restoreTime(), await restoreTime(), await restoreTime()];
  const restore = median(restores);
  return [
    [
      `Background cascade of ${DEPENDENTS} dependents with the archive on vs off (in-process, memory, median of ${ROUNDS} after ${WARM_UP_ROUNDS} warm-ups; goal ≤ ${CASCADE_GOAL}×: ${ratio <= CASCADE_GOAL ? 'PASS' : 'FAIL'})`,
      `${ms(on).toFixed(0)} ms (CPU ${cpu(on).toFixed(0)} ms)`,
      `${ms(off).toFixed(0)} ms (CPU ${cpu(off).toFixed(0)} ms)`,
      `${ratio.toFixed(2)}×`,
    ],
    [
      `Restore of that cascade with its dependents, ${DEPENDENTS + 1} objects (median of 3; goal < ${RESTORE_GOAL_MS / 1000} s: ${restore < RESTORE_GOAL_MS ? 'PASS' : 'FAIL'})`,
      `${restore.toFixed(0)} ms`,
      `runs ${restores.map((r) => r.toFixed(0)).join(', ')} ms`,
      '',
    ],
  ];
}
