/**
 * cel-go's strings extension `format` (R11.136) and `strings.quote`: the clauses %s %d %f %e %b %o %x %X and %%,
 * with an optional precision for %f and %e, formatting values as cel-go does (durations in seconds, timestamps in
 * RFC 3339, lists and maps with their elements formatted).
 */

function isUint(v: unknown): v is { value: bigint } {
  return typeof v === 'object' && v !== null && v.constructor?.name === 'UnsignedInt';
}

function isDuration(v: unknown): v is { seconds: bigint | number; nanos: number } {
  return typeof v === 'object' && v !== null && v.constructor?.name === 'Duration';
}

function special(n: number): string | undefined {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Number.POSITIVE_INFINITY) return 'Infinity';
  if (n === Number.NEGATIVE_INFINITY) return '-Infinity';
  return undefined;
}

function durationString(d: { seconds: bigint | number; nanos: number }): string {
  const seconds = Number(d.seconds) + d.nanos / 1e9;
  return `${seconds}s`;
}

function timestampString(t: Date): string {
  return t.toISOString().replace(/\.000Z$/, 'Z');
}

/** %s: a value as cel-go's string() would print it, recursively for lists and maps. */
export function formatString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return special(v) ?? String(v);
  if (v === null || v === undefined) return 'null';
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (v instanceof Date) return timestampString(v);
  if (isUint(v)) return String(v.value);
  if (isDuration(v)) return durationString(v);
  if (Array.isArray(v)) return `[${v.map(formatString).join(', ')}]`;
  if (v instanceof Map) {
    const entries = [...v].map(([k, x]) => [formatString(k), formatString(x)]).sort((a, b) => ((a[0] ?? '') < (b[0] ?? '') ? -1 : 1));
    return `{${entries.map(([k, x]) => `${k}: ${x}`).join(', ')}}`;
  }
  if (v.constructor?.name === 'Type') return String(v).replace(/^Type<|>$/g, '');
  if (v.constructor === Object) return formatString(new Map(Object.entries(v)));
  return String(v);
}

function integer(v: unknown, clause: string): bigint {
  if (typeof v === 'bigint') return v;
  if (isUint(v)) return v.value;
  if (typeof v === 'boolean' && clause === 'b') return v ? 1n : 0n;
  throw new Error(`error during formatting: only integers${clause === 'b' ? ', booleans' : ''} are supported by %${clause}`);
}

function double(v: unknown, clause: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (isUint(v)) return Number(v.value);
  throw new Error(`error during formatting: only numbers are supported by %${clause}`);
}

function hex(v: unknown, upper: boolean): string {
  let out: string;
  if (typeof v === 'string') out = Buffer.from(v, 'utf8').toString('hex');
  else if (v instanceof Uint8Array) out = Buffer.from(v).toString('hex');
  else {
    const n = integer(v, upper ? 'X' : 'x');
    out = n < 0n ? `-${(-n).toString(16)}` : n.toString(16);
  }
  return upper ? out.toUpperCase() : out;
}

/** Go rounds an exact tie to even ("%.1f" of 42.25 is 42.2); toFixed rounds it away from zero. */
function fixed(n: number, precision: number): string {
  const scaled = Math.abs(n) * 10 ** precision;
  if (scaled % 1 !== 0.5 || !Number.isSafeInteger(scaled * 2)) return n.toFixed(precision);
  const down = Math.floor(scaled);
  const even = down % 2 === 0 ? down : down + 1;
  const digits = String(even).padStart(precision + 1, '0');
  const text = precision === 0 ? digits : `${digits.slice(0, -precision)}.${digits.slice(-precision)}`;
  return n < 0 ? `-${text}` : text;
}

function exponent(n: number, precision: number): string {
  return special(n) ?? n.toExponential(precision).replace(/e([+-])(\d)$/, 'e$10$2');
}

/** `'<format>'.format([args])`. */
export function format(template: string, args: readonly unknown[]): string {
  let out = '';
  let next = 0;
  const take = (): unknown => {
    if (next >= args.length) throw new Error(`index ${next} out of range`);
    return args[next++];
  };
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    const m = /^(?:\.(\d+))?([sdfeboxX%])/.exec(template.slice(i + 1));
    if (m === null) throw new Error(`could not parse formatting clause: unrecognized formatting clause at ${i}`);
    i += m[0].length;
    const precision = m[1] === undefined ? 6 : Number(m[1]);
    switch (m[2]) {
      case '%':
        out += '%';
        break;
      case 's':
        out += formatString(take());
        break;
      case 'd': {
        const v = take();
        out += typeof v === 'number' ? (special(v) ?? String(Math.trunc(v))) : String(integer(v, 'd'));
        break;
      }
      case 'f': {
        const n = double(take(), 'f');
        out += special(n) ?? fixed(n, precision);
        break;
      }
      case 'e':
        out += exponent(double(take(), 'e'), precision);
        break;
      case 'b':
        out += integer(take(), 'b').toString(2);
        break;
      case 'o':
        out += integer(take(), 'o').toString(8);
        break;
      default:
        out += hex(take(), m[2] === 'X');
    }
  }
  return out;
}

/** strings.quote: a double-quoted CEL string literal with escapes. */
export function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (ch === '\x07') out += '\\a';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}
