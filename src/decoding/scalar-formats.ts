/**
 * Checks of the string encodings that Go's decoding of built-in types enforces (the values are rejected with
 * 400 before validation runs). Each returns the Go error text, or undefined when the value is acceptable.
 */

const QUANTITY_PATTERN = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
const QUANTITY_RE = new RegExp(QUANTITY_PATTERN);
const QUANTITY_FORMAT_ERROR = `quantities must match the regular expression '${QUANTITY_PATTERN}'`;
const QUANTITY_NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)/;
const QUANTITY_EXPONENT_RE = /^[eE][-+]?\d+$/;
const QUANTITY_SUFFIXES = new Set(['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E']);

/** resource.Quantity accepts a JSON string or number in its own syntax. */
export function quantityError(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : JSON.stringify(value);
  if (!QUANTITY_RE.test(text)) return QUANTITY_FORMAT_ERROR;
  const numeric = QUANTITY_NUMBER_RE.exec(text);
  if (numeric === null) return QUANTITY_FORMAT_ERROR;
  const suffix = text.slice(numeric[0].length);
  if (QUANTITY_SUFFIXES.has(suffix) || QUANTITY_EXPONENT_RE.test(suffix)) return undefined;
  return "unable to parse quantity's suffix";
}

const BASE64_ALPHABET = /[A-Za-z0-9+/]/;
/** Well-formed padded base64 without line breaks: the common case, accepted without the byte-by-byte scan. */
const PLAIN_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** []byte fields carry standard, padded base64; the error names the first offending byte like Go does. */
export function base64Error(text: string): string | undefined {
  if (PLAIN_BASE64.test(text)) return undefined;
  const at = corruptBase64Offset(text);
  return at === undefined ? undefined : `illegal base64 data at input byte ${at}`;
}

function corruptBase64Offset(src: string): number | undefined {
  const isNewline = (c: string | undefined): boolean => c === '\n' || c === '\r';
  let si = 0;
  while (si < src.length) {
    for (let j = 0; j < 4; j++) {
      if (si === src.length) return j === 0 ? undefined : si - j;
      const c = src[si] ?? '';
      si++;
      if (BASE64_ALPHABET.test(c)) continue;
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== '=' || j < 2) return si - 1;
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) return src.length;
        if (src[si] !== '=') return si - 1;
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      return si < src.length ? si : undefined;
    }
  }
  return undefined;
}

const RFC3339_LAYOUT = '2006-01-02T15:04:05Z07:00';

interface LayoutElement {
  readonly layout: string;
  readonly pattern: RegExp;
  /** Name used in Go's "<name> out of range" message, with the inclusive range. */
  readonly range?: readonly [string, number, number];
}

const RFC3339_ELEMENTS: readonly LayoutElement[] = [
  { layout: '2006', pattern: /^\d{4}/ },
  { layout: '-', pattern: /^-/ },
  { layout: '01', pattern: /^\d{2}/, range: ['month', 1, 12] },
  { layout: '-', pattern: /^-/ },
  { layout: '02', pattern: /^\d{2}/, range: ['day', 1, 31] },
  { layout: 'T', pattern: /^T/ },
  { layout: '15', pattern: /^\d{2}/, range: ['hour', 0, 23] },
  { layout: ':', pattern: /^:/ },
  { layout: '04', pattern: /^\d{2}/, range: ['minute', 0, 59] },
  { layout: ':', pattern: /^:/ },
  { layout: '05', pattern: /^\d{2}(\.\d+)?/, range: ['second', 0, 59] },
  { layout: 'Z07:00', pattern: /^(Z|[+-]\d{2}:\d{2})/ },
];

/** A complete RFC 3339 timestamp; its fields still need the range checks below. */
const RFC3339 = /^\d{4}-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const RFC3339_RANGES: readonly (readonly [number, number])[] = [
  [1, 12],
  [1, 31],
  [0, 23],
  [0, 59],
  [0, 59],
];

function isPlainTimestamp(text: string): boolean {
  const match = RFC3339.exec(text);
  if (match === null) return false;
  return RFC3339_RANGES.every(([min, max], i) => {
    const n = Number.parseInt(match[i + 1] ?? '', 10);
    return n >= min && n <= max;
  });
}

/** metav1.Time: an RFC 3339 timestamp, reported with Go's time.Parse error text. */
export function timestampError(text: string): string | undefined {
  if (isPlainTimestamp(text)) return undefined;
  const quoted = JSON.stringify(text);
  let rest = text;
  for (const element of RFC3339_ELEMENTS) {
    const match = element.pattern.exec(rest);
    if (match === null) {
      return `parsing time ${quoted} as "${RFC3339_LAYOUT}": cannot parse ${JSON.stringify(rest)} as "${element.layout}"`;
    }
    if (element.range !== undefined) {
      const [name, min, max] = element.range;
      const n = Number.parseInt(match[0], 10);
      if (n < min || n > max) return `parsing time ${quoted}: ${name} out of range`;
    }
    rest = rest.slice(match[0].length);
  }
  if (rest !== '') return `parsing time ${quoted}: extra text: ${JSON.stringify(rest)}`;
  return undefined;
}
