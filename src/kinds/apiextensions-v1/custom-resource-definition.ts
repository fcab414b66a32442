import {
  arrayOf,
  bool,
  conditionDefinition,
  int32,
  int64,
  kindDefinition,
  listDefinition,
  ref,
  str,
  stringArray,
} from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions, type Schema } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';

const P = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';
const ATOMIC = { 'x-kubernetes-list-type': 'atomic' } as const;

const SCHEMA_PROPS = definitionRef(`${P}JSONSchemaProps`);
const schemaList = (description: string): Schema => arrayOf(SCHEMA_PROPS, description, ATOMIC);
const schemaMap = (description: string): Schema => ({ type: 'object', additionalProperties: SCHEMA_PROPS, description });
const double = (description: string): Schema => ({ type: 'number', format: 'double', description });

/**
 * Values that are either a schema or another JSON shape (bool, array) are Go types with custom JSON
 * marshalling; Kubernetes publishes them without a type, so any JSON value is accepted.
 */
const anyJson = (description: string): Schema => ({ description, 'x-kubernetes-preserve-unknown-fields': true });

const DEFINITIONS: Definitions = {
  [`${P}CustomResourceDefinition`]: kindDefinition({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    description: 'CustomResourceDefinition adds a resource to the API server; its name is "<plural>.<group>".',
    properties: {
      spec: ref(`${P}CustomResourceDefinitionSpec`, 'How the custom resource should be served.'),
      status: ref(`${P}CustomResourceDefinitionStatus`, 'Observed state of the definition.'),
    },
    required: ['spec'],
  }),
  [`${P}CustomResourceDefinitionList`]: listDefinition(
    'apiextensions.k8s.io',
    'v1',
    'CustomResourceDefinition',
    `${P}CustomResourceDefinition`,
  ),
  [`${P}CustomResourceDefinitionSpec`]: {
    type: 'object',
    description: 'How a custom resource should be served.',
    properties: {
      conversion: ref(`${P}CustomResourceConversion`, 'How objects are converted between versions.'),
      group: str('API group of the resource; must match the suffix of the definition name.'),
      names: ref(`${P}CustomResourceDefinitionNames`, 'Resource and kind names of the resource.'),
      preserveUnknownFields: bool('Deprecated: keep fields not described by the schema; use x-kubernetes-preserve-unknown-fields instead.'),
      scope: str('Cluster or Namespaced.'),
      versions: arrayOf(definitionRef(`${P}CustomResourceDefinitionVersion`), 'All versions of the resource.', ATOMIC),
    },
    required: ['group', 'names', 'scope', 'versions'],
  },
  [`${P}CustomResourceDefinitionNames`]: {
    type: 'object',
    description: 'Names under which a custom resource is served.',
    properties: {
      categories: stringArray('Groups of resources this one belongs to, such as "all".', ATOMIC),
      kind: str('Kind of the objects, normally CamelCase and singular.'),
      listKind: str('Kind of the list. Defaults to "<kind>List".'),
      plural: str('Lower-case plural used in URLs; must match the prefix of the definition name.'),
      shortNames: stringArray('Lower-case short names for the resource.', ATOMIC),
      singular: str('Lower-case singular name. Defaults to the lower-cased kind.'),
    },
    required: ['plural', 'kind'],
  },
  [`${P}CustomResourceDefinitionVersion`]: {
    type: 'object',
    description: 'One version of a custom resource.',
    properties: {
      additionalPrinterColumns: arrayOf(
        definitionRef(`${P}CustomResourceColumnDefinition`),
        'Extra columns of the Table output; only an age column when empty.',
        ATOMIC,
      ),
      deprecated: bool('Whether requests to this version get a deprecation warning. Defaults to false.'),
      deprecationWarning: str('Replaces the default deprecation warning; only when deprecated is true.'),
      name: str('Version name, served at /apis/<group>/<name>.'),
      schema: ref(`${P}CustomResourceValidation`, 'Schema used to validate, prune and default this version.'),
      selectableFields: arrayOf(definitionRef(`${P}SelectableField`), 'Fields that may be used in field selectors; at most 8.', ATOMIC),
      served: bool('Whether this version is served over REST.'),
      storage: bool('Whether objects are persisted in this version; exactly one version must be.'),
      subresources: ref(`${P}CustomResourceSubresources`, 'Subresources served for this version.'),
    },
    required: ['name', 'served', 'storage'],
  },
  [`${P}CustomResourceColumnDefinition`]: {
    type: 'object',
    description: 'A column of server-side Table output.',
    properties: {
      description: str('Human-readable description of the column.'),
      format: str('Optional OpenAPI format of the column.'),
      jsonPath: str('Simple JSON path, without array notation, evaluated against each object.'),
      name: str('Human-readable column name.'),
      priority: int32('Importance of the column; lower is more important, above 0 may be hidden.'),
      type: str('OpenAPI type of the column.'),
    },
    required: ['name', 'type', 'jsonPath'],
  },
  [`${P}SelectableField`]: {
    type: 'object',
    description: 'A field that may be used in field selectors.',
    properties: {
      jsonPath: str('Simple JSON path to a string, boolean or integer field outside metadata.'),
    },
    required: ['jsonPath'],
  },
  [`${P}CustomResourceSubresources`]: {
    type: 'object',
    description: 'Status and scale subresources of a custom resource.',
    properties: {
      scale: ref(`${P}CustomResourceSubresourceScale`, 'Serve a /scale subresource returning an autoscaling/v1 Scale.'),
      status: ref(`${P}CustomResourceSubresourceStatus`, 'Serve a /status subresource.'),
    },
  },
  [`${P}CustomResourceSubresourceStatus`]: {
    type: 'object',
    description: 'Enables the /status subresource, which only changes .status while the main endpoint ignores it.',
  },
  [`${P}CustomResourceSubresourceScale`]: {
    type: 'object',
    description: 'Where the scale subresource finds its values in a custom resource.',
    properties: {
      labelSelectorPath: str('JSON path, under .spec or .status, of the string selector reported as status.selector.'),
      specReplicasPath: str('JSON path, under .spec, of the desired replica count.'),
      statusReplicasPath: str('JSON path, under .status, of the observed replica count.'),
    },
    required: ['specReplicasPath', 'statusReplicasPath'],
  },
  [`${P}CustomResourceValidation`]: {
    type: 'object',
    description: 'Validation schema of a custom resource version.',
    properties: {
      openAPIV3Schema: ref(`${P}JSONSchemaProps`, 'OpenAPI v3 schema used for validation and pruning.'),
    },
  },
  [`${P}CustomResourceConversion`]: {
    type: 'object',
    description: 'How custom resources are converted between versions.',
    properties: {
      strategy: str('None (only apiVersion changes) or Webhook.'),
      webhook: ref(`${P}WebhookConversion`, 'How to call the conversion webhook; required for the Webhook strategy.'),
    },
    required: ['strategy'],
  },
  [`${P}WebhookConversion`]: {
    type: 'object',
    description: 'How to call a conversion webhook.',
    properties: {
      clientConfig: ref(`${P}WebhookClientConfig`, 'Connection details of the webhook.'),
      conversionReviewVersions: stringArray('ConversionReview versions the webhook accepts, most preferred first.', ATOMIC),
    },
    required: ['conversionReviewVersions'],
  },
  [`${P}WebhookClientConfig`]: {
    type: 'object',
    description: 'TLS connection details of a webhook.',
    properties: {
      caBundle: str("PEM-encoded CA bundle used to verify the webhook's certificate.", { format: 'byte' }),
      service: ref(`${P}ServiceReference`, 'In-cluster service of the webhook; set this or url.'),
      url: str('https URL of the webhook; set this or service.'),
    },
  },
  [`${P}ServiceReference`]: {
    type: 'object',
    description: 'Points to a Service.',
    properties: {
      name: str('Name of the service.'),
      namespace: str('Namespace of the service.'),
      path: str('Optional URL path of the webhook.'),
      port: int32('Port of the service. Defaults to 443.'),
    },
    required: ['namespace', 'name'],
  },
  [`${P}CustomResourceDefinitionStatus`]: {
    type: 'object',
    description: 'Observed state of a CustomResourceDefinition.',
    properties: {
      acceptedNames: ref(`${P}CustomResourceDefinitionNames`, 'Names actually used for serving; may differ from spec.names.'),
      conditions: arrayOf(definitionRef(`${P}CustomResourceDefinitionCondition`), 'State of the definition.', {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
      storedVersions: stringArray('Every version objects were ever persisted in.', ATOMIC),
    },
  },
  [`${P}CustomResourceDefinitionCondition`]: conditionDefinition(
    'State of a CustomResourceDefinition; types include Established, NamesAccepted and Terminating.',
  ),
  [`${P}JSONSchemaProps`]: {
    type: 'object',
    description: 'A JSON Schema (draft 4 subset with Kubernetes extensions).',
    properties: {
      $ref: str('Reference to another schema.'),
      $schema: str('JSON Schema dialect.'),
      additionalItems: ref(`${P}JSONSchemaPropsOrBool`, 'Schema of additional array items, or whether they are allowed.'),
      additionalProperties: ref(`${P}JSONSchemaPropsOrBool`, 'Schema of additional properties, or whether they are allowed.'),
      allOf: schemaList('Schemas that must all match.'),
      anyOf: schemaList('Schemas of which at least one must match.'),
      default: ref(`${P}JSON`, 'Default for an undefined field; needs preserveUnknownFields to be false.'),
      definitions: schemaMap('Named schemas.'),
      dependencies: {
        type: 'object',
        additionalProperties: definitionRef(`${P}JSONSchemaPropsOrStringArray`),
        description: 'Property dependencies.',
      },
      description: str('Description of the value.'),
      enum: arrayOf(definitionRef(`${P}JSON`), 'Allowed values.', ATOMIC),
      example: ref(`${P}JSON`, 'An example value.'),
      exclusiveMaximum: bool('Whether maximum is exclusive.'),
      exclusiveMinimum: bool('Whether minimum is exclusive.'),
      externalDocs: ref(`${P}ExternalDocumentation`, 'External documentation.'),
      format: str('OpenAPI v3 format; unknown formats are ignored.'),
      id: str('Schema id.'),
      items: ref(`${P}JSONSchemaPropsOrArray`, 'Schema of the array items, or one schema per position.'),
      maxItems: int64('Maximum number of items.'),
      maxLength: int64('Maximum string length.'),
      maxProperties: int64('Maximum number of properties.'),
      maximum: double('Maximum value.'),
      minItems: int64('Minimum number of items.'),
      minLength: int64('Minimum string length.'),
      minProperties: int64('Minimum number of properties.'),
      minimum: double('Minimum value.'),
      multipleOf: double('The value must be a multiple of this.'),
      not: ref(`${P}JSONSchemaProps`, 'Schema that must not match.'),
      nullable: bool('Whether null is allowed.'),
      oneOf: schemaList('Schemas of which exactly one must match.'),
      pattern: str('Regular expression strings must match.'),
      patternProperties: schemaMap('Schemas of properties whose names match a pattern.'),
      properties: schemaMap('Schemas of the named properties.'),
      required: stringArray('Properties that must be present.', ATOMIC),
      title: str('Title of the schema.'),
      type: str('JSON type of the value.'),
      uniqueItems: bool('Whether array items must be unique.'),
      'x-kubernetes-embedded-resource': bool('The value is an embedded object with apiVersion, kind and metadata.'),
      'x-kubernetes-int-or-string': bool('The value is an integer or a string.'),
      'x-kubernetes-list-map-keys': stringArray('Keys identifying the items of a map-type list.', ATOMIC),
      'x-kubernetes-list-type': str('Topology of a list: atomic, set or map.'),
      'x-kubernetes-map-type': str('Topology of an object: granular or atomic.'),
      'x-kubernetes-preserve-unknown-fields': bool('Keep fields not described by the schema instead of pruning them.'),
      'x-kubernetes-validations': arrayOf(definitionRef(`${P}ValidationRule`), 'CEL validation rules.', {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['rule'],
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'rule',
      }),
    },
  },
  [`${P}ValidationRule`]: {
    type: 'object',
    description: 'A validation rule written in CEL.',
    properties: {
      fieldPath: str('Relative JSON path of the field reported when the rule fails.'),
      message: str('Message returned when the rule fails; required if the rule has line breaks.'),
      messageExpression: str('CEL expression producing the failure message.'),
      optionalOldSelf: bool('Evaluate a transition rule even when there is no old value.'),
      reason: str('Machine-readable failure reason, e.g. FieldValueInvalid.'),
      rule: str('The CEL expression; self is bound to the value at this location.'),
    },
    required: ['rule'],
  },
  [`${P}ExternalDocumentation`]: {
    type: 'object',
    description: 'Link to external documentation.',
    properties: {
      description: str('Description of the documentation.'),
      url: str('Location of the documentation.'),
    },
  },
  [`${P}JSON`]: anyJson('Any JSON value.'),
  [`${P}JSONSchemaPropsOrArray`]: anyJson('A JSONSchemaProps or an array of them.'),
  [`${P}JSONSchemaPropsOrBool`]: anyJson('A JSONSchemaProps or a boolean; true when unset.'),
  [`${P}JSONSchemaPropsOrStringArray`]: anyJson('A JSONSchemaProps or an array of strings.'),
};

const FIELD_NUMBERS: FieldNumberTable = {
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
    tags: {
      name: 1,
      served: 2,
      storage: 3,
      schema: 4,
      subresources: 5,
      additionalPrinterColumns: 6,
      deprecated: 7,
      deprecationWarning: 8,
      selectableFields: 9,
    },
    pointers: ['deprecationWarning'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceScale': {
    tags: { specReplicasPath: 1, statusReplicasPath: 2, labelSelectorPath: 3 },
    pointers: ['labelSelectorPath'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceStatus': { tags: {} },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresources': {
    tags: { status: 1, scale: 2 },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceValidation': { tags: { openAPIV3Schema: 1 } },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ExternalDocumentation': {
    tags: { description: 1, url: 2 },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps': {
    tags: {
      id: 1,
      $schema: 2,
      $ref: 3,
      description: 4,
      type: 5,
      format: 6,
      title: 7,
      default: 8,
      maximum: 9,
      exclusiveMaximum: 10,
      minimum: 11,
      exclusiveMinimum: 12,
      maxLength: 13,
      minLength: 14,
      pattern: 15,
      maxItems: 16,
      minItems: 17,
      uniqueItems: 18,
      multipleOf: 19,
      enum: 20,
      maxProperties: 21,
      minProperties: 22,
      required: 23,
      items: 24,
      allOf: 25,
      oneOf: 26,
      anyOf: 27,
      not: 28,
      properties: 29,
      additionalProperties: 30,
      patternProperties: 31,
      dependencies: 32,
      additionalItems: 33,
      definitions: 34,
      externalDocs: 35,
      example: 36,
      nullable: 37,
      'x-kubernetes-preserve-unknown-fields': 38,
      'x-kubernetes-embedded-resource': 39,
      'x-kubernetes-int-or-string': 40,
      'x-kubernetes-list-map-keys': 41,
      'x-kubernetes-list-type': 42,
      'x-kubernetes-map-type': 43,
      'x-kubernetes-validations': 44,
    },
    pointers: [
      '$ref',
      'maximum',
      'minimum',
      'maxLength',
      'minLength',
      'maxItems',
      'minItems',
      'multipleOf',
      'maxProperties',
      'minProperties',
      'x-kubernetes-preserve-unknown-fields',
      'x-kubernetes-list-type',
      'x-kubernetes-map-type',
    ],
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

/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition. Its strategy needs the CRD machinery above the registry
 * (apiextensions/crd-strategy.ts), which the API server hands the registry at construction.
 */
export const CUSTOM_RESOURCE_DEFINITION: KindDefinition = {
  resource: resourceInfo({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
    definition: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: [STATUS],
  }),
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
