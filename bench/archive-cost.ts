import { CONFIGMAPS, createConfigMap, createDependents, NAMESPACE, startGcFixture, waitForGraph } from './gc-fixture.js';
import { backgroundCascade, type Timed } from './gc-scenarios.js';
import { median } from './stats.js';

/**
 * Issue 28's figures, printed and not recorded: the 10,000-dependent background cascade with the archive off and
 * on (alternating rounds, after warm-up rounds, as bench/gc.ts measures it), and restoring that cascade with its
 * dependents. `node dist/bench/archive-cost.js`.
 */
const DEPENDENTS = 10_000;
const WARM_UP_ROUNDS = 3;
const ROUNDS = 5;
const ARCHIVE = { retentionMs: 3_600_000, maxBytes: 1024 ** 3 };

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
    for (;;) {
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
  } finally {
    await f.close();
  }
}

async function main(): Promise<void> {
  // `restore`: only the restore's figure.
  if (process.argv[2] !== 'restore') await cascadeFigures();
  const restores = [await restoreTime(), await restoreTime(), await restoreTime()];
  process.stdout.write(
    `restore of that cascade with its dependents (${DEPENDENTS + 1} objects): ${median(restores).toFixed(0)} ms ` +
      `(runs ${restores.map((r) => r.toFixed(0)).join(', ')}; goal < 3 s)\n`,
  );
}

async function cascadeFigures(): Promise<void> {
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
  const list = (runs: Timed[]) => runs.map((r) => r.ms.toFixed(0)).join(', ');
  process.stdout.write(
    `background cascade, 1 owner → ${DEPENDENTS} dependents (median of ${ROUNDS}, after ${WARM_UP_ROUNDS} warm-up rounds each)\n` +
      `  archive off: ${ms(off).toFixed(0)} ms (runs ${list(off)}), CPU ${cpu(off).toFixed(0)} ms\n` +
      `  archive on:  ${ms(on).toFixed(0)} ms (runs ${list(on)}), CPU ${cpu(on).toFixed(0)} ms\n` +
      `  ratio: ${(ms(on) / ms(off)).toFixed(2)}× wall, ${(cpu(on) / cpu(off)).toFixed(2)}× CPU (goal ≤ 1.3×)\n`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
