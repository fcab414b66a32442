import { isObject, type KubeObject } from '../../api/types.js';
import { arrayOf, int64, kindDefinition, listDefinition, mergeMapList, ref, str } from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { specOf } from '../../api/json-fields.js';
import { defaultMatchResources } from './validating-admission-policy-rules.js';
import { GROUP } from './validating-admission-policy-types.js';
import { P } from './webhook-types.js';
import { validateValidatingAdmissionPolicy, validateValidatingAdmissionPolicyStatus } from './validating-admission-policy-validation.js';

const atomic = { 'x-kubernetes-list-type': 'atomic' } as const;

const DEFINITIONS: Definitions = {
  [`${P}ValidatingAdmissionPolicy`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'ValidatingAdmissionPolicy',
    description: 'An admission policy of CEL expressions that accepts or rejects a request without changing its object.',
    properties: {
      spec: ref(`${P}ValidatingAdmissionPolicySpec`, 'What the policy matches and the validations it runs.'),
      status: ref(`${P}ValidatingAdmissionPolicyStatus`, 'Type checking results and conditions, written by the system.'),
    },
  }),
  [`${P}ValidatingAdmissionPolicyList`]: listDefinition(GROUP, 'v1', 'ValidatingAdmissionPolicy', `${P}ValidatingAdmissionPolicy`),
  [`${P}ValidatingAdmissionPolicySpec`]: {
    type: 'object',
    description: 'The desired behaviour of a ValidatingAdmissionPolicy.',
    properties: {
      auditAnnotations: arrayOf(definitionRef(`${P}AuditAnnotation`), 'CEL expressions producing audit annotations.', atomic),
      failurePolicy: str('Fail or Ignore: what errors and misconfigurations do to the request. Defaults to Fail.'),
      matchConditions: mergeMapList(definitionRef(`${P}MatchCondition`), 'name', 'CEL conditions a matched request must meet.'),
      matchConstraints: ref(`${P}MatchResources`, 'The requests the policy is designed to validate.'),
      paramKind: ref(`${P}ParamKind`, 'The kind of the resources that parameterize the policy.'),
      validations: arrayOf(definitionRef(`${P}Validation`), 'CEL validations; a false one is a failure.', atomic),
      variables: mergeMapList(definitionRef(`${P}Variable`), 'name', 'Named CEL expressions other expressions use as variables.<name>.'),
    },
  },
  [`${P}ValidatingAdmissionPolicyStatus`]: {
    type: 'object',
    description: 'The observed state of a ValidatingAdmissionPolicy.',
    properties: {
      conditions: arrayOf(definitionRef('io.k8s.apimachinery.pkg.apis.meta.v1.Condition'), 'The latest observations of the policy.', {
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-list-type': 'map',
      }),
      observedGeneration: int64('The generation the controller last observed.'),
      typeChecking: ref(`${P}TypeChecking`, 'Results of type checking the expressions.'),
    },
  },
  [`${P}ParamKind`]: {
    type: 'object',
    description: 'The group version and kind of parameter resources.',
    properties: { apiVersion: str('group/version, or version for the core group.'), kind: str('Kind of the parameter resources.') },
    'x-kubernetes-map-type': 'atomic',
  },
  [`${P}Validation`]: {
    type: 'object',
    description: 'A CEL expression a request must satisfy.',
    properties: {
      expression: str('CEL expression evaluating to bool.'),
      message: str('Message returned when the validation fails.'),
      messageExpression: str('CEL expression producing the failure message.'),
      reason: str('Forbidden, Invalid or RequestEntityTooLarge: the reason and HTTP code of a denial. Defaults to Invalid.'),
    },
    required: ['expression'],
  },
  [`${P}Variable`]: {
    type: 'object',
    description: 'A named CEL expression.',
    properties: { expression: str('CEL expression giving the value.'), name: str('Name, a CEL identifier.') },
    required: ['name', 'expression'],
    'x-kubernetes-map-type': 'atomic',
  },
  [`${P}AuditAnnotation`]: {
    type: 'object',
    description: 'How to produce an audit annotation for a request.',
    properties: {
      key: str('Annotation key, prefixed with the policy name.'),
      valueExpression: str('CEL expression giving a string or null.'),
    },
    required: ['key', 'valueExpression'],
  },
  [`${P}TypeChecking`]: {
    type: 'object',
    description: 'Results of type checking the expressions of a policy.',
    properties: { expressionWarnings: arrayOf(definitionRef(`${P}ExpressionWarning`), 'Type checking warnings per expression.', atomic) },
  },
  [`${P}ExpressionWarning`]: {
    type: 'object',
    description: 'A type checking warning about one expression.',
    properties: {
      fieldRef: str('Path of the expression, e.g. spec.validations[0].expression.'),
      warning: str('What the type checker found, one line per checked type.'),
    },
    required: ['fieldRef', 'warning'],
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}ValidatingAdmissionPolicy`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}ValidatingAdmissionPolicyList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}ValidatingAdmissionPolicySpec`]: {
    tags: { paramKind: 1, matchConstraints: 2, validations: 3, failurePolicy: 4, auditAnnotations: 5, matchConditions: 6, variables: 7 },
    pointers: ['failurePolicy'],
  },
  [`${P}ValidatingAdmissionPolicyStatus`]: { tags: { observedGeneration: 1, typeChecking: 2, conditions: 3 } },
  [`${P}ParamKind`]: { tags: { apiVersion: 1, kind: 2 } },
  [`${P}Validation`]: { tags: { expression: 1, message: 2, reason: 3, messageExpression: 4 }, pointers: ['reason'] },
  [`${P}Variable`]: { tags: { name: 1, expression: 2 } },
  [`${P}AuditAnnotation`]: { tags: { key: 1, valueExpression: 2 } },
  [`${P}TypeChecking`]: { tags: { expressionWarnings: 1 } },
  [`${P}ExpressionWarning`]: { tags: { fieldRef: 2, warning: 3 } },
};

/** SetDefaults_ValidatingAdmissionPolicySpec: failurePolicy Fail, and the MatchResources defaults. */
function defaultPolicy(policy: KubeObject): void {
  if (!isObject(policy.spec)) return;
  policy.spec.failurePolicy ??= 'Fail';
  defaultMatchResources(policy.spec.matchConstraints);
}

function paramKindCell(policy: KubeObject): string {
  const pk = specOf(policy).paramKind;
  if (!isObject(pk)) return '<unset>';
  return `${typeof pk.apiVersion === 'string' ? pk.apiVersion : ''}/${typeof pk.kind === 'string' ? pk.kind : ''}`;
}

/** admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy (R11.140). */
export const VALIDATING_ADMISSION_POLICY: KindDefinition = {
  resource: resourceInfo({
    group: GROUP,
    version: 'v1',
    kind: 'ValidatingAdmissionPolicy',
    plural: 'validatingadmissionpolicies',
    namespaced: false,
    categories: ['api-extensions'],
    subresources: [STATUS],
  }),
  strategy: {
    specGeneration: true,
    defaults: defaultPolicy,
    validate: validateValidatingAdmissionPolicy,
    validateUpdate: (next) => validateValidatingAdmissionPolicy(next),
    validateStatusUpdate: (next) => validateValidatingAdmissionPolicyStatus(next),
  },
  printer: {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration'),
      column('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy'),
      AGE_COLUMN,
    ],
    row: (policy, now) => {
      const validations = specOf(policy).validations;
      return [
        policy.metadata.name ?? '',
        Array.isArray(validations) ? validations.length : 0,
        paramKindCell(policy),
        age(policy.metadata.creationTimestamp, now),
      ];
    },
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
