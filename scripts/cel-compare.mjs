// Compares the two CEL evaluators Cascade considered (docs/dependencies.md, issue 22): the cel-spec conformance
// cases that apply to Kubernetes' CEL (no protobuf messages, no containers, no extensions Kubernetes lacks), then
// compile and evaluation speed of typical CRD rules. Run after `npm run build`: node scripts/cel-compare.mjs
import { tests as conformanceData } from '@bufbuild/cel-spec/testdata/conformance.js';
import * as buf from '@bufbuild/cel';
import { strings as bufStrings } from '@bufbuild/cel/ext';
import * as mb from '@marcbachmann/cel-js';

const SUITES = ['basic', 'comparisons', 'conversions', 'dynamic', 'fields', 'fp_math', 'integer_math', 'lists', 'logic', 'macros', 'optionals', 'parse', 'plumbing', 'string', 'string_ext', 'timestamps'];

const usesProto = (o) => JSON.stringify(o).match(/objectValue|enumValue|messageType|google\.protobuf|TestAllTypes|"container"|cel\.expr/) !== null;

function fromBase64(s) {
  return new Uint8Array(Buffer.from(s, 'base64'));
}

/** A conformance `cel.expr.Value` (JSON) as a canonical string; undefined when it cannot be represented. */
function expectedCanon(v) {
  if (v === undefined) return undefined;
  if ('int64Value' in v) return `int:${v.int64Value}`;
  if ('uint64Value' in v) return `uint:${v.uint64Value}`;
  if ('doubleValue' in v) return `double:${canonDouble(Number(v.doubleValue))}`;
  if ('stringValue' in v) return `string:${JSON.stringify(v.stringValue)}`;
  if ('bytesValue' in v) return `bytes:${Buffer.from(v.bytesValue, 'base64').toString('hex')}`;
  if ('boolValue' in v) return `bool:${v.boolValue}`;
  if ('nullValue' in v) return 'null';
  if ('listValue' in v) return `[${(v.listValue.values ?? []).map(expectedCanon).join(',')}]`;
  if ('mapValue' in v) return `{${(v.mapValue.entries ?? []).map((e) => `${expectedCanon(e.key)}=>${expectedCanon(e.value)}`).sort().join(',')}}`;
  if ('typeValue' in v) return `type:${v.typeValue}`;
  return undefined;
}

function canonDouble(n) {
  return Number.isNaN(n) ? 'NaN' : Object.is(n, -0) ? '-0' : String(n);
}

function mbCanon(v) {
  if (typeof v === 'bigint') return `int:${v}`;
  if (v instanceof mb.Optional) return undefined;
  if (v?.constructor?.name === 'UnsignedInteger' || v?.constructor?.name === 'UnsignedInt') return `uint:${v.value}`;
  if (typeof v === 'number') return `double:${canonDouble(v)}`;
  if (typeof v === 'string') return `string:${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return `bool:${v}`;
  if (v === null) return 'null';
  if (v instanceof Uint8Array) return `bytes:${Buffer.from(v).toString('hex')}`;
  if (Array.isArray(v)) return `[${v.map(mbCanon).join(',')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${mbCanon(k)}=>${mbCanon(x)}`).sort().join(',')}}`;
  if (v?.constructor?.name === 'Type') return `type:${String(v).replace(/^Type<|>$/g, '').replace(/^Type\[|\]$/g, '')}`;
  if (typeof v === 'object' && v.constructor === Object) return `{${Object.entries(v).map(([k, x]) => `string:${JSON.stringify(k)}=>${mbCanon(x)}`).sort().join(',')}}`;
  return `other:${String(v)}`;
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

/** A binding value for each library. */
function bindValue(v, lib) {
  if ('int64Value' in v) return BigInt(v.int64Value);
  if ('uint64Value' in v) return lib === 'buf' ? buf.celUint(BigInt(v.uint64Value)) : mb.evaluate(`${v.uint64Value}u`);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('stringValue' in v) return v.stringValue;
  if ('bytesValue' in v) return fromBase64(v.bytesValue);
  if ('boolValue' in v) return v.boolValue;
  if ('nullValue' in v) return null;
  if ('listValue' in v) return (v.listValue.values ?? []).map((x) => bindValue(x, lib));
  if ('mapValue' in v) return new Map((v.mapValue.entries ?? []).map((e) => [bindValue(e.key, lib), bindValue(e.value, lib)]));
  throw new Error('unsupported binding');
}

const PRIMITIVES = { INT64: 'int', UINT64: 'uint', DOUBLE: 'double', STRING: 'string', BOOL: 'bool', BYTES: 'bytes' };

function mbType(t) {
  if (t === undefined) return 'dyn';
  if (t.primitive) return PRIMITIVES[t.primitive] ?? 'dyn';
  if (t.listType) return `list<${mbType(t.listType.elemType)}>`;
  if (t.mapType) return `map<${mbType(t.mapType.keyType)}, ${mbType(t.mapType.valueType)}>`;
  return 'dyn';
}

function runMb(t) {
  const env = new mb.Environment({ enableOptionalTypes: true, unlistedVariablesAreDyn: t.disableCheck === true });
  const ctx = {};
  try {
    for (const d of t.typeEnv ?? []) if (d.ident) env.registerVariable(d.name, mbType(d.ident.type));
  } catch (err) {
    return { error: `environment: ${err.message}` };
  }
  for (const [k, b] of Object.entries(t.bindings ?? {})) ctx[k] = bindValue(b.value, 'mb');
  try {
    return { value: mbCanon(env.evaluate(t.expr, ctx)) };
  } catch (err) {
    return { error: String(err.message).split('\n')[0] };
  }
}

function runBuf(t) {
  const ctx = {};
  for (const [k, b] of Object.entries(t.bindings ?? {})) ctx[k] = bindValue(b.value, 'buf');
  try {
    const r = buf.run(t.expr, ctx, { funcs: bufStrings });
    return buf.isCelError(r) ? { error: r.message } : { value: bufCanon(r) };
  } catch (err) {
    return { error: String(err.message).split('\n')[0] };
  }
}

function conformance() {
  const suite = conformanceData;
  const rows = [];
  const totals = { cases: 0, mb: 0, buf: 0 };
  for (const s of suite.suites.filter((x) => SUITES.includes(x.name))) {
    const row = { suite: s.name, cases: 0, mb: 0, buf: 0 };
    const visit = (node) => {
      for (const test of node.tests ?? []) {
        const t = test.original;
        if (t.checkOnly || usesProto(t)) continue;
        const expected = expectedCanon(t.value);
        const wantsError = t.evalError !== undefined;
        if (expected === undefined && !wantsError) continue;
        let typeEnvOk = true;
        for (const d of t.typeEnv ?? []) if (d.function) typeEnvOk = false;
        if (!typeEnvOk) continue;
        row.cases++;
        const ok = (r) => (wantsError ? r.error !== undefined : r.value === expected);
        if (ok(runMb(t))) row.mb++;
        else if (process.argv.includes('--failures=mb')) console.log('mb', s.name, t.name, t.expr, JSON.stringify(runMb(t)), expected);
        if (ok(runBuf(t))) row.buf++;
        else if (process.argv.includes('--failures=buf')) console.log('buf', s.name, t.name, t.expr, JSON.stringify(runBuf(t)), expected);
      }
      for (const c of node.suites ?? []) visit(c);
    };
    visit(s);
    rows.push(row);
    totals.cases += row.cases;
    totals.mb += row.mb;
    totals.buf += row.buf;
  }
  return { rows, totals };
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
console.log('suite'.padEnd(14), 'cases'.padStart(6), 'cel-js'.padStart(8), '@bufbuild'.padStart(10));
for (const r of rows) console.log(r.suite.padEnd(14), String(r.cases).padStart(6), String(r.mb).padStart(8), String(r.buf).padStart(10));
console.log('total'.padEnd(14), String(totals.cases).padStart(6), String(totals.mb).padStart(8), String(totals.buf).padStart(10));
console.log('\nspeed (µs per call, median machine noise applies)');
console.log('rule'.padEnd(58), 'compile cel-js', 'compile buf', 'eval cel-js', 'eval buf');
for (const s of speed()) {
  console.log(s.rule.padEnd(58), s.mbCompileUs.toFixed(1).padStart(14), s.bufCompileUs.toFixed(1).padStart(11), s.mbEvalUs.toFixed(2).padStart(11), s.bufEvalUs.toFixed(2).padStart(8));
}
