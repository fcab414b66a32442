import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baseEnvironment, compile } from './compile.js';

function run(expression: string, vars: Record<string, unknown> = {}): unknown {
  const env = baseEnvironment().clone();
  for (const [name, v] of Object.entries(vars)) env.registerVariable(name, typeof v === 'string' ? 'string' : 'dyn');
  return compile(env, expression).program(vars);
}

describe('Kubernetes CEL libraries (R11.130, R11.131, R11.136)', () => {
  it('lists: isSorted, sum, min, max, indexOf, lastIndexOf', () => {
    assert.equal(run('[1, 2, 2, 5].isSorted() && !["b", "a"].isSorted()'), true);
    assert.equal(run('[1, 2, 3].sum()'), 6n);
    assert.equal(run('[1.5, 2.0].sum()'), 3.5);
    assert.equal(run('[3, 1, 2].min()'), 1n);
    assert.equal(run("['b', 'c', 'a'].max()"), 'c');
    assert.equal(run('[1, 2, 1].indexOf(1)'), 0n);
    assert.equal(run('[1, 2, 1].lastIndexOf(1)'), 2n);
    assert.equal(run('[1, 2].indexOf(7)'), -1n);
    assert.throws(() => run('[].min() == 1'), /must not be empty/);
  });

  it('regex: matches (RE2), find, findAll with a limit', () => {
    assert.equal(run("'abc123'.matches('[0-9]+$') && matches('x', '^x$')"), true);
    assert.equal(run("'abc 123 def 456'.find('[0-9]+')"), '123');
    assert.equal(run("'abc'.find('[0-9]+')"), '');
    assert.deepEqual(run("'a1b22c333'.findAll('[0-9]+')"), ['1', '22', '333']);
    assert.deepEqual(run("'a1b22c333'.findAll('[0-9]+', 2)"), ['1', '22']);
  });

  it('regex: matches runs in linear time and refuses non-RE2 syntax', () => {
    const start = Date.now();
    assert.equal(run("s.matches('(a+)+$')", { s: `${'a'.repeat(5000)}!` }), false);
    assert.equal(run("s.matches('(a+)+!')", { s: `${'a'.repeat(5000)}!` }), true);
    assert.equal(run("s.matches('^(a+)+$')", { s: `${'a'.repeat(5000)}!` }), false);
    assert.ok(Date.now() - start < 2000, `took ${Date.now() - start} ms`);
    assert.throws(() => run("'ab'.matches('a(?=b)')"), /invalid regex/);
  });

  it('strings extension: the functions cel-js has and those Cascade adds', () => {
    assert.equal(run("'HeLLo'.lowerAscii() + 'x'.upperAscii()"), 'helloX');
    assert.deepEqual(run("'a,b,c'.split(',')"), ['a', 'b', 'c']);
    assert.equal(run("['a', 'b'].join('-')"), 'a-b');
    assert.equal(run("'  t  '.trim() + 'hello'.substring(1, 3)"), 'tel');
    assert.equal(run("'hello'.indexOf('l') + 'hello'.lastIndexOf('l')"), 5n);
    assert.equal(run("'héllo'.charAt(1)"), 'é');
    assert.equal(run("'a.b.c'.replace('.', '/')"), 'a/b/c');
    assert.equal(run("'a.b.c'.replace('.', '/', 1)"), 'a/b.c');
    assert.equal(run("'abc'.reverse()"), 'cba');
    assert.equal(run("'%s has %d replicas (%.1f%%)'.format([dyn('web'), dyn(3), dyn(42.25)])"), 'web has 3 replicas (42.2%)');
    assert.equal(run("'%x %X %b %o %e'.format([dyn(255), dyn(255), dyn(5), dyn(8), dyn(1052.032911275)])"), 'ff FF 101 10 1.052033e+03');
    assert.equal(run('strings.quote(\'a"b\\n\')'), '"a\\"b\\n"');
  });

  it('sets: contains, equivalent, intersects', () => {
    assert.equal(run('sets.contains([1, 2, 3], [3, 1])'), true);
    assert.equal(run('sets.contains([1], [2])'), false);
    assert.equal(run('sets.equivalent([1, 2, 2], [2, 1])'), true);
    assert.equal(run("sets.intersects(['a'], ['b', 'a'])"), true);
    assert.equal(run("sets.intersects(['a'], ['b'])"), false);
  });

  it('optional types and homogeneous literals as Kubernetes configures CEL (R11.128)', () => {
    assert.equal(run('optional.of(1).orValue(2) + optional.none().orValue(3)'), 4n);
    assert.throws(() => run("[1, 'a'].size() == 2"), /same type/);
  });
});
