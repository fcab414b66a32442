import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject, objects } from '../../api/types.js';
import { type PolicyCompileResult, PolicyCompiler, type PolicyExpressionKind } from '../../cel/policy-compiler.js';
import { asLabelSelectorObject, validateLabelSelector } from '../../selectors/label-selector-object.js';
import { isDns1035Label, isDns1123Subdomain, isQualifiedName, isValidPathSegmentName } from '../../validation/names.js';
import { specOf } from '../../api/json-fields.js';
import { validateMatchResources } from './validating-admission-policy-rules.js';

/**
 * ValidateValidatingAdmissionPolicy and ValidateValidatingAdmissionPolicyBinding (R11.145–R11.152): expressions are
 * compiled with the policy's declarations and their failures reported on the expression's field.
 */

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const ACTIONS = ['Audit', 'Deny', 'Warn'];
const MAX_MATCH_CONDITIONS = 64;
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_VALUE_EXPRESSION_BYTES = 5 * 1024;
const CEL_RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);

function compileErrors(result: PolicyCompileResult, path: string, expression: string): FieldError[] {
  if ('compiled' in result) return [];
  return [
    result.failure.type === 'required'
      ? fieldError.required(path, result.failure.detail)
      : fieldError.invalid(path, expression, result.failure.detail),
  ];
}

function checkExpression(compiler: PolicyCompiler, expression: string, kind: PolicyExpressionKind, path: string): FieldError[] {
  return compileErrors(compiler.compile(expression, kind), path, expression);
}

function validateParamKind(pk: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = text(pk.apiVersion);
  if (apiVersion === '') errs.push(fieldError.required(`${path}.apiVersion`));
  else if ((apiVersion.match(/\//g) ?? []).length > 1)
    errs.push(fieldError.invalid(`${path}.apiVersion`, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  else if (apiVersion !== '/') {
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    if (group !== '') {
      const problems = isDns1123Subdomain(group);
      if (problems.length > 0) errs.push(fieldError.invalid(`${path}.apiVersion`, group, problems.join(',')));
    }
    if (version === '') errs.push(fieldError.invalid(`${path}.apiVersion`, apiVersion, 'version must be specified'));
    else {
      const problems = isDns1035Label(version);
      if (problems.length > 0) errs.push(fieldError.invalid(`${path}.apiVersion`, version, problems.join(',')));
    }
  }
  const kind = text(pk.kind);
  if (kind === '') errs.push(fieldError.required(`${path}.kind`));
  else {
    const problems = isDns1035Label(kind.toLowerCase());
    if (problems.length > 0)
      errs.push(fieldError.invalid(`${path}.kind`, kind, `may have mixed case, but should otherwise match: ${problems.join(',')}`));
  }
  return errs;
}

function validateMatchConditions(compiler: PolicyCompiler, conditions: Record<string, unknown>[], path: string): FieldError[] {
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
  conditions.forEach((c, i) => {
    const at = `${path}[${i}]`;
    const expression = text(c.expression).trim();
    if (expression === '') errs.push(fieldError.required(`${at}.expression`));
    else errs.push(...checkExpression(compiler, expression, 'matchCondition', `${at}.expression`));
    const name = text(c.name);
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    else for (const msg of isQualifiedName(name)) errs.push(fieldError.invalid(`${at}.name`, name, msg));
    if (name !== '') {
      if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
      names.add(name);
    }
  });
  return errs;
}

function validateVariables(compiler: PolicyCompiler, variables: Record<string, unknown>[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  variables.forEach((v, i) => {
    const at = `${path}[${i}]`;
    const name = text(v.name);
    if (name.trim() === '') errs.push(fieldError.required(`${at}.name`, 'name is not specified'));
    else if (!/^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) || CEL_RESERVED.has(name))
      errs.push(fieldError.invalid(`${at}.name`, name, 'name is not a valid CEL identifier'));
    const expression = text(v.expression);
    const compiled = compiler.variables[i];
    if (expression.trim() === '') errs.push(fieldError.required(`${at}.expression`, 'expression is not specified'));
    else if (compiled !== undefined) errs.push(...compileErrors(compiled.result, `${at}.expression`, expression));
  });
  return errs;
}

function validateValidation(compiler: PolicyCompiler, v: Record<string, unknown>, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const expression = text(v.expression);
  if (expression.trim() === '') errs.push(fieldError.required(`${at}.expression`, 'expression is not specified'));
  else errs.push(...checkExpression(compiler, expression, 'validation', `${at}.expression`));
  const messageExpression = text(v.messageExpression);
  if (messageExpression !== '' && messageExpression.trim() === '')
    errs.push(fieldError.invalid(`${at}.messageExpression`, messageExpression, 'must be non-empty if specified'));
  else if (messageExpression.trim() !== '')
    errs.push(...checkExpression(compiler, messageExpression, 'messageExpression', `${at}.messageExpression`));
  const message = text(v.message);
  if (message !== '' && message.trim() === '')
    errs.push(fieldError.invalid(`${at}.message`, message, 'message must be non-empty if specified'));
  else if (hasNewlines(message.trim())) errs.push(fieldError.invalid(`${at}.message`, message, 'message must not contain line breaks'));
  if (typeof v.reason === 'string' && !REASONS.includes(v.reason)) errs.push(fieldError.notSupported(`${at}.reason`, v.reason, REASONS));
  return errs;
}

function validateAuditAnnotation(compiler: PolicyCompiler, policyName: string, a: Record<string, unknown>, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const key = text(a.key);
  if (policyName === '') errs.push(fieldError.invalid(`${at}.key`, key, 'requires metadata.name be non-empty'));
  else for (const msg of isQualifiedName(`${policyName}/${key}`)) errs.push(fieldError.invalid(`${at}.key`, `${policyName}/${key}`, msg));
  const value = text(a.valueExpression);
  const trimmed = value.trim();
  if (trimmed === '') errs.push(fieldError.required(`${at}.valueExpression`, 'valueExpression is not specified'));
  else if (Buffer.byteLength(trimmed) > MAX_VALUE_EXPRESSION_BYTES)
    errs.push(fieldError.required(`${at}.valueExpression`, `must not exceed ${MAX_VALUE_EXPRESSION_BYTES} bytes in length`));
  else errs.push(...compileErrors(compiler.compile(trimmed, 'auditAnnotation'), `${at}.valueExpression`, value));
  return errs;
}

/** The compiler of a policy's spec: params declared when paramKind is set, the variables compiled in order. */
export function policyCompiler(spec: Record<string, unknown>): PolicyCompiler {
  const variables = objects(spec.variables).map((v) => ({ name: text(v.name), expression: text(v.expression) }));
  return new PolicyCompiler(isObject(spec.paramKind), variables);
}

/** validateValidatingAdmissionPolicySpec. */
export function validateValidatingAdmissionPolicy(policy: KubeObject): FieldError[] {
  const spec = specOf(policy);
  const errs: FieldError[] = [];
  const compiler = policyCompiler(spec);
  if (typeof spec.failurePolicy !== 'string') errs.push(fieldError.required('spec.failurePolicy'));
  else if (!FAILURE_POLICIES.includes(spec.failurePolicy))
    errs.push(fieldError.notSupported('spec.failurePolicy', spec.failurePolicy, FAILURE_POLICIES));
  if (isObject(spec.paramKind)) errs.push(...validateParamKind(spec.paramKind, 'spec.paramKind'));
  if (!isObject(spec.matchConstraints)) errs.push(fieldError.required('spec.matchConstraints'));
  else {
    errs.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints'));
    if (objects(spec.matchConstraints.resourceRules).length === 0) errs.push(fieldError.required('spec.matchConstraints.resourceRules'));
  }
  errs.push(...validateMatchConditions(compiler, objects(spec.matchConditions), 'spec.matchConditions'));
  errs.push(...validateVariables(compiler, objects(spec.variables), 'spec.variables'));
  const validations = objects(spec.validations);
  const annotations = objects(spec.auditAnnotations);
  if (validations.length === 0 && annotations.length === 0) {
    const why = 'validations or auditAnnotations must contain at least one item';
    errs.push(fieldError.required('spec.validations', why), fieldError.required('spec.auditAnnotations', why));
    return errs;
  }
  validations.forEach((v, i) => {
    errs.push(...validateValidation(compiler, v, `spec.validations[${i}]`));
  });
  if (annotations.length > MAX_AUDIT_ANNOTATIONS) {
    errs.push(
      fieldError.invalid(
        'spec.auditAnnotations',
        new GoLiteral('[]admissionregistration.AuditAnnotation{...}'),
        `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`,
      ),
    );
  }
  const keys = new Set<string>();
  annotations.forEach((a, i) => {
    errs.push(...validateAuditAnnotation(compiler, policy.metadata.name ?? '', a, `spec.auditAnnotations[${i}]`));
    const key = text(a.key);
    if (keys.has(key)) errs.push(fieldError.duplicate(`spec.auditAnnotations[${i}].key`, key));
    keys.add(key);
  });
  return errs;
}

/** validateValidatingAdmissionPolicyStatus: every expression warning names its field and says something. */
export function validateValidatingAdmissionPolicyStatus(policy: KubeObject): FieldError[] {
  const status = isObject(policy.status) ? policy.status : {};
  const typeChecking = isObject(status.typeChecking) ? status.typeChecking : {};
  const errs: FieldError[] = [];
  objects(typeChecking.expressionWarnings).forEach((w, i) => {
    const at = `status.typeChecking.expressionWarnings[${i}]`;
    if (text(w.warning) === '') errs.push(fieldError.required(`${at}.warning`));
    if (text(w.fieldRef).trim() === '') errs.push(fieldError.required(`${at}.fieldRef`));
  });
  return errs;
}

function validateParamRef(pr: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(pr.name);
  const hasSelector = isObject(pr.selector);
  if (name !== '') {
    for (const msg of isValidPathSegmentName(name)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
    if (hasSelector) errs.push(fieldError.forbidden(`${path}.name`, 'name and selector are mutually exclusive'));
  }
  if (hasSelector) {
    errs.push(...validateLabelSelector(asLabelSelectorObject(pr.selector), `${path}.selector`));
    if (name !== '') errs.push(fieldError.forbidden(`${path}.selector`, 'name and selector are mutually exclusive'));
  }
  if (name === '' && !hasSelector) errs.push(fieldError.required(path, 'one of name or selector must be specified'));
  const action = text(pr.parameterNotFoundAction);
  if (action === '') errs.push(fieldError.required(`${path}.parameterNotFoundAction`));
  else if (action !== 'Deny' && action !== 'Allow')
    errs.push(fieldError.notSupported(`${path}.parameterNotFoundAction`, action, ['Deny', 'Allow']));
  return errs;
}

function validateValidationActions(actions: unknown, path: string): FieldError[] {
  const list = Array.isArray(actions) ? actions.map((a) => text(a)) : [];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list.forEach((a, i) => {
    if (!ACTIONS.includes(a)) errs.push(fieldError.notSupported(`${path}[${i}]`, a, ACTIONS));
    if (seen.has(a)) errs.push(fieldError.duplicate(`${path}[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    const value = new GoLiteral(`[]admissionregistration.ValidationAction{${list.map((a) => JSON.stringify(a)).join(', ')}}`);
    errs.push(
      fieldError.invalid(
        path,
        value,
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  }
  if (seen.size === 0) errs.push(fieldError.required(path, 'at least one validation action is required'));
  return errs;
}

/** validateValidatingAdmissionPolicyBindingSpec; matchResources causes carry 1.32's misspelled path (quirk Q6). */
export function validateValidatingAdmissionPolicyBinding(binding: KubeObject): FieldError[] {
  const spec = specOf(binding);
  const errs: FieldError[] = [];
  const policyName = text(spec.policyName);
  if (policyName === '') errs.push(fieldError.required('spec.policyName'));
  else for (const msg of isDns1123Subdomain(policyName)) errs.push(fieldError.invalid('spec.policyName', policyName, msg));
  if (isObject(spec.paramRef)) errs.push(...validateParamRef(spec.paramRef, 'spec.paramRef'));
  if (isObject(spec.matchResources)) errs.push(...validateMatchResources(spec.matchResources, 'spec.matchResouces'));
  errs.push(...validateValidationActions(spec.validationActions, 'spec.validationActions'));
  return errs;
}
