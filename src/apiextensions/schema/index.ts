export { applyDefaults } from './defaults.js';
export { validateDefaults } from './default-validation.js';
export { schemaFieldError } from './field-errors.js';
export { type PruneResult, prune, pruneNonNullableNulls } from './prune.js';
export { type StructuralSchemaOptions, validateStructuralSchema } from './structural.js';
export type { GroupVersionKind, JSONSchemaProps, ValidationRule } from '../../api/json-schema-props.js';
export { validateCustomResourceSchema, validateInstance, validateTypeMeta } from './validate.js';
