import { benchGarbageCollector, gcTable } from './gc.js';

/**
 * Only the garbage collector's figures, printed and not recorded: for iterating on the collector and for
 * profiling it (`node --cpu-prof dist/bench/gc-main.js`).
 */
benchGarbageCollector()
  .then((figures) => process.stdout.write(`${gcTable(figures)}\n`))
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
