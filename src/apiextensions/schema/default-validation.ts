import type { FieldError } from '../../api/errors.js';
import { validateEmbeddedResources } from './embedded-resource.js';
import { schemaFieldError } from './field-errors.js';
import { child, key } from './field-path.js';
import { validateAgainstOpenApi } from './openapi-validator.js';
import { prune } from './prune.js';
import { hasDefault, itemsSchema, type JSONSchemaProps } from '../../api/json-schema-props.js';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Every `default` of a structural schema must be a valid value of its own schema and carry no field that pruning
 * would drop (ValidateDefaults with pruned defaults required, as for v1 CRDs). Defaults are not followed into
 * additionalProperties. `path` is the schema's own path (`spec.versions[0].schema.openAPIV3Schema`).
 */
export function validateDefaults(schema: JSONSchemaProps, path: string): FieldError[] {
  const root = schema['x-kubernetes-embedded-resource'] === true ? schema : { ...schema, 'x-kubernetes-embedded-resource': true };
  return validateAt(root, path, false);
}

function validateAt(s: JSONSchemaProps, path: string, insideMeta: boolean): FieldError[] {
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const inMeta = embedded ? false : insideMeta;
  const errs: FieldError[] = [];
  if (hasDefault(s)) errs.push(...validateDefault(s, child(path, 'default'), inMeta));
  const items = itemsSchema(s);
  if (items !== undefined) errs.push(...validateAt(items, child(path, 'items'), inMeta));
  for (const [k, prop] of Object.entries(s.properties ?? {})) {
    errs.push(...validateAt(prop, key(child(path, 'properties'), k), inMeta || (embedded && META_FIELDS.has(k))));
  }
  return errs;
}

function validateDefault(s: JSONSchemaProps, defaultPath: string, insideMeta: boolean): FieldError[] {
  const value = s.default;
  const errs: FieldError[] = [];
  if (!insideMeta) {
    const pruned = structuredClone(value);
    prune(pruned, s, s['x-kubernetes-embedded-resource'] === true);
    if (JSON.stringify(pruned) !== JSON.stringify(value))
      errs.push(schemaFieldError.invalid(defaultPath, value, 'must not have unknown fields'));
    const metaErrs = validateEmbeddedResources(value, s, defaultPath);
    if (metaErrs.length > 0) return [...errs, ...metaErrs];
  }
  return [...errs, ...validateAgainstOpenApi(value, s, defaultPath)];
}
