import type { Compiled } from '../../cel/compile.js';
import { celRuntimeError } from '../../cel/compile.js';
import { costBound, PER_CALL_LIMIT, PER_OBJECT_BUDGET } from '../../cel/cost.js';
import type { PolicyVariables } from '../../cel/policy-compiler.js';
import type { CompiledExpression, CompiledPolicy, CompiledValidation } from './compiled-policy.js';

/**
 * One (policy, binding, param) evaluation (R11.156, R11.164–R11.168): match conditions, then every validation with
 * lazily evaluated variables, all within one cost budget; the result is the list of failed validations and errors
 * as decisions, before the binding's validationActions apply.
 */

/** The CEL activation of one evaluation, without `variables` (built here, per evaluation, into `values`). */
export interface Activation {
  readonly values: Record<string, unknown>;
  /** The largest list, map or string in the inputs, which bounds the cost of comprehensions (cel/cost.ts). */
  readonly largest: number;
}

export interface Decision {
  readonly message: string;
  /** The Status reason (Forbidden, Invalid, RequestEntityTooLarge, …). */
  readonly reason: string;
  /** Which validation failed; -1 for match condition and audit annotation errors. */
  readonly expressionIndex: number;
  /** An auditAnnotation's error: it denies whatever the binding's validationActions are. */
  readonly auditAnnotation?: true;
}

const MAX_MESSAGE_BYTES = 5120;

class CostExceeded extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

/** Runs one program within the per-call limit and the evaluation's remaining budget. */
class Budget {
  private spent = 0;
  private readonly largest: number;

  constructor(largest: number) {
    this.largest = largest;
  }

  run(compiled: Compiled, ctx: Record<string, unknown>): unknown {
    const cost = costBound(compiled.astNodes, compiled.comprehensionDepth, this.largest);
    this.spent += cost;
    if (cost > PER_CALL_LIMIT || this.spent > PER_OBJECT_BUDGET) throw new CostExceeded();
    return compiled.program(ctx);
  }
}

const errorText = (err: unknown): string => (err instanceof CostExceeded ? err.message : celRuntimeError(err));

/** `variables`: each variable evaluated on first use and remembered, its failure reported to every user (R11.165). */
function lazyVariables(policy: CompiledPolicy, ctx: Record<string, unknown>, budget: Budget): PolicyVariables {
  const outcomes: ({ value: unknown } | { error: string } | undefined)[] = [];
  return new policy.variablesClass((index) => {
    const v = policy.variables[index] as CompiledExpression;
    let outcome = outcomes[index];
    if (outcome === undefined) {
      if ('failure' in v.result) outcome = { error: v.result.failure.detail };
      else {
        try {
          outcome = { value: budget.run(v.result.compiled, ctx) };
        } catch (err) {
          outcome = { error: errorText(err) };
        }
      }
      outcomes[index] = outcome;
    }
    if ('error' in outcome) throw new Error(`composited variable "${v.name}" fails to evaluate: ${outcome.error}`);
    return outcome.value;
  });
}

/** R11.168: the messageExpression's string when usable, else the message, else the failed expression. */
function failureMessage(v: CompiledValidation, ctx: Record<string, unknown>, budget: Budget): string {
  if (v.messageExpression !== undefined && 'compiled' in v.messageExpression) {
    try {
      const out = budget.run(v.messageExpression.compiled, ctx);
      if (typeof out === 'string') {
        const m = out.trim();
        if (m !== '' && !/[\n\r]/.test(m) && Buffer.byteLength(m) <= MAX_MESSAGE_BYTES) return m;
      }
    } catch {
      // A failing messageExpression falls back to the message, as Kubernetes does (it only logs the error).
    }
  }
  return v.message !== '' ? v.message : `failed expression: ${v.expression.trim()}`;
}

/** R11.47: undefined when every condition holds, 'skip' when one is false, else the errors' text. */
function matchConditions(policy: CompiledPolicy, ctx: Record<string, unknown>, largest: number): 'skip' | string | undefined {
  const budget = new Budget(largest);
  const errors: string[] = [];
  let skip = false;
  for (const c of policy.matchConditions) {
    if ('failure' in c.result) {
      errors.push(`compilation error: ${c.result.failure.detail}`);
      continue;
    }
    try {
      if (budget.run(c.result.compiled, ctx) !== true) skip = true;
    } catch (err) {
      errors.push(`expression '${c.expression}' resulted in error: ${errorText(err)}`);
    }
  }
  if (skip) return 'skip';
  if (errors.length === 0) return undefined;
  return errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
}

/** Receives the auditAnnotations an evaluation publishes (key and trimmed, non-empty value). */
export type AuditAnnotationSink = (key: string, value: string) => void;

const MAX_AUDIT_ANNOTATION_VALUE = 10 * 1024;

/**
 * The auditAnnotations of an evaluation that admitted the match: a string value is published (cut at 10 KiB), null
 * or blank omits the key; errors deny under Fail, as validations' errors do.
 */
function auditAnnotations(policy: CompiledPolicy, ctx: Record<string, unknown>, budget: Budget, sink: AuditAnnotationSink): Decision[] {
  const fail = policy.failurePolicy === 'Fail';
  const errors: Decision[] = [];
  const error = (message: string): void => {
    if (fail) errors.push({ message, reason: 'Invalid', expressionIndex: -1, auditAnnotation: true });
  };
  for (const a of policy.auditAnnotations) {
    if ('failure' in a.result) {
      error(`compilation error: ${a.result.failure.detail}`);
      continue;
    }
    let value: unknown;
    try {
      value = budget.run(a.result.compiled, ctx);
    } catch (err) {
      error(`expression '${a.valueExpression}' resulted in error: ${errorText(err)}`);
      continue;
    }
    if (typeof value === 'string') {
      const trimmed = value.trim();
      if (trimmed !== '') sink(a.key, trimmed.slice(0, MAX_AUDIT_ANNOTATION_VALUE));
    } else if (value !== null) {
      errors.push({
        message: `valueExpression '${a.valueExpression}' resulted in unsupported return type: ${a.result.compiled.outputType}. Return type must be either string or null.`,
        reason: 'Invalid',
        expressionIndex: -1,
        auditAnnotation: true,
      });
    }
  }
  return errors;
}

/** The decisions of one evaluation; errors count only under failurePolicy Fail (R11.167). */
export function evaluatePolicy(policy: CompiledPolicy, activation: Activation, annotations?: AuditAnnotationSink): Decision[] {
  const fail = policy.failurePolicy === 'Fail';
  // The activation is this evaluation's own object: `variables` is added to it.
  const ctx = activation.values;
  if (policy.matchConditions.length > 0) {
    const matched = matchConditions(policy, ctx, activation.largest);
    if (matched === 'skip') return [];
    if (matched !== undefined) return fail ? [{ message: matched, reason: 'Invalid', expressionIndex: -1 }] : [];
  }
  const budget = new Budget(activation.largest);
  if (policy.variables.length > 0) ctx.variables = lazyVariables(policy, ctx, budget);
  const decisions: Decision[] = [];
  for (let index = 0; index < policy.validations.length; index++) {
    const v = policy.validations[index] as CompiledValidation;
    if ('failure' in v.result) {
      if (fail) decisions.push({ message: `compilation error: ${v.result.failure.detail}`, reason: 'Invalid', expressionIndex: index });
      continue;
    }
    let result: unknown;
    try {
      result = budget.run(v.result.compiled, ctx);
    } catch (err) {
      if (fail)
        decisions.push({
          message: `expression '${v.expression}' resulted in error: ${errorText(err)}`,
          reason: 'Invalid',
          expressionIndex: index,
        });
      continue;
    }
    if (result !== true) decisions.push({ message: failureMessage(v, ctx, budget), reason: v.reason, expressionIndex: index });
  }
  if (annotations !== undefined && policy.auditAnnotations.length > 0)
    decisions.push(...auditAnnotations(policy, ctx, budget, annotations));
  return decisions;
}
