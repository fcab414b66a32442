// Compares the two CEL evaluators Cascade considered (docs/dependencies.md, issue 22): the cel-spec conformance
// cases that apply to Kubernetes' CEL (src/cel/testing/conformance.ts picks them) on each library as shipped and on
// Cascade's environment (cel-js + Kubernetes libraries), then compile and evaluation speed of typical CRD rules.
// Run after `npm run build`: node scripts/cel-compare.mjs [--failures=mb|buf|cascade]
import * as buf from '@bufbuild/cel';
import { applicableCases, bindValue, celJsCanon, celJsType } from '../dist/src/cel/testing/conformance.js';
import { baseEnvironment, compile } from '../dist/src/cel/compile.js';
import { strings as bufStrings } from '@bufbuild/cel/ext';
import * as mb from '@marcbachmann/cel-js';

function canonDouble(n) {
  return Number.isNaN(n) ? 'NaN' : Object.is(n, -0) ? '-0' : String(n);
}

function bufCanon(v) {
  if (typeof v === 'bigint') return `int:${v}`;
  if (buf.isCelUint(v)) return `uint:${v.value}`;
  if (typeof v === 'number') return `double:${canonDouble(v)}`;
  if (typeof v === 'string') return `string:${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return `bool:${v}`;
  if (v === null) return 'null';
  if (v instanceof Uint8Array) return `bytes:${Buffer.from(v).toString('hex')}`;
  if (buf.isCelList(v)) return `[${[...v].map(bufCanon).join(',')}]`;
  if (buf.isCelMap(v)) return `{${[...v].map(([k, x]) => `${bufCanon(k)}=>${bufCanon(x)}`).sort().join(',')}}`;
  if (buf.isCelType(v)) return `type:${v.name}`;
  return `other:${String(v)}`;
}

const UnsignedInt = mb.evaluate('0u').constructor;

function outcome(fn) {
  try {
    return { value: fn() };
  } catch (err) {
    return { error: String(err.message).split('\n')[0] };
  }
}

function runMb(t) {
  const env = new mb.Environment({ enableOptionalTypes: true, unlistedVariablesAreDyn: t.disableCheck });
  const ctx = {};
  return outcome(() => {
    for (const d of t.typeEnv) env.registerVariable(d.name, celJsType(d.ident?.type));
    for (const [k, b] of Object.entries(t.bindings)) ctx[k] = bindValue(b.value, (n) => new UnsignedInt(n));
    return celJsCanon(env.evaluate(t.expr, ctx));
  });
}

function runCascade(t) {
  const env = baseEnvironment().clone();
  const ctx = {};
  return outcome(() => {
    for (const d of t.typeEnv) env.registerVariable(d.name, celJsType(d.ident?.type));
    for (const [k, b] of Object.entries(t.bindings)) {
      if (!t.typeEnv.some((d) => d.name === k)) env.registerVariable(k, 'dyn');
      ctx[k] = bindValue(b.value, (n) => new UnsignedInt(n));
    }
    return celJsCanon(compile(env, t.expr).program(ctx));
  });
}

function runBuf(t) {
  const ctx = {};
  return outcome(() => {
    for (const [k, b] of Object.entries(t.bindings)) ctx[k] = bindValue(b.value, (n) => buf.celUint(n));
    const r = buf.run(t.expr, ctx, { funcs: bufStrings });
    if (buf.isCelError(r)) throw r;
    return bufCanon(r);
  });
}

function conformance() {
  const runners = { mb: runMb, buf: runBuf, cascade: runCascade };
  const rows = new Map();
  for (const t of applicableCases()) {
    const row = rows.get(t.suite) ?? { suite: t.suite, cases: 0, mb: 0, buf: 0, cascade: 0 };
    row.cases++;
    for (const [name, run] of Object.entries(runners)) {
      const r = run(t);
      const ok = t.expected === undefined ? r.error !== undefined : r.value === t.expected;
      if (ok) row[name]++;
      else if (process.argv.includes(`--failures=${name}`)) console.log(name, t.suite, t.name, t.expr, JSON.stringify(r), t.expected);
    }
    rows.set(t.suite, row);
  }
  const totals = { cases: 0, mb: 0, buf: 0, cascade: 0 };
  for (const r of rows.values()) for (const k of Object.keys(totals)) totals[k] += r[k];
  return { rows: [...rows.values()], totals };
}

const RULES = [
  ['self.replicas <= self.maxReplicas', { replicas: 3n, maxReplicas: 5n }, undefined],
  ["self.name.startsWith('x')", { name: 'xenon' }, undefined],
  ['self.items.all(i, i.size() < 10)', { items: ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff', 'g', 'hh'] }, undefined],
  ['self.id == oldSelf.id', { id: 'abc' }, { id: 'abc' }],
  ['self.replicas >= oldSelf.replicas || self.allowShrink', { replicas: 4n, allowShrink: false }, { replicas: 3n, allowShrink: false }],
];

function timeIt(n, fn) {
  for (let i = 0; i < Math.min(n, 200); i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - start) / n / 1000;
}

function speed() {
  const out = [];
  const mbEnv = new mb.Environment({ enableOptionalTypes: true }).registerVariable('self', 'map').registerVariable('oldSelf', 'map');
  const bufEnv = buf.celEnv({ funcs: bufStrings });
  for (const [rule, self, oldSelf] of RULES) {
    const mbCtx = { self: new Map(Object.entries(self)), oldSelf: oldSelf === undefined ? undefined : new Map(Object.entries(oldSelf)) };
    const bufCtx = { self: new Map(Object.entries(self)), ...(oldSelf === undefined ? {} : { oldSelf: new Map(Object.entries(oldSelf)) }) };
    const mbProgram = mbEnv.parse(rule);
    const bufProgram = buf.plan(bufEnv, buf.parse(rule));
    const mbResult = mbProgram(mbCtx);
    const bufResult = bufProgram(bufCtx);
    if (mbResult !== true || bufResult !== true) throw new Error(`${rule}: ${mbResult} / ${bufResult}`);
    out.push({
      rule,
      mbCompileUs: timeIt(2000, () => mbEnv.check(rule) && mbEnv.parse(rule)),
      bufCompileUs: timeIt(2000, () => buf.plan(bufEnv, buf.parse(rule))),
      mbEvalUs: timeIt(50000, () => mbProgram(mbCtx)),
      bufEvalUs: timeIt(50000, () => bufProgram(bufCtx)),
    });
  }
  return out;
}

const { rows, totals } = conformance();
console.log('conformance (cases that apply to Kubernetes CEL; passed)');
const line = (r, name) => console.log(name.padEnd(14), String(r.cases).padStart(6), String(r.mb).padStart(8), String(r.buf).padStart(10), String(r.cascade).padStart(9));
console.log('suite'.padEnd(14), 'cases'.padStart(6), 'cel-js'.padStart(8), '@bufbuild'.padStart(10), 'Cascade'.padStart(9));
for (const r of rows) line(r, r.suite);
line(totals, 'total');
console.log('\nspeed (µs per call, median machine noise applies)');
console.log('rule'.padEnd(58), 'compile cel-js', 'compile buf', 'eval cel-js', 'eval buf');
for (const s of speed()) {
  console.log(s.rule.padEnd(58), s.mbCompileUs.toFixed(1).padStart(14), s.bufCompileUs.toFixed(1).padStart(11), s.mbEvalUs.toFixed(2).padStart(11), s.bufEvalUs.toFixed(2).padStart(8));
}
