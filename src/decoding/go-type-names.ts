import type { Schema } from '../openapi/schema.js';

/**
 * Go type names as they appear in decoding errors ("... of type v1.DeploymentSpec"), derived from the OpenAPI
 * definitions: a definition "io.k8s.api.apps.v1.DeploymentSpec" is the Go type v1.DeploymentSpec.
 */
export function definitionName(schema: Schema): string | undefined {
  return schema.$ref?.slice(schema.$ref.lastIndexOf('/') + 1);
}

/** "io.k8s.api.apps.v1.DeploymentSpec" → "DeploymentSpec" (the struct name Go prints before the field path). */
export function structName(definition: string): string {
  return definition.slice(definition.lastIndexOf('.') + 1);
}

/** "io.k8s.api.apps.v1.DeploymentSpec" → "v1.DeploymentSpec". */
export function qualifiedTypeName(definition: string): string {
  const parts = definition.split('.');
  return parts.slice(-2).join('.');
}

/**
 * The Go type a value of `declared` (unresolved) decodes into; `resolved` is the same schema with $refs followed.
 * Types with their own JSON decoding report the type they decode through: Time as string, IntOrString as int32.
 */
export function goTypeName(declared: Schema, resolved: Schema, itemName: (s: Schema) => string): string {
  if (resolved.format === 'date-time') return 'string';
  if (resolved['x-kubernetes-int-or-string'] === true || resolved.format === 'int-or-string') return 'int32';
  const definition = definitionName(declared);
  if (definition !== undefined) return qualifiedTypeName(definition);
  switch (resolved.type) {
    case 'string':
      return resolved.format === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return resolved.format === 'int32' || resolved.format === 'int64' ? resolved.format : 'int';
    case 'number':
      return resolved.format === 'float' ? 'float32' : 'float64';
    case 'boolean':
      return 'bool';
    case 'array':
      return `[]${resolved.items === undefined ? 'interface {}' : itemName(resolved.items)}`;
    default:
      if (typeof resolved.additionalProperties === 'object') return `map[string]${itemName(resolved.additionalProperties)}`;
      return 'map[string]interface {}';
  }
}
