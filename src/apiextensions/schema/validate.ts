import type { FieldError } from '../../api/errors.js';
import { validateEmbeddedResources } from './embedded-resource.js';
import { schemaFieldError } from './field-errors.js';
import { child, index, key } from './field-path.js';
import { validateListSetsAndMaps } from './list-type.js';
import { validateAgainstOpenApi } from './openapi-validator.js';
import { additionalPropertiesSchema, type GroupVersionKind, isJsonObject, itemsSchema, type JSONSchemaProps } from '../../api/json-schema-props.js';

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

/**
 * Every `x-kubernetes-validations` rule of the schema, by schema path (`openAPIV3Schema.properties[spec]
 * .x-kubernetes-validations[0]`): these CEL rules are accepted but not evaluated, so the caller warns about them.
 */
export function unsupportedCelRules(schema: JSONSchemaProps | undefined, path = 'openAPIV3Schema'): string[] {
  if (schema === undefined) return [];
  const out = (schema['x-kubernetes-validations'] ?? []).map((_r, i) => index(child(path, 'x-kubernetes-validations'), i));
  for (const [k, prop] of Object.entries(schema.properties ?? {}))
    out.push(...unsupportedCelRules(prop, key(child(path, 'properties'), k)));
  out.push(...unsupportedCelRules(itemsSchema(schema), child(path, 'items')));
  out.push(...unsupportedCelRules(additionalPropertiesSchema(schema), child(path, 'additionalProperties')));
  for (const [i, sub] of (schema.allOf ?? []).entries()) out.push(...unsupportedCelRules(sub, index(child(path, 'allOf'), i)));
  return out;
}
