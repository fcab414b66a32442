import type { Environment } from '@marcbachmann/cel-js';
import { additionalPropertiesSchema, itemsSchema, type JSONSchemaProps, type ValidationRule } from '../../api/json-schema-props.js';
import { baseEnvironment, type Compiled, CompileError, compile } from '../../cel/compile.js';
import { child, key } from '../schema/field-path.js';
import { SchemaTypes } from './schema-types.js';

/**
 * `x-kubernetes-validations` of one CRD version's schema, compiled once (when the version is served, or when the
 * CRD is written) and kept by the version's strategy, so no request compiles anything (R11.100–R11.118).
 */

export interface CompiledRule {
  readonly rule: ValidationRule;
  readonly index: number;
  readonly program?: Compiled;
  /** cel-go's wording of what made the rule unusable (compile error or wrong result type). */
  readonly error?: string;
  readonly message?: Compiled;
  readonly messageError?: string;
}

export interface RuleNode {
  readonly schema: JSONSchemaProps;
  /** Where the rules sit in the CRD (`properties[spec].x-kubernetes-validations`), for CRD-time errors. */
  readonly schemaPath: string;
  readonly rules: readonly CompiledRule[];
  readonly convert: (v: unknown) => unknown;
}

/** Every compiled rule of a schema, by the schema node carrying it. */
export interface CompiledSchemaRules {
  readonly nodes: ReadonlyMap<JSONSchemaProps, RuleNode>;
  /** Nodes at or below which some rule sits: evaluation descends only into these. */
  readonly withRules: ReadonlySet<JSONSchemaProps>;
}

let durationProgram: ((ctx: Record<string, unknown>) => unknown) | undefined;

/** JSON duration strings become cel-js durations through CEL's own `duration()` (the same syntax as Go's). */
function toDuration(s: string): unknown {
  durationProgram ??= baseEnvironment().clone().registerVariable('s', 'string').parse('duration(s)') as unknown as (ctx: Record<string, unknown>) => unknown;
  try {
    return durationProgram({ s });
  } catch {
    return s;
  }
}

interface Visit {
  schema: JSONSchemaProps;
  path: string;
  root: boolean;
}

function ruleNodes(schema: JSONSchemaProps, path: string, root: boolean, out: Visit[]): boolean {
  let any = (schema['x-kubernetes-validations'] ?? []).length > 0;
  if (any) out.push({ schema, path, root });
  for (const [k, prop] of Object.entries(schema.properties ?? {})) any = ruleNodes(prop, key(child(path, 'properties'), k), false, out) || any;
  const items = itemsSchema(schema);
  if (items !== undefined) any = ruleNodes(items, child(path, 'items'), false, out) || any;
  const additional = additionalPropertiesSchema(schema);
  if (additional !== undefined) any = ruleNodes(additional, child(path, 'additionalProperties'), false, out) || any;
  return any;
}

function collectWithRules(schema: JSONSchemaProps, out: Set<JSONSchemaProps>): boolean {
  let any = (schema['x-kubernetes-validations'] ?? []).length > 0;
  for (const prop of Object.values(schema.properties ?? {})) any = collectWithRules(prop, out) || any;
  const items = itemsSchema(schema);
  if (items !== undefined) any = collectWithRules(items, out) || any;
  const additional = additionalPropertiesSchema(schema);
  if (additional !== undefined) any = collectWithRules(additional, out) || any;
  if (any) out.add(schema);
  return any;
}

/** Compiles one expression that must yield `wants`; the error is worded as apiextensions words it. */
function compileOne(env: Environment, expression: string, wants: 'bool' | 'string', prefix: string, typeError: string): { program?: Compiled; error?: string } {
  try {
    const program = compile(env, expression);
    if (program.outputType !== wants && program.outputType !== 'dyn') return { error: typeError };
    return { program };
  } catch (err) {
    if (err instanceof CompileError) return { error: `${prefix}${err.message}` };
    throw err;
  }
}

function compileRule(env: Environment | undefined, rule: ValidationRule, i: number): CompiledRule {
  if (env === undefined) return { rule, index: i, error: 'rule compile error: the schema of this node is not exposed to CEL' };
  const r = compileOne(env, rule.rule ?? '', 'bool', 'compilation failed: ', 'cel expression must evaluate to a bool');
  const compiled: CompiledRule = { rule, index: i, program: r.program, error: r.error };
  if (rule.messageExpression === undefined || rule.messageExpression.trim() === '') return compiled;
  const m = compileOne(env, rule.messageExpression, 'string', 'messageExpression compilation failed: ', 'messageExpression must evaluate to a string');
  return { ...compiled, message: m.program, messageError: m.error };
}

/** Compiles the rules of a version's schema (the root is the resource root). Undefined when it has none. */
export function compileSchemaRules(schema: JSONSchemaProps | undefined, path = 'openAPIV3Schema'): CompiledSchemaRules | undefined {
  if (schema === undefined) return undefined;
  const visits: Visit[] = [];
  if (!ruleNodes(schema, path, true, visits)) return undefined;
  const typesEnv = baseEnvironment().clone();
  const types = new SchemaTypes(typesEnv, toDuration);
  // Every type is registered before the first clone: cel-js freezes an environment once it is cloned.
  const typed = visits.map((v) => ({ ...v, type: types.nodeType(v.schema, v.root) }));
  const nodes = new Map<JSONSchemaProps, RuleNode>();
  for (const v of typed) {
    const selfType = v.type?.type;
    const plain = selfType === undefined ? undefined : typesEnv.clone().registerVariable('self', selfType).registerVariable('oldSelf', selfType);
    const rules = (v.schema['x-kubernetes-validations'] ?? []).map((rule, i) => {
      const optional = rule.optionalOldSelf === true && selfType !== undefined;
      const env = optional ? typesEnv.clone().registerVariable('self', selfType).registerVariable('oldSelf', `optional<${selfType}>`) : plain;
      return compileRule(env, rule, i);
    });
    nodes.set(v.schema, { schema: v.schema, schemaPath: child(v.path, 'x-kubernetes-validations'), rules, convert: v.type?.convert ?? ((x) => x) });
  }
  const withRules = new Set<JSONSchemaProps>();
  collectWithRules(schema, withRules);
  return { nodes, withRules };
}

