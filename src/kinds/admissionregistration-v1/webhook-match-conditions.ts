import type { Environment } from '@marcbachmann/cel-js';
import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject } from '../../api/types.js';
import { baseEnvironment, CompileError, type Compiled, compile } from '../../cel/compile.js';
import { isQualifiedName } from '../../validation/names.js';

/**
 * The CEL environment of webhook matchConditions (R11.46): `object`, `oldObject`, `request` and `namespaceObject`
 * (always null for webhooks); no `params`, no `variables`, so naming them is a compile error as in Kubernetes.
 * `authorizer` is not offered yet. Shared by the configuration's validation and the admission plugins.
 */

export const MAX_MATCH_CONDITIONS = 64;

let environment: Environment | undefined;

function matchConditionEnvironment(): Environment {
  environment ??= baseEnvironment()
    .clone()
    .registerVariable('object', 'dyn')
    .registerVariable('oldObject', 'dyn')
    .registerVariable('request', 'map')
    .registerVariable('namespaceObject', 'dyn');
  return environment;
}

const compiledCache = new Map<string, Compiled | string>();
const CACHE_LIMIT = 4096;

/** The compiled expression, or the reason it does not compile (`compilation failed: …`, `must evaluate to bool …`). */
export function compileMatchCondition(expression: string): Compiled | string {
  const cached = compiledCache.get(expression);
  if (cached !== undefined) return cached;
  let result: Compiled | string;
  try {
    const compiled = compile(matchConditionEnvironment(), expression);
    result = compiled.outputType === 'bool' ? compiled : `must evaluate to bool but got ${compiled.outputType}`;
  } catch (err) {
    if (!(err instanceof CompileError)) throw err;
    result = `compilation failed: ${err.message}`;
  }
  if (compiledCache.size >= CACHE_LIMIT) compiledCache.delete(compiledCache.keys().next().value as string);
  compiledCache.set(expression, result);
  return result;
}

/** validateMatchConditions: at most 64, names qualified and unique, expressions compiling to bool (R11.21). */
export function validateMatchConditions(path: string, value: unknown): FieldError[] {
  const conditions = Array.isArray(value) ? value : [];
  const errs: FieldError[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) {
    errs.push({
      type: 'FieldValueTooMany',
      field: path,
      value: conditions.length,
      detail: `must have at most ${MAX_MATCH_CONDITIONS} items`,
      hasValue: true,
    });
  }
  const names = new Set<string>();
  conditions.forEach((raw, i) => {
    const condition = isObject(raw) ? raw : {};
    const at = `${path}[${i}]`;
    const expression = typeof condition.expression === 'string' ? condition.expression : '';
    const name = typeof condition.name === 'string' ? condition.name : '';
    if (expression.trim() === '') errs.push(fieldError.required(`${at}.expression`));
    else {
      const compiled = compileMatchCondition(expression);
      if (typeof compiled === 'string') errs.push(fieldError.invalid(`${at}.expression`, expression, compiled));
    }
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    else errs.push(...isQualifiedName(name).map((problem) => fieldError.invalid(`${at}.name`, name, problem)));
    if (name !== '') {
      if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
      names.add(name);
    }
  });
  return errs;
}
