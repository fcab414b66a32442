import type { FieldNumberTable } from './types.js';

export const APIEXTENSIONS_V1_FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition': {
    tags: { name: 1, type: 2, format: 3, description: 4, priority: 5, jsonPath: 6 },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceConversion': {
    tags: { strategy: 1, webhook: 2 },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition': {
    tags: { metadata: 1, spec: 2, status: 3 },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition': {
    tags: { type: 1, status: 2, lastTransitionTime: 3, reason: 4, message: 5 },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionList': {
    tags: { metadata: 1, items: 2 },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames': {
    tags: { plural: 1, singular: 2, shortNames: 3, kind: 4, listKind: 5, categories: 6 },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec': {
    tags: { group: 1, names: 3, scope: 4, versions: 7, conversion: 9, preserveUnknownFields: 10 },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus': {
    tags: { conditions: 1, acceptedNames: 2, storedVersions: 3 },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion': {
    tags: { name: 1, served: 2, storage: 3, schema: 4, subresources: 5, additionalPrinterColumns: 6, deprecated: 7, deprecationWarning: 8, selectableFields: 9 },
    pointers: ['deprecationWarning'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceScale': {
    tags: { specReplicasPath: 1, statusReplicasPath: 2, labelSelectorPath: 3 },
    pointers: ['labelSelectorPath'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceStatus': { tags: {  } },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresources': {
    tags: { status: 1, scale: 2 },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceValidation': { tags: { openAPIV3Schema: 1 } },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ExternalDocumentation': {
    tags: { description: 1, url: 2 },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps': {
    tags: { id: 1, $schema: 2, $ref: 3, description: 4, type: 5, format: 6, title: 7, default: 8, maximum: 9, exclusiveMaximum: 10, minimum: 11, exclusiveMinimum: 12, maxLength: 13, minLength: 14, pattern: 15, maxItems: 16, minItems: 17, uniqueItems: 18, multipleOf: 19, enum: 20, maxProperties: 21, minProperties: 22, required: 23, items: 24, allOf: 25, oneOf: 26, anyOf: 27, not: 28, properties: 29, additionalProperties: 30, patternProperties: 31, dependencies: 32, additionalItems: 33, definitions: 34, externalDocs: 35, example: 36, nullable: 37, 'x-kubernetes-preserve-unknown-fields': 38, 'x-kubernetes-embedded-resource': 39, 'x-kubernetes-int-or-string': 40, 'x-kubernetes-list-map-keys': 41, 'x-kubernetes-list-type': 42, 'x-kubernetes-map-type': 43, 'x-kubernetes-validations': 44 },
    pointers: ['$ref', 'maximum', 'minimum', 'maxLength', 'minLength', 'maxItems', 'minItems', 'multipleOf', 'maxProperties', 'minProperties', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-list-type', 'x-kubernetes-map-type'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.SelectableField': { tags: { jsonPath: 1 } },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference': {
    tags: { namespace: 1, name: 2, path: 3, port: 4 },
    pointers: ['path', 'port'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule': {
    tags: { rule: 1, message: 2, messageExpression: 3, reason: 4, fieldPath: 5, optionalOldSelf: 6 },
    pointers: ['reason', 'optionalOldSelf'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookClientConfig': {
    tags: { service: 1, caBundle: 2, url: 3 },
    pointers: ['url', 'caBundle'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookConversion': {
    tags: { clientConfig: 2, conversionReviewVersions: 3 },
  },
};
