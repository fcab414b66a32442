import type { Environment } from '@marcbachmann/cel-js';
import { registerAuthorizerLibrary } from './authorizer-library.js';
import { baseEnvironment, type Compiled, CompileError, compile } from './compile.js';

/**
 * Compilation of admission policy expressions (R11.147–R11.150, R11.164): the variables each kind of expression
 * sees, the output type it must have, and cel-go's wording of the failures. `object`, `oldObject`, `params` and
 * `namespaceObject` are dyn, so unknown fields of the matched kinds are not compile errors here (R11.174);
 * `request` and `authorizer` are typed; `variables` is an object whose fields are the earlier variables with their output types.
 */

/** `typeCheck`: the status controller's check of any expression, with no output type required (R11.174). */
export type PolicyExpressionKind = 'validation' | 'messageExpression' | 'matchCondition' | 'variable' | 'auditAnnotation' | 'typeCheck';

export interface PolicyCompileFailure {
  /** `required` for blank expressions, `invalid` for compile and type errors (field.Required / field.Invalid). */
  readonly type: 'required' | 'invalid';
  readonly detail: string;
}

export type PolicyCompileResult = { readonly compiled: Compiled } | { readonly failure: PolicyCompileFailure };

export interface PolicyVariable {
  readonly name: string;
  readonly expression: string;
}

const RESOLVE = Symbol('resolve');

/**
 * What every (policy, binding, param) evaluation binds `variables` to. Each policy has its own subclass whose
 * prototype holds one getter per variable, made once when it compiles: an evaluation only supplies the function
 * that evaluates (and remembers) variable i, instead of defining properties per request.
 */
export class PolicyVariables {
  readonly [RESOLVE]: (index: number) => unknown;
  constructor(resolve: (index: number) => unknown) {
    this[RESOLVE] = resolve;
  }
}

export type PolicyVariablesClass = new (resolve: (index: number) => unknown) => PolicyVariables;

function variablesClass(names: readonly string[]): PolicyVariablesClass {
  const cls = class extends PolicyVariables {};
  names.forEach((name, index) => {
    Object.defineProperty(cls.prototype, name, {
      get(this: PolicyVariables) {
        return this[RESOLVE](index);
      },
    });
  });
  return cls;
}

const REQUEST_TYPE = 'kubernetes.AdmissionRequest';

/** The `request` value's runtime class: cel-js reads a typed object's declared fields through its constructor. */
export class AdmissionRequestValue {}

const REQUEST_FIELDS: Readonly<Record<string, string>> = {
  kind: 'map<string, string>',
  resource: 'map<string, string>',
  subResource: 'string',
  requestKind: 'map<string, string>',
  requestResource: 'map<string, string>',
  requestSubResource: 'string',
  name: 'string',
  namespace: 'string',
  operation: 'string',
  userInfo: 'map<string, dyn>',
  dryRun: 'bool',
  options: 'dyn',
};

/** cel-go's spelling of a type: `list(int)`, `map(string, dyn)`. */
function celGoType(type: string): string {
  return type.replaceAll('<', '(').replaceAll('>', ')');
}

const RETURN_TYPES: Readonly<Record<PolicyExpressionKind, readonly string[] | undefined>> = {
  validation: ['bool'],
  matchCondition: ['bool'],
  messageExpression: ['string'],
  auditAnnotation: ['string', 'null'],
  variable: undefined,
  typeCheck: undefined,
};

/**
 * The schema types the status controller checks against: an environment holding the matched kind's (and the
 * param kind's) object types, not yet cloned, and the type names of `object`/`oldObject` and `params`.
 */
export interface PolicyTypes {
  readonly env: Environment;
  readonly object: string;
  readonly params?: string;
}

const GO_TYPE_NAMES: Readonly<Record<string, string>> = { null: 'null_type' };

/** The compiled variables of one policy and the environments its other expressions compile in. */
export class PolicyCompiler {
  private readonly hasParams: boolean;
  private readonly variableTypes: Record<string, string> = {};
  private readonly envs = new Map<string, Environment>();
  readonly variables: { readonly name: string; readonly result: PolicyCompileResult }[] = [];
  /** The class of this policy's `variables` values (cel-js finds a typed value's type by its exact constructor). */
  readonly variablesClass: PolicyVariablesClass;

  private readonly types: PolicyTypes | undefined;

  constructor(hasParams: boolean, variables: readonly PolicyVariable[] = [], types?: PolicyTypes) {
    this.hasParams = hasParams;
    this.types = types;
    this.variablesClass = variablesClass(variables.map((v) => v.name));
    // A variable sees only the variables declared before it (R11.148); a failed one is dyn to the later ones.
    for (const v of variables) {
      const result = this.compile(v.expression, 'variable');
      this.variables.push({ name: v.name, result });
      this.variableTypes[v.name] = 'compiled' in result ? result.compiled.outputType : 'dyn';
      this.envs.clear();
    }
    this.withVariables = variables.length > 0;
  }

  private withVariables = false;

  private environment(kind: PolicyExpressionKind): Environment {
    const variables = kind !== 'matchCondition' && (this.withVariables || kind === 'variable');
    // messageExpression is the one kind of expression without the authorizer (R11.164).
    const authorizer = kind !== 'messageExpression';
    const key = `${variables}/${authorizer}`;
    let env = this.envs.get(key);
    if (env === undefined) {
      env = (this.types?.env ?? baseEnvironment()).clone();
      env.registerType(REQUEST_TYPE, { ctor: AdmissionRequestValue, fields: { ...REQUEST_FIELDS } });
      if (authorizer) {
        registerAuthorizerLibrary(env);
        env.registerVariable('authorizer', 'Authorizer');
      }
      const objectType = this.types?.object ?? 'dyn';
      env.registerVariable('object', objectType).registerVariable('oldObject', objectType).registerVariable('request', REQUEST_TYPE);
      env.registerVariable('namespaceObject', 'dyn');
      if (this.hasParams) env.registerVariable('params', this.types?.params ?? 'dyn');
      if (variables) {
        env.registerType('kubernetes.Variables', { ctor: this.variablesClass, fields: { ...this.variableTypes } });
        env.registerVariable('variables', 'kubernetes.Variables');
      }
      this.envs.set(key, env);
    }
    return env;
  }

  /** cel-go's issues for an expression (`ERROR: <input>:…` with source and caret), undefined when it checks. */
  typeCheck(expression: string): string | undefined {
    try {
      compile(this.environment('typeCheck'), expression);
      return undefined;
    } catch (err) {
      if (!(err instanceof CompileError)) throw err;
      return err.message;
    }
  }

  /** Compiles one expression of the given kind; the failure is worded as kube-apiserver's validation words it. */
  compile(expression: string, kind: PolicyExpressionKind): PolicyCompileResult {
    let compiled: Compiled;
    try {
      compiled = compile(this.environment(kind), expression);
    } catch (err) {
      if (!(err instanceof CompileError)) throw err;
      return { failure: { type: 'invalid', detail: `compilation failed: ${err.message}` } };
    }
    const expected = RETURN_TYPES[kind];
    const got = celGoType(compiled.outputType);
    if (expected !== undefined && !expected.includes(compiled.outputType)) {
      const names = expected.map((t) => GO_TYPE_NAMES[t] ?? t);
      const detail =
        names.length === 1 ? `must evaluate to ${names[0]} but got ${got}` : `must evaluate to one of [${names.join(' ')}] but got ${got}`;
      return { failure: { type: 'invalid', detail } };
    }
    return { compiled };
  }
}
