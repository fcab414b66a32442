import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SERVE_USAGE, withBareBooleans } from './serve.js';
import { pflagUsages, SERVE_FLAGS } from './serve-flags.js';
import { versionLine } from './version.js';

test('a bare boolean flag means true, as pflag reads it; other flags and values pass through (issue 31)', () => {
  const booleans = new Set(['insecure-http', 'leader-elect']);
  assert.deepEqual(withBareBooleans(['--insecure-http', '--storage', 'memory'], booleans), ['--insecure-http=true', '--storage', 'memory']);
  assert.deepEqual(withBareBooleans(['--leader-elect=false', '--data-dir', 'x'], booleans), ['--leader-elect=false', '--data-dir', 'x']);
  assert.deepEqual(withBareBooleans(['--storage', 'insecure-http'], booleans), ['--storage', 'insecure-http']);
});

test('serve --help lists every flag in pflag layout, with the defaults pflag prints', () => {
  const text = pflagUsages(
    [
      { name: 'zeta', type: 'string', default: '', usage: 'no default shown' },
      { name: 'alpha', type: 'string', default: 'x', usage: 'a string' },
      { name: 'on', type: 'bool', default: 'true', usage: 'a bool' },
      { name: 'off', type: 'bool', default: 'false', usage: 'zero bool' },
      { name: 'wait', type: 'duration', default: '5m0s', usage: 'a duration' },
      { name: 'n', type: 'int', default: '0', usage: 'zero int' },
    ],
    'serve',
  );
  assert.equal(
    text,
    [
      '      --alpha string    a string (default "x")',
      '  -h, --help            help for serve',
      '      --n int           zero int',
      '      --off             zero bool',
      '      --on              a bool (default true)',
      '      --wait duration   a duration (default 5m0s)',
      '      --zeta string     no default shown',
      '',
    ].join('\n'),
  );
  for (const flag of SERVE_FLAGS) assert.match(SERVE_USAGE, new RegExp(`^ {6}--${flag.name}\\b`, 'm'), flag.name);
  assert.match(SERVE_USAGE, /--secure-port int {2,}port to listen on; 0 picks a free port \(default 6443\)$/m);
  assert.match(SERVE_USAGE, /--insecure-http {2,}serve plain HTTP/m);
});

test('cascade --version names Cascade’s and the served Kubernetes version', () => {
  assert.match(versionLine(), /^Cascade v\d+\.\d+\.\d+ \(Kubernetes v1\.32\.0-cascade\)\n$/);
});
