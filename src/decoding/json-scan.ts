import { goQuote } from '../util/go-quote.js';
import { KUBERNETES_MAX_DEPTH } from './nesting.js';

/** What one pass over a JSON text finds before it is parsed. */
export interface JsonScan {
  /** How deeply the text nests (`{}` is 1); at most the scan's limit unless `tooDeep` is set. */
  readonly depth: number;
  /** The bracket that took the text past the limit, where Go's scanner stops with `exceeded max depth`. */
  readonly tooDeep?: '[' | '{';
  /**
   * sigs.k8s.io/json's strict errors for keys given twice in one object, in document order and without repeats:
   * `duplicate field "spec.template.metadata.labels.app"` (indices as `containers[0]`); at most 100, as there.
   */
  readonly duplicates: readonly string[];
}

const MAX_STRICT_ERRORS = 100;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/**
 * Scans a JSON text for its nesting depth and duplicate keys without building anything, so the depth is known
 * before a parser or a recursive walk sees the value; the scan stops at the first bracket past `limit` (Go's
 * encoding/json stops past KUBERNETES_MAX_DEPTH). The text is not validated: JSON.parse does that next.
 */
export function scanJson(text: string, limit: number = KUBERNETES_MAX_DEPTH): JsonScan {
  // One entry per open container: whether it is an array, its current index or key, and the keys seen so far.
  const isArray: boolean[] = [];
  const index: number[] = [];
  const key: (string | undefined)[] = [];
  const seen: (Set<string> | undefined)[] = [];
  let depth = 0;
  let deepest = 0;
  let expectKey = false;
  let duplicates: string[] | undefined;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (expectKey) {
        expectKey = false;
        const name = keyText(text, i, end);
        const top = depth - 1;
        if (key[top] === undefined) {
          key[top] = name;
        } else {
          let names = seen[top];
          if (names === undefined) {
            names = new Set([key[top]]);
            seen[top] = names;
          }
          key[top] = name;
          if (names.has(name)) {
            duplicates ??= [];
            addStrictError(duplicates, `duplicate field ${goQuote(fieldPath(isArray, index, key, top))}`);
          } else {
            names.add(name);
          }
        }
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === limit) return { depth, tooDeep: c === OPEN_OBJECT ? '{' : '[', duplicates: duplicates ?? [] };
      const array = c === OPEN_ARRAY;
      isArray[depth] = array;
      index[depth] = 0;
      key[depth] = undefined;
      seen[depth] = undefined;
      depth++;
      if (depth > deepest) deepest = depth;
      expectKey = !array;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0) depth--;
      expectKey = false;
    } else if (c === COMMA && depth > 0) {
      const top = depth - 1;
      if (isArray[top]) (index[top] as number)++;
      else expectKey = true;
    }
  }
  return { depth: deepest, duplicates: duplicates ?? [] };
}

/** The index of the quote that closes the string opening at `start` (the text's end when it never closes). */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    for (let j = quote - 1; j > start && text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** A key as Go compares it: escapes resolved. */
function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    return raw;
  }
}

/** kjson's path of the key at `top`: keys joined by dots, indices in brackets (`spec.containers[0].name`). */
function fieldPath(isArray: readonly boolean[], index: readonly number[], key: readonly (string | undefined)[], top: number): string {
  let path = '';
  for (let level = 0; level <= top; level++) {
    if (isArray[level]) path += `[${index[level] as number}]`;
    else path = path === '' ? (key[level] as string) : `${path}.${key[level] as string}`;
  }
  return path;
}

function addStrictError(errors: string[], message: string): void {
  if (errors.length < MAX_STRICT_ERRORS && !errors.includes(message)) errors.push(message);
}
