import { Optional } from '@marcbachmann/cel-js';
import { tests as conformanceData } from '@bufbuild/cel-spec/testdata/conformance.js';

/**
 * The cel-spec conformance cases that apply to Kubernetes' CEL (no protobuf messages or enums, no containers, no
 * extensions Kubernetes lacks), with expected values in one canonical string form so any evaluator can be scored.
 * Used by conformance.test.ts and by scripts/cel-compare.mjs.
 */

export const APPLICABLE_SUITES = ['basic', 'comparisons', 'conversions', 'dynamic', 'fields', 'fp_math', 'integer_math', 'lists', 'logic', 'macros', 'optionals', 'parse', 'plumbing', 'string', 'string_ext', 'timestamps'];

type JsonValue = Record<string, unknown>;

export interface ConformanceCase {
  readonly suite: string;
  readonly name: string;
  readonly expr: string;
  /** Canonical expected value; undefined when an error is expected. */
  readonly expected?: string;
  readonly typeEnv: readonly { name: string; ident?: { type?: JsonValue } }[];
  readonly bindings: Record<string, { value: JsonValue }>;
  readonly disableCheck: boolean;
}

interface RawSuite {
  name: string;
  suites?: RawSuite[];
  tests?: { original: Record<string, unknown> }[];
}

const PROTO = /objectValue|enumValue|messageType|google\.protobuf|TestAllTypes|"container"|cel\.expr/;

function canonDouble(n: number): string {
  return Number.isNaN(n) ? 'NaN' : Object.is(n, -0) ? '-0' : String(n);
}

/** A conformance `cel.expr.Value` (JSON form) as a canonical string; undefined for kinds not compared. */
export function expectedCanon(v: JsonValue | undefined): string | undefined {
  if (v === undefined) return undefined;
  if ('int64Value' in v) return `int:${v.int64Value}`;
  if ('uint64Value' in v) return `uint:${v.uint64Value}`;
  if ('doubleValue' in v) return `double:${canonDouble(Number(v.doubleValue))}`;
  if ('stringValue' in v) return `string:${JSON.stringify(v.stringValue)}`;
  if ('bytesValue' in v) return `bytes:${Buffer.from(String(v.bytesValue), 'base64').toString('hex')}`;
  if ('boolValue' in v) return `bool:${v.boolValue}`;
  if ('nullValue' in v) return 'null';
  if ('listValue' in v) return `[${(((v.listValue as JsonValue).values ?? []) as JsonValue[]).map(expectedCanon).join(',')}]`;
  if ('mapValue' in v) {
    const entries = ((v.mapValue as JsonValue).entries ?? []) as { key: JsonValue; value: JsonValue }[];
    return `{${entries.map((e) => `${expectedCanon(e.key)}=>${expectedCanon(e.value)}`).sort().join(',')}}`;
  }
  if ('typeValue' in v) return `type:${v.typeValue}`;
  return undefined;
}

/** A cel-js result in the same canonical form. */
export function celJsCanon(v: unknown): string {
  if (typeof v === 'bigint') return `int:${v}`;
  if (v instanceof Optional) return `optional:${v.hasValue() ? celJsCanon(v.value()) : 'none'}`;
  if (typeof v === 'number') return `double:${canonDouble(v)}`;
  if (typeof v === 'string') return `string:${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return `bool:${v}`;
  if (v === null || v === undefined) return 'null';
  if (v instanceof Uint8Array) return `bytes:${Buffer.from(v).toString('hex')}`;
  if (Array.isArray(v)) return `[${v.map(celJsCanon).join(',')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${celJsCanon(k)}=>${celJsCanon(x)}`).sort().join(',')}}`;
  const ctor = (v as object).constructor;
  if (ctor?.name === 'UnsignedInt') return `uint:${(v as { value: bigint }).value}`;
  if (ctor?.name === 'Type') return `type:${String(v).replace(/^Type<|>$/g, '')}`;
  if (ctor === Object) {
    return `{${Object.entries(v as object).map(([k, x]) => `string:${JSON.stringify(k)}=>${celJsCanon(x)}`).sort().join(',')}}`;
  }
  return `other:${String(v)}`;
}

/** Every applicable case, in suite order. */
export function applicableCases(): ConformanceCase[] {
  const out: ConformanceCase[] = [];
  const visit = (suite: string, node: RawSuite): void => {
    for (const { original: t } of node.tests ?? []) {
      if (t.checkOnly === true || PROTO.test(JSON.stringify(t))) continue;
      const typeEnv = (t.typeEnv ?? []) as ConformanceCase['typeEnv'];
      if (typeEnv.some((d) => d.ident === undefined)) continue;
      const expected = expectedCanon(t.value as JsonValue | undefined);
      if (expected === undefined && t.evalError === undefined) continue;
      out.push({
        suite,
        name: String(t.name),
        expr: String(t.expr),
        expected,
        typeEnv,
        bindings: (t.bindings ?? {}) as ConformanceCase['bindings'],
        disableCheck: t.disableCheck === true,
      });
    }
    for (const c of node.suites ?? []) visit(suite, c);
  };
  for (const s of (conformanceData as RawSuite).suites ?? []) if (APPLICABLE_SUITES.includes(s.name)) visit(s.name, s);
  return out;
}

const PRIMITIVES: Record<string, string> = { INT64: 'int', UINT64: 'uint', DOUBLE: 'double', STRING: 'string', BOOL: 'bool', BYTES: 'bytes' };

/** A conformance type as a cel-js type string. */
export function celJsType(t: JsonValue | undefined): string {
  if (t === undefined) return 'dyn';
  if (typeof t.primitive === 'string') return PRIMITIVES[t.primitive] ?? 'dyn';
  if (t.listType !== undefined) return `list<${celJsType((t.listType as JsonValue).elemType as JsonValue)}>`;
  if (t.mapType !== undefined) {
    const m = t.mapType as JsonValue;
    return `map<${celJsType(m.keyType as JsonValue)}, ${celJsType(m.valueType as JsonValue)}>`;
  }
  return 'dyn';
}

/** A binding as a JavaScript value; `uint` builds an unsigned integer for the evaluator at hand. */
export function bindValue(v: JsonValue, uint: (n: bigint) => unknown): unknown {
  if ('int64Value' in v) return BigInt(String(v.int64Value));
  if ('uint64Value' in v) return uint(BigInt(String(v.uint64Value)));
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('stringValue' in v) return v.stringValue;
  if ('bytesValue' in v) return new Uint8Array(Buffer.from(String(v.bytesValue), 'base64'));
  if ('boolValue' in v) return v.boolValue;
  if ('nullValue' in v) return null;
  if ('listValue' in v) return (((v.listValue as JsonValue).values ?? []) as JsonValue[]).map((x) => bindValue(x, uint));
  if ('mapValue' in v) {
    const entries = ((v.mapValue as JsonValue).entries ?? []) as { key: JsonValue; value: JsonValue }[];
    return new Map(entries.map((e) => [bindValue(e.key, uint), bindValue(e.value, uint)]));
  }
  throw new Error(`unsupported binding ${JSON.stringify(v)}`);
}
