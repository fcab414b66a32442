import type { FieldError } from '../../api/errors.js';
import { validateSchemaRules } from './crd-schema-rules.js';
import { validateDefaults } from './default-validation.js';
import { schemaFieldError } from './field-errors.js';
import { child } from './field-path.js';
import { unsupportedKeyword, validateStructural } from './structural-invariants.js';
import type { JSONSchemaProps } from '../../api/json-schema-props.js';

export { validateDefaults } from './default-validation.js';

export interface StructuralSchemaOptions {
  /** The version serves a status subresource, which restricts the root keywords. */
  readonly statusSubresource?: boolean;
}

/** JSONSchemaProps fields in the Go struct's order, which decides the first one reported at a status-enabled root. */
const ROOT_FIELD_ORDER: readonly (readonly [keyof JSONSchemaProps, string])[] = [
  ['id', 'ID'],
  ['$schema', 'Schema'],
  ['$ref', 'Ref'],
  ['description', 'Description'],
  ['type', 'Type'],
  ['nullable', 'Nullable'],
  ['format', 'Format'],
  ['title', 'Title'],
  ['default', 'Default'],
  ['maximum', 'Maximum'],
  ['exclusiveMaximum', 'ExclusiveMaximum'],
  ['minimum', 'Minimum'],
  ['exclusiveMinimum', 'ExclusiveMinimum'],
  ['maxLength', 'MaxLength'],
  ['minLength', 'MinLength'],
  ['pattern', 'Pattern'],
  ['maxItems', 'MaxItems'],
  ['minItems', 'MinItems'],
  ['uniqueItems', 'UniqueItems'],
  ['multipleOf', 'MultipleOf'],
  ['enum', 'Enum'],
  ['maxProperties', 'MaxProperties'],
  ['minProperties', 'MinProperties'],
  ['required', 'Required'],
  ['items', 'Items'],
  ['allOf', 'AllOf'],
  ['oneOf', 'OneOf'],
  ['anyOf', 'AnyOf'],
  ['not', 'Not'],
  ['properties', 'Properties'],
  ['additionalProperties', 'AdditionalProperties'],
  ['patternProperties', 'PatternProperties'],
  ['dependencies', 'Dependencies'],
  ['additionalItems', 'AdditionalItems'],
  ['definitions', 'Definitions'],
  ['externalDocs', 'ExternalDocs'],
  ['example', 'Example'],
  ['x-kubernetes-preserve-unknown-fields', 'XPreserveUnknownFields'],
  ['x-kubernetes-embedded-resource', 'XEmbeddedResource'],
  ['x-kubernetes-int-or-string', 'XIntOrString'],
  ['x-kubernetes-list-map-keys', 'XListMapKeys'],
  ['x-kubernetes-list-type', 'XListType'],
  ['x-kubernetes-map-type', 'XMapType'],
  ['x-kubernetes-validations', 'XValidations'],
];

const ALLOWED_AT_STATUS_ROOT = [
  'Description',
  'Type',
  'Format',
  'Title',
  'Maximum',
  'ExclusiveMaximum',
  'Minimum',
  'ExclusiveMinimum',
  'MaxLength',
  'MinLength',
  'Pattern',
  'MaxItems',
  'MinItems',
  'UniqueItems',
  'MultipleOf',
  'Required',
  'Items',
  'Properties',
  'ExternalDocs',
  'Example',
  'XPreserveUnknownFields',
  'XValidations',
];

/** With a status subresource the root may only carry keywords that survive extracting properties[status]. */
function statusRootError(schema: JSONSchemaProps, path: string): FieldError | undefined {
  for (const [field, goName] of ROOT_FIELD_ORDER) {
    const v = schema[field];
    if (v === undefined || v === false || v === '' || v === null) continue;
    if (goName === 'Type') {
      if (v !== 'object') {
        return schemaFieldError.invalid(
          child(path, 'type'),
          v,
          'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
        );
      }
      continue;
    }
    if (!ALLOWED_AT_STATUS_ROOT.includes(goName)) {
      return schemaFieldError.invalid(
        path,
        schema,
        `only [${ALLOWED_AT_STATUS_ROOT.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`,
      );
    }
  }
  return undefined;
}

/**
 * Validates a version's `openAPIV3Schema` as creating a v1 CustomResourceDefinition does: status-root keywords,
 * a nullable root, the structural-schema rules (then, if they hold, the defaults), and the keyword rules of every
 * node. `path` is the schema's path, e.g. `spec.versions[0].schema.openAPIV3Schema`; errors are apimachinery field
 * errors for a 422 Invalid status.
 */
export function validateStructuralSchema(schema: JSONSchemaProps, path: string, options: StructuralSchemaOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  if (options.statusSubresource === true) {
    const e = statusRootError(schema, path);
    if (e !== undefined) errs.push(e);
  }
  if (schema.nullable === true) errs.push(schemaFieldError.forbidden(child(path, 'nullable'), 'nullable cannot be true at the root'));
  const unsupported = unsupportedKeyword(schema);
  if (unsupported === undefined) {
    const structuralErrs = validateStructural(schema, path);
    errs.push(...(structuralErrs.length > 0 ? structuralErrs : validateDefaults(schema, path)));
  }
  errs.push(...validateSchemaRules(schema, path));
  // The structural conversion names the same keywords the rules do, so its error only shows when nothing else does.
  if (errs.length === 0 && unsupported !== undefined) errs.push(schemaFieldError.invalid(path, '', unsupported));
  return errs;
}
