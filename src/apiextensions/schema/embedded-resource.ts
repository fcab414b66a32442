import type { FieldError } from '../../api/errors.js';
import { isDns1035Label, isDns1123Label, isValidPathSegmentName } from '../../validation/names.js';
import { schemaFieldError } from './field-errors.js';
import { child, index, key } from './field-path.js';
import { additionalPropertiesSchema, isJsonObject, itemsSchema, type JsonObject, type JSONSchemaProps } from '../../api/json-schema-props.js';

/**
 * TypeMeta and ObjectMeta checks for every `x-kubernetes-embedded-resource` value inside a custom resource
 * (apiextensions' objectmeta.Validate, not at the root: the root's metadata goes through the generic checks).
 */
export function validateEmbeddedResources(obj: unknown, schema: JSONSchemaProps | undefined, path = ''): FieldError[] {
  if (schema === undefined) return [];
  const errs: FieldError[] = [];
  if (Array.isArray(obj)) {
    const items = itemsSchema(schema);
    obj.forEach((v, i) => {
      errs.push(...validateEmbeddedResources(v, items, index(path, i)));
    });
    return errs;
  }
  if (!isJsonObject(obj)) return errs;
  if (schema['x-kubernetes-embedded-resource'] === true) errs.push(...validateEmbeddedResource(obj, path));
  for (const [k, v] of Object.entries(obj)) {
    const prop = schema.properties?.[k];
    if (prop !== undefined) errs.push(...validateEmbeddedResources(v, prop, child(path, k)));
    else if (schema.additionalProperties !== undefined)
      errs.push(...validateEmbeddedResources(v, additionalPropertiesSchema(schema), key(path, k)));
  }
  return errs;
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

function validateEmbeddedResource(x: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!('apiVersion' in x)) errs.push(schemaFieldError.required(child(path, 'apiVersion')));
  if (!('kind' in x)) errs.push(schemaFieldError.required(child(path, 'kind')));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') errs.push(...validateApiVersion(child(path, k), v));
    else if (k === 'kind') errs.push(...validateKind(child(path, k), v));
    else if (k === 'metadata') errs.push(...validateEmbeddedMetadata(child(path, k), v));
  }
  return errs;
}

function validateApiVersion(path: string, v: unknown): FieldError[] {
  if (typeof v !== 'string') return [schemaFieldError.invalid(path, v, 'must be a string')];
  if (v === '') return [schemaFieldError.invalid(path, v, 'must not be empty')];
  if ((v.match(/\//g) ?? []).length > 1 && v !== '/') return [schemaFieldError.invalid(path, v, `unexpected GroupVersion string: ${v}`)];
  return [];
}

function validateKind(path: string, v: unknown): FieldError[] {
  if (typeof v !== 'string') return [schemaFieldError.invalid(path, v, 'must be a string')];
  if (v === '') return [schemaFieldError.invalid(path, v, 'must not be empty')];
  const problems = isDns1035Label(v.toLowerCase());
  return problems.length > 0
    ? [schemaFieldError.invalid(path, v, `may have mixed case, but should otherwise match: ${problems.join(',')}`)]
    : [];
}

/** The name, generateName and namespace checks of ValidateObjectMeta; an unset name stands in as valid. */
function validateEmbeddedMetadata(path: string, v: unknown): FieldError[] {
  if (v === null) return [];
  if (!isJsonObject(v))
    return [schemaFieldError.invalid(path, v, `json: cannot unmarshal ${jsonKind(v)} into Go value of type v1.ObjectMeta`)];
  const errs: FieldError[] = [];
  const { name, generateName, namespace } = v;
  for (const [field, value] of [
    ['name', name],
    ['generateName', generateName],
    ['namespace', namespace],
  ] as const) {
    if (value !== undefined && value !== null && typeof value !== 'string') {
      return [
        schemaFieldError.invalid(
          path,
          v,
          `json: cannot unmarshal ${jsonKind(value)} into Go struct field ObjectMeta.${field} of type string`,
        ),
      ];
    }
  }
  if (typeof generateName === 'string' && generateName !== '') {
    // A prefix may be "." or "..": only the character rules apply to it (IsValidPathSegmentPrefix).
    for (const m of isValidPathSegmentName(generateName).filter((p) => !p.startsWith('may not be '))) {
      errs.push(schemaFieldError.invalid(child(path, 'generateName'), generateName, m));
    }
  }
  if (typeof name === 'string' && name !== '') {
    for (const m of isValidPathSegmentName(name)) errs.push(schemaFieldError.invalid(child(path, 'name'), name, m));
  }
  if (typeof namespace === 'string' && namespace !== '') {
    for (const m of isDns1123Label(namespace)) errs.push(schemaFieldError.invalid(child(path, 'namespace'), namespace, m));
  }
  return errs;
}
