import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject, objects } from '../../api/types.js';
import { goQuote } from '../../util/go-quote.js';
import { isDns1123Label, isDns1123Subdomain } from '../../validation/names.js';
import { isDeepStrictEqual } from 'node:util';
import { mandatoryFlowSchemaSpec } from './bootstrap-configuration.js';
import { semanticForm } from './schema-parts.js';
import { text } from '../../api/json-fields.js';

/** Rules of pkg/apis/flowcontrol/validation for FlowSchemas (Kubernetes 1.32). */

const MAX_MATCHING_PRECEDENCE = 10000;
const DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const NAMESPACE_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** ValidateFlowSchema: the spec, the fixed spec of the mandatory schemas, then the status conditions. */
export function validateFlowSchema(fs: KubeObject): FieldError[] {
  const name = fs.metadata.name ?? '';
  const spec = isObject(fs.spec) ? fs.spec : {};
  const errs = validateFlowSchemaSpec(name, spec);
  const mandatory = mandatoryFlowSchemaSpec(name);
  if (mandatory !== undefined && !isDeepStrictEqual(semanticForm(spec), semanticForm(mandatory))) {
    errs.push(fieldError.invalid('spec', spec, `spec of '${name}' must equal the fixed value`));
  }
  errs.push(...validateConditions(fs.status));
  return errs;
}

/** ValidateFlowSchemaStatusUpdate: only the conditions are checked. */
export const validateFlowSchemaStatusUpdate = (next: KubeObject): FieldError[] => validateConditions(next.status);

/** The conditions of a FlowSchema or PriorityLevelConfiguration status: typed, one of each type. */
export function validateConditions(status: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objects(isObject(status) ? status.conditions : undefined).forEach((condition, i) => {
    const type = text(condition.type);
    const path = `status.conditions[${i}]`;
    if (seen.has(type)) errs.push(fieldError.duplicate(`${path}.type`, type));
    seen.add(type);
    if (type === '') errs.push(fieldError.required(`${path}.type`, 'must not be empty'));
  });
  return errs;
}

function validateFlowSchemaSpec(name: string, spec: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const precedence = typeof spec.matchingPrecedence === 'number' ? spec.matchingPrecedence : 0;
  const precedencePath = 'spec.matchingPrecedence';
  if (precedence <= 0) errs.push(fieldError.invalid(precedencePath, precedence, 'must be a positive value'));
  if (precedence > MAX_MATCHING_PRECEDENCE) {
    errs.push(fieldError.invalid(precedencePath, precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
  }
  if (precedence === 1 && name !== 'exempt') {
    errs.push(fieldError.invalid(precedencePath, precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  }
  if (isObject(spec.distinguisherMethod)) {
    const type = text(spec.distinguisherMethod.type);
    // Go reports the whole method struct as the value, printed with %#v.
    if (!DISTINGUISHER_METHODS.includes(type)) {
      const value = new GoLiteral(`flowcontrol.FlowDistinguisherMethod{Type:${goQuote(type)}}`);
      errs.push(fieldError.notSupported('spec.distinguisherMethod.type', value, DISTINGUISHER_METHODS));
    }
  }
  const plName = isObject(spec.priorityLevelConfiguration) ? text(spec.priorityLevelConfiguration.name) : '';
  const plPath = 'spec.priorityLevelConfiguration.name';
  if (plName === '') errs.push(fieldError.required(plPath, 'must reference a priority level'));
  else errs.push(...isDns1123Subdomain(plName).map((msg) => fieldError.invalid(plPath, plName, msg)));
  for (const [i, rule] of objects(spec.rules).entries()) errs.push(...validateRule(rule, `spec.rules[${i}]`));
  return errs;
}

function validateRule(rule: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = objects(rule.subjects);
  if (subjects.length === 0) errs.push(fieldError.required(`${path}.subjects`, 'subjects must contain at least one value'));
  for (const [i, subject] of subjects.entries()) errs.push(...validateSubject(subject, `${path}.subjects[${i}]`));
  const resourceRules = objects(rule.resourceRules);
  const nonResourceRules = objects(rule.nonResourceRules);
  if (resourceRules.length === 0 && nonResourceRules.length === 0) {
    errs.push(fieldError.required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  }
  for (const [i, r] of resourceRules.entries()) errs.push(...validateResourceRule(r, `${path}.resourceRules[${i}]`));
  for (const [i, r] of nonResourceRules.entries()) errs.push(...validateNonResourceRule(r, `${path}.nonResourceRules[${i}]`));
  return errs;
}

const FORBIDDEN_MEMBER: Record<string, string> = {
  user: "user is forbidden when subject kind is not 'User'",
  group: "group is forbidden when subject kind is not 'Group'",
  serviceAccount: "serviceAccount is forbidden when subject kind is not 'ServiceAccount'",
};

/** ValidateFlowSchemaSubject: the member the kind names must be there, the other two must not. */
function validateSubject(subject: Record<string, unknown>, path: string): FieldError[] {
  const kind = text(subject.kind);
  const member = { User: 'user', Group: 'group', ServiceAccount: 'serviceAccount' }[kind];
  if (member === undefined) return [fieldError.notSupported(`${path}.kind`, kind, SUBJECT_KINDS)];
  const errs: FieldError[] = [];
  const value = subject[member];
  if (!isObject(value)) errs.push(fieldError.required(`${path}.${member}`, `${member} is required when subject kind is '${kind}'`));
  else if (member === 'serviceAccount') errs.push(...validateServiceAccountSubject(value, `${path}.serviceAccount`));
  else if (text(value.name) === '') errs.push(fieldError.required(`${path}.${member}.name`));
  // Go checks the other two members in the order serviceAccount/user/group leaves once the kind's own is removed.
  const order =
    member === 'serviceAccount' ? ['user', 'group'] : member === 'user' ? ['serviceAccount', 'group'] : ['serviceAccount', 'user'];
  for (const other of order) {
    if (isObject(subject[other])) errs.push(fieldError.forbidden(`${path}.${other}`, FORBIDDEN_MEMBER[other] as string));
  }
  return errs;
}

function validateServiceAccountSubject(sa: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(sa.name);
  if (name === '') errs.push(fieldError.required(`${path}.name`));
  else if (name !== '*') errs.push(...isDns1123Subdomain(name).map((msg) => fieldError.invalid(`${path}.name`, name, msg)));
  const namespace = text(sa.namespace);
  if (namespace === '') errs.push(fieldError.required(`${path}.namespace`, 'must specify namespace for service account'));
  else errs.push(...isDns1123Label(namespace).map((msg) => fieldError.invalid(`${path}.namespace`, namespace, msg)));
  return errs;
}

function validateVerbs(verbs: string[], path: string): FieldError[] {
  if (verbs.length === 0) return [fieldError.required(path, 'verbs must contain at least one value')];
  if (verbs.includes('*'))
    return verbs.length > 1 ? [fieldError.invalid(path, verbs, "if '*' is present, must not specify other verbs")] : [];
  return verbs.every((v) => VERBS.includes(v)) ? [] : [fieldError.notSupported(path, verbs, VERBS)];
}

function validateResourceRule(rule: Record<string, unknown>, path: string): FieldError[] {
  const errs = validateVerbs(strings(rule.verbs), `${path}.verbs`);
  const apiGroups = strings(rule.apiGroups);
  if (apiGroups.length === 0) errs.push(fieldError.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  else if (apiGroups.length > 1 && apiGroups.includes('*')) {
    errs.push(fieldError.invalid(`${path}.apiGroups`, apiGroups, "if '*' is present, must not specify other api groups"));
  }
  const resources = strings(rule.resources);
  if (resources.length === 0) errs.push(fieldError.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  else if (resources.length > 1 && resources.includes('*')) {
    errs.push(fieldError.invalid(`${path}.resources`, resources, "if '*' is present, must not specify other resources"));
  }
  const namespaces = strings(rule.namespaces);
  if (namespaces.length === 0 && rule.clusterScope !== true) {
    errs.push(fieldError.required(`${path}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
  } else if (namespaces.includes('*')) {
    if (namespaces.length > 1) {
      errs.push(fieldError.invalid(`${path}.namespaces`, namespaces, "if '*' is present, must not specify other namespaces"));
    }
  } else {
    namespaces.forEach((ns, i) => {
      for (const msg of isDns1123Label(ns)) errs.push(fieldError.invalid(`${path}.namespaces[${i}]`, ns, NAMESPACE_INTRO + msg));
    });
  }
  return errs;
}

function validateNonResourceRule(rule: Record<string, unknown>, path: string): FieldError[] {
  const errs = validateVerbs(strings(rule.verbs), `${path}.verbs`);
  const urls = strings(rule.nonResourceURLs);
  const urlsPath = `${path}.nonResourceURLs`;
  if (urls.length === 0) errs.push(fieldError.required(urlsPath, 'nonResourceURLs must contain at least one value'));
  else if (urls.includes('*')) {
    if (urls.length > 1) errs.push(fieldError.invalid(urlsPath, urls, "if '*' is present, must not specify other non-resource URLs"));
  } else {
    urls.forEach((url, i) => {
      const why = nonResourceUrlProblem(url);
      if (why !== undefined) errs.push(fieldError.invalid(`${urlsPath}[${i}]`, url, why));
    });
  }
  return errs;
}

/** ValidateNonResourceURLPath: rooted, no blanks or `//`, and `*` only as a final `/*`. */
function nonResourceUrlProblem(url: string): string | undefined {
  if (url === '') return 'must not be empty';
  if (url === '/') return undefined;
  if (!url.startsWith('/')) return 'must start with slash';
  if (url.includes(' ')) return 'must not contain white-space';
  if (url.includes('//')) return 'must not contain double slash';
  const stars = url.split('*').length - 1;
  if (stars > 1 || (stars === 1 && !url.endsWith('/*'))) return 'wildcard can only do suffix matching';
  return undefined;
}
