import { type FieldError, fieldError } from '../../../api/errors.js';
import { isObject } from '../../../api/types.js';
import { isQualifiedName, isValidLabelValue } from '../../../validation/names.js';
import { goNonResourceAttributes, goObjectMeta, goString } from './go-literal.js';

/** The three access-review kinds share one spec shape (the self review just has no subject). */
export type AccessReviewKind = 'SubjectAccessReview' | 'LocalSubjectAccessReview' | 'SelfSubjectAccessReview';

type Json = Readonly<Record<string, unknown>>;

const asObject = (value: unknown): Json | undefined => (isObject(value) ? value : undefined);
const asString = (value: unknown): string => (typeof value === 'string' ? value : '');
const asArray = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

/**
 * The field errors of an access review, in the order pkg/apis/authorization/validation reports them:
 * the spec (one of resource/non-resource attributes, a subject, the selectors), then metadata, then the
 * local review's namespace rules.
 */
export function validateAccessReview(kind: AccessReviewKind, spec: Json, metadata: Json): FieldError[] {
  const errors = validateSpec(kind, spec);
  if (!metadataIsEmpty(metadata, kind === 'LocalSubjectAccessReview')) {
    const detail = kind === 'LocalSubjectAccessReview' ? 'must be empty except for namespace' : 'must be empty';
    errors.push(fieldError.invalid('metadata', goObjectMeta(metadata), detail));
  }
  if (kind === 'LocalSubjectAccessReview') {
    const resource = asObject(spec.resourceAttributes);
    const namespace = asString(resource?.namespace);
    if (resource !== undefined && namespace !== asString(metadata.namespace)) {
      errors.push(fieldError.invalid('spec.resourceAttributes.namespace', goString(namespace), 'must match metadata.namespace'));
    }
    const nonResource = asObject(spec.nonResourceAttributes);
    if (nonResource !== undefined) {
      errors.push(
        fieldError.invalid('spec.nonResourceAttributes', goNonResourceAttributes(nonResource), 'disallowed on this kind of request'),
      );
    }
  }
  return errors;
}

function validateSpec(kind: AccessReviewKind, spec: Json): FieldError[] {
  const errors: FieldError[] = [];
  const resource = asObject(spec.resourceAttributes);
  const nonResource = asObject(spec.nonResourceAttributes);
  if (resource !== undefined && nonResource !== undefined) {
    errors.push(
      fieldError.invalid(
        'spec.nonResourceAttributes',
        goNonResourceAttributes(nonResource),
        'cannot be specified in combination with resourceAttributes',
      ),
    );
  }
  if (resource === undefined && nonResource === undefined) {
    // The bad value is the nil nonResourceAttributes pointer, which field errors print as the string "null".
    errors.push(
      fieldError.invalid(
        'spec.resourceAttributes',
        goString('null'),
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  }
  if (kind !== 'SelfSubjectAccessReview') {
    const user = asString(spec.user);
    if (user === '' && asArray(spec.groups).length === 0) {
      errors.push(fieldError.invalid('spec.user', goString(user), 'at least one of user or group must be specified'));
    }
  }
  if (resource !== undefined) {
    errors.push(...validateSelector(resource.fieldSelector, 'spec.resourceAttributes.fieldSelector', fieldRequirementErrors));
    errors.push(...validateSelector(resource.labelSelector, 'spec.resourceAttributes.labelSelector', labelRequirementErrors));
  }
  return errors;
}

type RequirementValidator = (requirement: Json, path: string) => FieldError[];

function validateSelector(value: unknown, path: string, requirementErrors: RequirementValidator): FieldError[] {
  const selector = asObject(value);
  if (selector === undefined) return [];
  const errors: FieldError[] = [];
  const raw = asString(selector.rawSelector);
  const requirements = asArray(selector.requirements);
  if (raw !== '' && requirements.length > 0) {
    errors.push(fieldError.invalid(`${path}.rawSelector`, goString(raw), 'may not specified at the same time as requirements'));
  }
  if (raw === '' && requirements.length === 0) {
    errors.push(fieldError.required(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`));
  }
  requirements.forEach((requirement, index) => {
    errors.push(...requirementErrors(asObject(requirement) ?? {}, `${path}.requirements[${index}]`));
  });
  return errors;
}

/** Operator/values consistency shared by field and label requirements; unknown operators are let through for newer clients. */
function operatorErrors(requirement: Json, path: string): FieldError[] {
  const values = asArray(requirement.values);
  switch (asString(requirement.operator)) {
    case 'In':
    case 'NotIn':
      return values.length === 0 ? [fieldError.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'")] : [];
    case 'Exists':
    case 'DoesNotExist':
      return values.length > 0
        ? [fieldError.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")]
        : [];
    default:
      return [];
  }
}

function fieldRequirementErrors(requirement: Json, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (asString(requirement.key) === '') errors.push(fieldError.required(`${path}.key`, 'must be specified'));
  errors.push(...operatorErrors(requirement, path));
  return errors;
}

function labelRequirementErrors(requirement: Json, path: string): FieldError[] {
  const errors = operatorErrors(requirement, path);
  const key = asString(requirement.key);
  for (const detail of isQualifiedName(key)) errors.push(fieldError.invalid(`${path}.key`, goString(key), detail));
  asArray(requirement.values).forEach((value, index) => {
    const text = asString(value);
    for (const detail of isValidLabelValue(text)) errors.push(fieldError.invalid(`${path}.values[${index}]`, goString(text), detail));
  });
  return errors;
}

/** Semantic equality with an empty ObjectMeta: nil and empty lists/maps are equal; managedFields are ignored. */
function metadataIsEmpty(metadata: Json, ignoreNamespace: boolean): boolean {
  for (const [key, value] of Object.entries(metadata)) {
    if (key === 'managedFields' || (ignoreNamespace && key === 'namespace')) continue;
    if (value === undefined || value === null || value === '' || value === 0) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (isObject(value) && Object.keys(value).length === 0) continue;
    return false;
  }
  return true;
}
