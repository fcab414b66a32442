import { CST, isMap, isScalar, isSeq, LineCounter, Lexer, parseAllDocuments, type Node as YamlNode } from 'yaml';
import { goQuote } from '../util/go-quote.js';
import { KUBERNETES_MAX_DEPTH } from './nesting.js';

/** The outcome of converting one YAML body, as sent back by the YAML worker. */
export type YamlConversion =
  | {
      /** The first document as JSON text (what sigs.k8s.io/yaml's YAMLToJSON hands to the JSON decoder). */
      readonly json: string;
      /** go-yaml's strict-mode complaints (`line 3: key "a" already set in map`), which fieldValidation reports. */
      readonly duplicateKeys: readonly string[];
    }
  | { readonly error: string };

/**
 * The most JSON a YAML body may expand to through aliases: a 3 MiB body written out as JSON stays far below it,
 * while an alias bomb goes past it quickly.
 */
const MAX_JSON_CHARS = 64 * 1024 * 1024;

/**
 * Converts a YAML (1.1, as kubectl's sigs.k8s.io/yaml reads it) body to JSON text. Errors are worded after
 * go-yaml, without the `yaml: ` prefix. Nesting past 10,000 levels is refused before the parser (which recurses
 * per level) sees the text, with go-yaml's message; aliases are bounded by count and by what they expand to.
 * Runs in the YAML worker: the parser is slow on large or hostile input and must not hold up the event loop.
 */
export function yamlToJson(text: string): YamlConversion {
  const tooDeep = depthError(text);
  if (tooDeep !== undefined) return { error: tooDeep };
  const lineCounter = new LineCounter();
  // Duplicate keys are found below in one pass; the parser's own check compares every pair of keys.
  const docs = parseAllDocuments(text, { version: '1.1', uniqueKeys: false, lineCounter });
  if (!Array.isArray(docs) || docs.length === 0 || docs[0] === undefined) return { json: 'null', duplicateKeys: [] };
  const first = docs[0];
  const error = first.errors[0];
  if (error !== undefined) return { error: error.message.split('\n')[0] ?? error.message };
  const badKey = collectionKey(first.contents);
  if (badKey !== undefined) return { error: `invalid map key: ${badKey}` };
  let value: unknown;
  try {
    value = first.toJS({ maxAliasCount: 100 });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { error: /excessive alias count/i.test(message) ? 'document contains excessive aliasing' : message };
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    // Only aliases nesting copies inside copies get here.
    return { error: 'document contains excessive aliasing' };
  }
  if (json === undefined) return { json: 'null', duplicateKeys: [] };
  if (json.length > MAX_JSON_CHARS) return { error: 'document contains excessive aliasing' };
  return { json, duplicateKeys: duplicateKeys(first.contents, lineCounter) };
}

/**
 * go-yaml's `exceeded max depth of 10000`, measured on the tokens: flow collections exactly, block collections by
 * the indentation levels and indicators (`- `, `? `, `: `) of each line, which never undercounts.
 */
function depthError(text: string): string | undefined {
  let flow = 0;
  const indents: number[] = [];
  let lineStart = true;
  let lineIndent = 0;
  let indicators = 0;
  let line = 1;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    switch (type) {
      case 'newline':
        lineStart = true;
        lineIndent = 0;
        indicators = 0;
        line++;
        continue;
      case 'space':
        if (lineStart) lineIndent = token.length;
        break;
      case 'flow-map-start':
      case 'flow-seq-start':
        flow++;
        break;
      case 'flow-map-end':
      case 'flow-seq-end':
        if (flow > 0) flow--;
        break;
      case 'seq-item-ind':
      case 'explicit-key-ind':
      case 'map-value-ind':
        if (flow === 0) indicators++;
        break;
      default:
        break;
    }
    if (type !== 'space' && type !== 'doc-mode' && type !== 'scalar' && type !== 'comment' && lineStart && flow === 0) {
      lineStart = false;
      while (indents.length > 0 && (indents[indents.length - 1] as number) >= lineIndent) indents.pop();
      indents.push(lineIndent);
    }
    if (token.includes('\n')) line += countNewlines(token);
    if (flow > KUBERNETES_MAX_DEPTH || indents.length + indicators > KUBERNETES_MAX_DEPTH) {
      // go-yaml names the line only past the first one.
      return line > 1 ? `line ${line}: exceeded max depth of ${KUBERNETES_MAX_DEPTH}` : `exceeded max depth of ${KUBERNETES_MAX_DEPTH}`;
    }
  }
  return undefined;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * A mapping key that is itself a sequence or mapping, rendered as go-yaml's `invalid map key: %#v` renders it.
 * Go cannot use such a key in the map it decodes into, so the body is refused; found without recursion.
 */
function collectionKey(root: YamlNode | null): string | undefined {
  const stack: unknown[] = root === null ? [] : [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isSeq(pair.key)) return `[]interface {}{${pair.key.items.map(goValue).join(', ')}}`;
        if (isMap(pair.key)) return `map[interface {}]interface {}{${pair.key.items.map((p) => `${goValue(p.key)}:${goValue(p.value)}`).join(', ')}}`;
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    }
  }
  return undefined;
}

/** One element of an invalid key, as %#v shows it; nested collections are abbreviated. */
function goValue(node: unknown): string {
  if (!isScalar(node)) return isSeq(node) ? '[]interface {}{...}' : isMap(node) ? 'map[interface {}]interface {}{...}' : 'interface {}(nil)';
  const value = node.value;
  if (typeof value === 'string') return goQuote(value);
  if (value === null) return 'interface {}(nil)';
  return String(value);
}

/** go-yaml's strict errors for a key repeated in one mapping, in document order, found without recursion. */
function duplicateKeys(root: YamlNode | null, lines: LineCounter): string[] {
  const found: { readonly offset: number; readonly key: unknown }[] = [];
  const stack: unknown[] = root === null ? [] : [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? pair.key.value : undefined;
        if (key !== undefined && (typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean')) {
          if (seen.has(key)) found.push({ offset: (pair.key as { range?: [number] }).range?.[0] ?? 0, key });
          seen.add(key);
        }
        stack.push(pair.value);
      }
    } else if (node !== null && typeof node === 'object' && 'items' in node && Array.isArray(node.items)) {
      for (const item of node.items) stack.push(item);
    }
  }
  found.sort((a, b) => a.offset - b.offset);
  return found.map(
    ({ offset, key }) =>
      `line ${lines.linePos(offset).line}: key ${typeof key === 'string' ? goQuote(key) : String(key)} already set in map`,
  );
}
