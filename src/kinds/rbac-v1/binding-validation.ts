import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { isDns1123Subdomain, isValidPathSegmentName } from '../../validation/names.js';
import { text } from '../../api/json-fields.js';

/**
 * RoleBinding and ClusterRoleBinding validation as pkg/apis/rbac/validation does it: the role reference, the
 * subjects, and a roleRef that never changes (a binding to another role is a new binding).
 */

type Obj = Record<string, unknown>;

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const items = (value: unknown): Obj[] => (Array.isArray(value) ? value.map((v) => (isObject(v) ? v : {})) : []);
const roleRefOf = (binding: KubeObject): Obj => (isObject(binding.roleRef) ? binding.roleRef : {});

/** validateRoleBindingSubject. */
function validateSubject(subject: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(subject.name);
  const apiGroup = text(subject.apiGroup);
  if (name === '') errs.push(fieldError.required(`${path}.name`));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name !== '') for (const msg of isDns1123Subdomain(name)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
      if (apiGroup !== '') errs.push(fieldError.notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && text(subject.namespace) === '') errs.push(fieldError.required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (name === '')
        errs.push(fieldError.invalid(`${path}.name`, name, `${subject.kind === 'User' ? 'user' : 'group'} name cannot be empty`));
      if (apiGroup !== RBAC_GROUP) errs.push(fieldError.notSupported(`${path}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(fieldError.notSupported(`${path}.kind`, text(subject.kind), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(binding: KubeObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = roleRefOf(binding);
  const apiGroup = text(ref.apiGroup);
  if (apiGroup !== RBAC_GROUP) errs.push(fieldError.notSupported('roleRef.apiGroup', apiGroup, [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(text(ref.kind))) errs.push(fieldError.notSupported('roleRef.kind', text(ref.kind), kinds));
  const name = text(ref.name);
  if (name === '') errs.push(fieldError.required('roleRef.name'));
  else for (const msg of isValidPathSegmentName(name)) errs.push(fieldError.invalid('roleRef.name', name, msg));
  items(binding.subjects).forEach((subject, i) => {
    errs.push(...validateSubject(subject, namespaced, `subjects[${i}]`));
  });
  return errs;
}

function validateBindingUpdate(next: KubeObject, old: KubeObject, namespaced: boolean): FieldError[] {
  const errs = validateBinding(next, namespaced);
  const ref = roleRefOf(next);
  const oldRef = roleRefOf(old);
  const fields = ['apiGroup', 'kind', 'name'];
  if (fields.some((f) => text(ref[f]) !== text(oldRef[f]))) {
    const literal = new GoLiteral(
      `rbac.RoleRef{APIGroup:${JSON.stringify(text(ref.apiGroup))}, Kind:${JSON.stringify(text(ref.kind))}, Name:${JSON.stringify(text(ref.name))}}`,
    );
    errs.push(fieldError.invalid('roleRef', literal, 'cannot change roleRef'));
  }
  return errs;
}

export const validateRoleBinding = (binding: KubeObject): FieldError[] => validateBinding(binding, true);
export const validateRoleBindingUpdate = (next: KubeObject, old: KubeObject): FieldError[] => validateBindingUpdate(next, old, true);
export const validateClusterRoleBinding = (binding: KubeObject): FieldError[] => validateBinding(binding, false);
export const validateClusterRoleBindingUpdate = (next: KubeObject, old: KubeObject): FieldError[] =>
  validateBindingUpdate(next, old, false);
