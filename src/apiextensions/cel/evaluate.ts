import { Optional } from '@marcbachmann/cel-js';
import { type FieldError, fieldError } from '../../api/errors.js';
import { additionalPropertiesSchema, isJsonObject, itemsSchema, type JSONSchemaProps } from '../../api/json-schema-props.js';
import { type Compiled, celRuntimeError as runtimeError } from '../../cel/compile.js';
import { costBound, largestCollection, PER_CALL_LIMIT, PER_OBJECT_BUDGET } from '../../cel/cost.js';
import { child, index, key } from '../schema/field-path.js';
import type { CompiledRule, CompiledSchemaRules, RuleNode } from './rules.js';

/**
 * Runs a version's compiled rules over an object (R11.114–R11.127): each rule where its node is present, item and
 * value rules once per item or entry, transition rules only where an old value correlates (properties by name, map
 * entries by key, `list-type: map` items by their keys), all failures reported, cost bounded per call and object.
 */

const MAX_MESSAGE_BYTES = 5120;

class OutOfBudget extends Error {}

interface State {
  readonly errors: FieldError[];
  spent: number;
}

function schemaTypeOf(schema: JSONSchemaProps): string {
  return schema['x-kubernetes-int-or-string'] === true ? '' : (schema.type ?? '');
}

/** `.a.b` or `['a'].b` (already validated at CRD time) appended to the node path. */
function withFieldPath(path: string, fieldPath: string): string {
  let out = path;
  for (const m of fieldPath.matchAll(/\.([^.[]+)|\['((?:[^'\\]|\\.)*)'\]/g)) out = child(out, m[1] ?? m[2] ?? '');
  return out;
}

function render(path: string): string {
  return path === '' ? '<nil>' : path;
}

function failure(node: RuleNode, r: CompiledRule, path: string, message: string): FieldError {
  const at = r.rule.fieldPath === undefined || r.rule.fieldPath.trim() === '' ? path : withFieldPath(path, r.rule.fieldPath.trim());
  const type = schemaTypeOf(node.schema);
  switch (r.rule.reason) {
    case 'FieldValueForbidden':
      return fieldError.forbidden(render(at), message);
    case 'FieldValueRequired':
      return fieldError.required(render(at), message);
    case 'FieldValueDuplicate':
      return fieldError.duplicate(render(at), type);
    default:
      return fieldError.invalid(render(at), type, message);
  }
}

function messageOf(r: CompiledRule, ctx: Record<string, unknown>, state: State, largest: number): string {
  if (r.message !== undefined) {
    const bound = costBound(r.message.astNodes, r.message.comprehensionDepth, largest);
    if (bound <= PER_CALL_LIMIT) {
      state.spent += bound;
      try {
        const out = r.message.program(ctx);
        if (typeof out === 'string') {
          const m = out.trim();
          if (m !== '' && !/[\n\r]/.test(m) && Buffer.byteLength(m) <= MAX_MESSAGE_BYTES) return m;
        }
      } catch {
        // A failing messageExpression falls back to the message, as Kubernetes does.
      }
    }
  }
  const message = r.rule.message?.trim() ?? '';
  return message !== '' ? message : `failed rule: ${(r.rule.rule ?? '').trim()}`;
}

/** A node's values converted once for all its rules. */
interface Bound {
  readonly self: unknown;
  readonly old: unknown;
  readonly largest: number;
}

function runRule(node: RuleNode, r: CompiledRule, program: Compiled, bound: Bound, path: string, state: State): void {
  const { largest } = bound;
  const optional = r.rule.optionalOldSelf === true;
  if (program.usesOldSelf && bound.old === undefined && !optional) return;
  const label = r.rule.message?.trim() || (r.rule.rule ?? '').trim();
  const cost = costBound(program.astNodes, program.comprehensionDepth, largest);
  if (cost > PER_CALL_LIMIT) {
    state.errors.push(fieldError.invalid(render(path), schemaTypeOf(node.schema), `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${label}`));
    throw new OutOfBudget();
  }
  state.spent += cost;
  if (state.spent > PER_OBJECT_BUDGET) {
    state.errors.push(fieldError.invalid(render(path), schemaTypeOf(node.schema), 'validation failed due to running out of cost budget, no further validation rules will be run'));
    throw new OutOfBudget();
  }
  const celOld = bound.old;
  const ctx: Record<string, unknown> = { self: bound.self };
  if (optional) ctx.oldSelf = celOld === undefined ? Optional.none() : Optional.of(celOld);
  else if (celOld !== undefined) ctx.oldSelf = celOld;
  let result: unknown;
  try {
    result = program.program(ctx);
  } catch (err) {
    const e = runtimeError(err);
    const text = e === "'no such overload'" ? `${e}: call arguments did not match a supported operator, function or macro signature for rule: ${label}` : `${e} evaluating rule: ${label}`;
    state.errors.push(fieldError.invalid(render(path), schemaTypeOf(node.schema), text));
    return;
  }
  if (result !== true) state.errors.push(failure(node, r, path, messageOf(r, ctx, state, largest)));
}

function evaluateNode(compiled: CompiledSchemaRules, schema: JSONSchemaProps, value: unknown, old: unknown, path: string, state: State): void {
  if (value === undefined || value === null || !compiled.withRules.has(schema)) return;
  const node = compiled.nodes.get(schema);
  if (node !== undefined) {
    const bound: Bound = {
      self: node.convert(value),
      old: old === undefined ? undefined : node.convert(old),
      largest: Math.max(largestCollection(value), largestCollection(old)),
    };
    for (const r of node.rules) {
      if (r.program === undefined) {
        state.errors.push(fieldError.invalid(render(path), schemaTypeOf(schema), `rule compile error: ${r.error ?? ''}`));
        continue;
      }
      runRule(node, r, r.program, bound, path, state);
    }
  }
  if (isJsonObject(value)) {
    const oldObj = isJsonObject(old) ? old : undefined;
    const additional = additionalPropertiesSchema(schema);
    if (additional !== undefined) {
      for (const [k, v] of Object.entries(value)) evaluateNode(compiled, additional, v, oldObj?.[k] ?? undefined, key(path, k), state);
      return;
    }
    for (const [k, prop] of Object.entries(schema.properties ?? {})) evaluateNode(compiled, prop, value[k], oldObj?.[k] ?? undefined, child(path, k), state);
    return;
  }
  const items = itemsSchema(schema);
  if (Array.isArray(value) && items !== undefined) {
    const keys = schema['x-kubernetes-list-type'] === 'map' ? (schema['x-kubernetes-list-map-keys'] ?? []) : undefined;
    const oldByKey = new Map<string, unknown>();
    if (keys !== undefined && Array.isArray(old)) for (const o of old) if (isJsonObject(o)) oldByKey.set(JSON.stringify(keys.map((k) => o[k])), o);
    value.forEach((item, i) => {
      const oldItem = keys !== undefined && isJsonObject(item) ? oldByKey.get(JSON.stringify(keys.map((k) => item[k]))) : undefined;
      evaluateNode(compiled, items, item, oldItem, index(path, i), state);
    });
  }
}

/** Every rule failure of `obj` (with `old` on updates), as field errors in Kubernetes' wording. */
export function evaluateRules(compiled: CompiledSchemaRules, schema: JSONSchemaProps, obj: unknown, old: unknown): FieldError[] {
  const state: State = { errors: [], spent: 0 };
  try {
    evaluateNode(compiled, schema, obj, old, '', state);
  } catch (err) {
    if (!(err instanceof OutOfBudget)) throw err;
  }
  return state.errors;
}
