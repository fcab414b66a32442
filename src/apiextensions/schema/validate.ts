import type { FieldError } from '../../api/errors.js';
import { validateEmbeddedResources } from './embedded-resource.js';
import { schemaFieldError } from './field-errors.js';
import { validateListSetsAndMaps } from './list-type.js';
import { validateAgainstOpenApi } from './openapi-validator.js';
import { type GroupVersionKind, isJsonObject, type JSONSchemaProps } from '../../api/json-schema-props.js';

/** The custom resource's kind and apiVersion must be the served ones; the strategy stops at these errors. */
export function validateTypeMeta(obj: unknown, gvk: GroupVersionKind): FieldError[] {
  const o = isJsonObject(obj) ? obj : {};
  const kind = typeof o.kind === 'string' ? o.kind : '';
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  const expected = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
  const errs: FieldError[] = [];
  if (kind !== gvk.kind) errs.push(schemaFieldError.invalid('kind', kind, `must be ${gvk.kind}`));
  if (apiVersion !== expected) errs.push(schemaFieldError.invalid('apiVersion', apiVersion, `must be ${expected}`));
  return errs;
}

/**
 * The schema part of custom-resource validation, in the strategy's order: OpenAPI value validation of the whole
 * object, then embedded resources' TypeMeta/ObjectMeta, then list-type set/map uniqueness. The root ObjectMeta
 * checks (which Kubernetes reports before these) and CEL rules are not part of it.
 */
export function validateCustomResourceSchema(obj: unknown, schema: JSONSchemaProps): FieldError[] {
  const errs = validateAgainstOpenApi(obj, schema);
  errs.push(...validateEmbeddedResources(obj, schema));
  if (isJsonObject(obj)) errs.push(...validateListSetsAndMaps(obj, schema));
  return errs;
}

/**
 * Validates a pruned and defaulted custom resource: TypeMeta first (alone when wrong), then the schema checks.
 * Callers insert the root ObjectMeta errors between the two to keep Kubernetes' order.
 */
export function validateInstance(obj: unknown, schema: JSONSchemaProps, gvk: GroupVersionKind): FieldError[] {
  const typeErrs = validateTypeMeta(obj, gvk);
  return typeErrs.length > 0 ? typeErrs : validateCustomResourceSchema(obj, schema);
}
