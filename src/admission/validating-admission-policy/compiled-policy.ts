import { isObject, type KubeObject, objects } from '../../api/types.js';
import type { PolicyCompileResult } from '../../cel/policy-compiler.js';
import { policyCompiler } from '../../kinds/admissionregistration-v1/validating-admission-policy-validation.js';

/**
 * A policy's expressions compiled once per generation (R11.166): the plugin keeps one of these per policy and
 * recompiles only when the stored policy's generation changes, never per request.
 */

export interface CompiledExpression {
  readonly name: string;
  readonly expression: string;
  readonly result: PolicyCompileResult;
}

export interface CompiledValidation {
  readonly expression: string;
  readonly result: PolicyCompileResult;
  readonly message: string;
  readonly messageExpression: PolicyCompileResult | undefined;
  /** The Status reason of a denial: the validation's reason, Invalid when unset. */
  readonly reason: string;
}

export interface ParamKind {
  readonly apiVersion: string;
  readonly kind: string;
}

export interface CompiledPolicy {
  readonly name: string;
  readonly generation: number;
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly paramKind: ParamKind | undefined;
  readonly matchConstraints: Record<string, unknown>;
  readonly matchConditions: readonly CompiledExpression[];
  readonly variables: readonly CompiledExpression[];
  readonly validations: readonly CompiledValidation[];
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function compilePolicy(policy: KubeObject): CompiledPolicy {
  const spec = isObject(policy.spec) ? policy.spec : {};
  const compiler = policyCompiler(spec);
  const paramKind = isObject(spec.paramKind) ? { apiVersion: text(spec.paramKind.apiVersion), kind: text(spec.paramKind.kind) } : undefined;
  return {
    name: policy.metadata.name ?? '',
    generation: typeof policy.metadata.generation === 'number' ? policy.metadata.generation : 0,
    failurePolicy: spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    paramKind,
    matchConstraints: isObject(spec.matchConstraints) ? spec.matchConstraints : {},
    matchConditions: objects(spec.matchConditions).map((c) => {
      const expression = text(c.expression).trim();
      return { name: text(c.name), expression, result: compiler.compile(expression, 'matchCondition') };
    }),
    variables: objects(spec.variables).map((v, i) => ({
      name: text(v.name),
      expression: text(v.expression),
      result: compiler.variables[i]?.result ?? { failure: { type: 'required', detail: 'expression is not specified' } },
    })),
    validations: objects(spec.validations).map((v) => {
      const expression = text(v.expression);
      const messageExpression = text(v.messageExpression);
      return {
        expression,
        result: compiler.compile(expression, 'validation'),
        message: text(v.message).trim(),
        messageExpression: messageExpression.trim() === '' ? undefined : compiler.compile(messageExpression, 'messageExpression'),
        reason: text(v.reason) || 'Invalid',
      };
    }),
  };
}
