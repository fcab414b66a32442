import { Environment } from '@marcbachmann/cel-js';
import { RE2_MATCHES, registerKubernetesLibraries } from './library.js';

/**
 * Cascade's CEL layer over cel-js (docs/dependencies.md): one base environment with Kubernetes' options and
 * libraries, cloned per use (a CRD version's schema types, later policies and webhook matchConditions), compile =
 * type check + parse once, errors worded as cel-go words them.
 */

let base: Environment | undefined;

/** The shared base; cel-js freezes an environment once cloned, so every user gets `clone()`. */
export function baseEnvironment(): Environment {
  if (base === undefined) {
    base = registerKubernetesLibraries(
      new Environment({
        enableOptionalTypes: true,
        homogeneousAggregateLiterals: true,
        limits: { maxAstNodes: 10_000, maxDepth: 250, maxListElements: 10_000, maxMapEntries: 10_000, maxCallArguments: 32 },
      }),
    );
  }
  return base;
}

export type Program = (ctx: Record<string, unknown>) => unknown;

export interface Compiled {
  readonly program: Program;
  readonly outputType: string;
  /** Deepest nesting of comprehension macros, for the cost bound (cost.ts). */
  readonly comprehensionDepth: number;
  readonly astNodes: number;
  /** Whether the expression names `oldSelf` (a transition rule, R11.117). */
  readonly usesOldSelf: boolean;
  /** The identifiers it names (its variables, and comprehensions' iteration variables): which inputs to build. */
  readonly references: ReadonlySet<string>;
}

export class CompileError extends Error {}

interface CelErrorShape {
  message: string;
  code?: string;
  range?: { start: number; end: number };
}

/** cel-go's rendering: `ERROR: <input>:line:col: msg` with the source line and a caret under the column. */
export function celGoError(expression: string, err: unknown): string {
  const e = err as CelErrorShape;
  let text = String(e.message).split('\n')[0] ?? '';
  let at = e.range?.start ?? 0;
  if (/^No such key: /.test(text)) {
    text = `undefined field '${text.slice('No such key: '.length)}'`;
    if (expression[at - 1] === '.') at -= 1;
  } else if (/^Unknown variable: /.test(text)) {
    text = `undeclared reference to '${text.slice('Unknown variable: '.length)}' (in container '')`;
  } else if (/^Unexpected token/.test(text)) {
    text = `Syntax error: ${text.replace(/^Unexpected token: /, 'mismatched input ')}`;
  }
  const before = expression.slice(0, at);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = at - lineStart;
  const source = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column + 1}: ${text}\n | ${source}\n | ${'.'.repeat(column)}^`;
}

interface AstLike {
  op?: string;
  args?: unknown;
}

/**
 * cel-js's `matches` uses JavaScript's backtracking RegExp, on which `'aaaa…!'.matches('(a+)+$')` runs for minutes;
 * its overload cannot be replaced, but cel-js resolves a call by name when it runs, so the checked AST's `matches`
 * calls are renamed to the RE2 overload registered beside it (library.ts; a unit test holds cel-js to this).
 */
function routeMatchesToRe2(node: unknown): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const x of node) routeMatchesToRe2(x);
    return;
  }
  const n = node as AstLike;
  if (typeof n.op !== 'string') return;
  if (n.op === 'rcall' && Array.isArray(n.args) && n.args[0] === 'matches') n.args[0] = RE2_MATCHES;
  routeMatchesToRe2(n.args);
}

interface WalkResult {
  nodes: number;
  depth: number;
  references: Set<string>;
}

function walk(node: unknown, depth: number, acc: WalkResult): void {
  if (node === null || typeof node !== 'object') return;
  const n = node as AstLike;
  if (typeof n.op !== 'string') {
    if (Array.isArray(node)) for (const x of node) walk(x, depth, acc);
    return;
  }
  acc.nodes++;
  if (n.op === 'id' && typeof n.args === 'string') acc.references.add(n.args);
  const d = n.op === 'rcall' && isComprehension(n.args) ? depth + 1 : depth;
  acc.depth = Math.max(acc.depth, d);
  if (Array.isArray(n.args)) for (const a of n.args) walk(a, d, acc);
  else walk(n.args, d, acc);
}

const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

function isComprehension(args: unknown): boolean {
  return Array.isArray(args) && typeof args[0] === 'string' && MACROS.has(args[0]);
}

/** Type-checks and parses; throws CompileError carrying cel-go's message. */
export function compile(env: Environment, expression: string): Compiled {
  let checked: { valid: boolean; type?: string; error?: unknown };
  try {
    checked = env.check(expression);
  } catch (err) {
    throw new CompileError(celGoError(expression, err));
  }
  if (!checked.valid) throw new CompileError(celGoError(expression, checked.error));
  const parsed = env.parse(expression);
  routeMatchesToRe2((parsed as unknown as { ast: unknown }).ast);
  const acc: WalkResult = { nodes: 0, depth: 0, references: new Set() };
  walk((parsed as unknown as { ast: unknown }).ast, 0, acc);
  return {
    program: parsed as unknown as Program,
    outputType: String(checked.type),
    comprehensionDepth: acc.depth,
    astNodes: Math.max(acc.nodes, 1),
    usesOldSelf: acc.references.has('oldSelf'),
    references: acc.references,
  };
}

/** cel-js's first line of a runtime error, reworded as cel-go words the common ones. */
export function celRuntimeError(err: unknown): string {
  const text = String((err as Error).message ?? err).split('\n')[0] ?? '';
  if (/^No such key: /.test(text)) return `no such key: ${text.slice('No such key: '.length)}`;
  if (/no matching overload|no such overload/i.test(text)) return "'no such overload'";
  return text;
}
