import { isObject, type KubeObject, objects } from '../../api/types.js';
import type { PolicyCompileResult, PolicyVariablesClass } from '../../cel/policy-compiler.js';
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

export interface CompiledAuditAnnotation {
  readonly key: string;
  readonly valueExpression: string;
  readonly result: PolicyCompileResult;
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
  readonly auditAnnotations: readonly CompiledAuditAnnotation[];
  readonly variablesClass: PolicyVariablesClass;
  /**
   * The inputs (object, oldObject, request, params, namespaceObject, authorizer) its expressions name: an
   * evaluation builds only these, as most policies read one or two of them.
   */
  readonly inputs: ReadonlySet<string>;
}

/** Every name the compiled expressions refer to. */
function referencesOf(results: readonly (PolicyCompileResult | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const r of results) if (r !== undefined && 'compiled' in r) for (const name of r.compiled.references) out.add(name);
  return out;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function compilePolicy(policy: KubeObject): CompiledPolicy {
  const spec = isObject(policy.spec) ? policy.spec : {};
  const compiler = policyCompiler(spec);
  const paramKind = isObject(spec.paramKind) ? { apiVersion: text(spec.paramKind.apiVersion), kind: text(spec.paramKind.kind) } : undefined;
  const matchConditions = objects(spec.matchConditions).map((c) => {
    const expression = text(c.expression).trim();
    return { name: text(c.name), expression, result: compiler.compile(expression, 'matchCondition') };
  });
  const variables = objects(spec.variables).map((v, i) => ({
    name: text(v.name),
    expression: text(v.expression),
    result: compiler.variables[i]?.result ?? ({ failure: { type: 'required', detail: 'expression is not specified' } } as const),
  }));
  const validations = objects(spec.validations).map((v) => {
    const expression = text(v.expression);
    const messageExpression = text(v.messageExpression);
    return {
      expression,
      result: compiler.compile(expression, 'validation'),
      message: text(v.message).trim(),
      messageExpression: messageExpression.trim() === '' ? undefined : compiler.compile(messageExpression, 'messageExpression'),
      reason: text(v.reason) || 'Invalid',
    };
  });
  const auditAnnotations = objects(spec.auditAnnotations).map((a) => {
    const valueExpression = text(a.valueExpression);
    return { key: text(a.key), valueExpression, result: compiler.compile(valueExpression, 'auditAnnotation') };
  });
  const inputs = referencesOf([
    ...auditAnnotations.map((a) => a.result),
    ...matchConditions.map((c) => c.result),
    ...variables.map((v) => v.result),
    ...validations.flatMap((v) => [v.result, v.messageExpression]),
  ]);
  return {
    name: policy.metadata.name ?? '',
    generation: typeof policy.metadata.generation === 'number' ? policy.metadata.generation : 0,
    failurePolicy: spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    paramKind,
    matchConstraints: isObject(spec.matchConstraints) ? spec.matchConstraints : {},
    matchConditions,
    variables,
    validations,
    auditAnnotations,
    variablesClass: compiler.variablesClass,
    inputs,
  };
}
