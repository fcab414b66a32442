import { isObject, type KubeObject } from '../../api/types.js';
import { kindDefinition, listDefinition, ref, str, stringArray } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { specOf } from '../../api/json-fields.js';
import { defaultMatchResources } from './validating-admission-policy-rules.js';
import { GROUP } from './validating-admission-policy-types.js';
import { P } from './webhook-types.js';
import { validateValidatingAdmissionPolicyBinding } from './validating-admission-policy-validation.js';

const DEFINITIONS: Definitions = {
  [`${P}ValidatingAdmissionPolicyBinding`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    description: 'Binds a ValidatingAdmissionPolicy to the requests it applies to, its parameters and its enforcement actions.',
    properties: { spec: ref(`${P}ValidatingAdmissionPolicyBindingSpec`, 'The desired behaviour of the binding.') },
  }),
  [`${P}ValidatingAdmissionPolicyBindingList`]: listDefinition(
    GROUP,
    'v1',
    'ValidatingAdmissionPolicyBinding',
    `${P}ValidatingAdmissionPolicyBinding`,
  ),
  [`${P}ValidatingAdmissionPolicyBindingSpec`]: {
    type: 'object',
    description: 'The specification of a ValidatingAdmissionPolicyBinding.',
    properties: {
      matchResources: ref(
        `${P}MatchResources`,
        "Further limits the requests the binding applies to, within the policy's matchConstraints.",
      ),
      paramRef: ref(`${P}ParamRef`, 'Where the parameter resources of the policy are found.'),
      policyName: str('Name of the ValidatingAdmissionPolicy bound.'),
      validationActions: stringArray('Deny, Warn and/or Audit: how validation failures are enforced.', { 'x-kubernetes-list-type': 'set' }),
    },
  },
  [`${P}ParamRef`]: {
    type: 'object',
    description: 'How to find the parameter resources of a binding.',
    properties: {
      name: str('Name of the parameter resource.'),
      namespace: str('Namespace of the parameter resources; unset means the request namespace for namespaced kinds.'),
      parameterNotFoundAction: str('Allow or Deny: what happens when no parameter is found.'),
      selector: ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', 'Labels of the parameter resources; {} selects all.'),
    },
    'x-kubernetes-map-type': 'atomic',
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}ValidatingAdmissionPolicyBinding`]: { tags: { metadata: 1, spec: 2 } },
  [`${P}ValidatingAdmissionPolicyBindingList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}ValidatingAdmissionPolicyBindingSpec`]: { tags: { policyName: 1, paramRef: 2, matchResources: 3, validationActions: 4 } },
  [`${P}ParamRef`]: { tags: { name: 1, namespace: 2, selector: 3, parameterNotFoundAction: 4 }, pointers: ['parameterNotFoundAction'] },
};

function defaultBinding(binding: KubeObject): void {
  if (isObject(binding.spec)) defaultMatchResources(binding.spec.matchResources);
}

/** The generated String() of a metav1.LabelSelector, which the binding printer shows for a selector paramRef. */
function goSelectorString(selector: Record<string, unknown>): string {
  const labels = isObject(selector.matchLabels) ? selector.matchLabels : {};
  const labelText = Object.keys(labels)
    .sort()
    .map((k) => `${k}: ${String(labels[k])},`)
    .join('');
  const expressions = (Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [])
    .filter(isObject)
    .map(
      (e) =>
        `LabelSelectorRequirement{Key:${String(e.key ?? '')},Operator:${String(e.operator ?? '')},Values:[${(Array.isArray(e.values) ? e.values : []).join(' ')}],},`,
    )
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labelText}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}

/** The ParamRef cell: namespace/name (namespace "*" when unset), the selector, or <unset>. */
function paramRefCell(binding: KubeObject): string {
  const pr = specOf(binding).paramRef;
  if (!isObject(pr)) return '<unset>';
  const name = typeof pr.name === 'string' ? pr.name : '';
  if (name !== '') return `${typeof pr.namespace === 'string' && pr.namespace !== '' ? pr.namespace : '*'}/${name}`;
  return isObject(pr.selector) ? goSelectorString(pr.selector) : '<unset>';
}

/** admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding (R11.140, R11.143). */
export const VALIDATING_ADMISSION_POLICY_BINDING: KindDefinition = {
  resource: resourceInfo({
    group: GROUP,
    version: 'v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    plural: 'validatingadmissionpolicybindings',
    namespaced: false,
    categories: ['api-extensions'],
  }),
  strategy: {
    specGeneration: true,
    defaults: defaultBinding,
    validate: validateValidatingAdmissionPolicyBinding,
    validateUpdate: (next) => validateValidatingAdmissionPolicyBinding(next),
  },
  printer: {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to'),
      column('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
      AGE_COLUMN,
    ],
    row: (binding, now) => {
      const policyName = specOf(binding).policyName;
      return [
        binding.metadata.name ?? '',
        typeof policyName === 'string' ? policyName : '',
        paramRefCell(binding),
        age(binding.metadata.creationTimestamp, now),
      ];
    },
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
