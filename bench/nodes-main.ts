import { benchNodes } from './nodes.js';

/** Only the simulated nodes' figures, printed and not recorded (`node --expose-gc dist/bench/nodes-main.js`). */
benchNodes()
  .then((rows) => process.stdout.write(`${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`))
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
