/**
 * The apiextensions.k8s.io/v1 JSONSchemaProps wire shape, as a CRD's `openAPIV3Schema` holds it. Values are plain
 * decoded JSON, so every keyword is optional and the functions of this folder check what they read.
 */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

export interface ValidationRule {
  rule?: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The single-schema form of `items`; the array form is not structural and yields undefined here. */
export function itemsSchema(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  const items = s?.items;
  return items === undefined || Array.isArray(items) ? undefined : items;
}

/** The schema of `additionalProperties` when it is one (a boolean carries no schema). */
export function additionalPropertiesSchema(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  const ap = s?.additionalProperties;
  return typeof ap === 'object' ? ap : undefined;
}

/** Go decodes `default: null` to a nil JSON value, which every check treats as "no default". */
export function hasDefault(s: JSONSchemaProps | undefined): boolean {
  return s !== undefined && s.default !== undefined && s.default !== null;
}
