import { arrayOf, ref, str, stringArray } from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { TypeSet } from '../define/kind-definition.js';
import { P } from './webhook-types.js';

export const GROUP = 'admissionregistration.k8s.io';

const LABEL_SELECTOR = 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector';
const atomic = { 'x-kubernetes-list-type': 'atomic' } as const;

/**
 * The types both ValidatingAdmissionPolicy and its binding use (MatchResources and its rules); MatchCondition,
 * RuleWithOperations and Rule, which the policy shares with the webhook configurations, are in webhook-types.ts.
 */
const DEFINITIONS: Definitions = {
  [`${P}MatchResources`]: {
    type: 'object',
    description: 'Which requests an admission policy or binding applies to; exclude rules win over resource rules.',
    properties: {
      excludeResourceRules: arrayOf(definitionRef(`${P}NamedRuleWithOperations`), 'Requests the policy never applies to.', atomic),
      matchPolicy: str('Exact or Equivalent (also requests through another group or version of the same resource).'),
      namespaceSelector: ref(LABEL_SELECTOR, "Labels of the request's namespace that must match; {} matches every namespace."),
      objectSelector: ref(LABEL_SELECTOR, 'Labels of the old or new object that must match; {} matches every object.'),
      resourceRules: arrayOf(definitionRef(`${P}NamedRuleWithOperations`), 'Requests the policy applies to: any rule matches.', atomic),
    },
    'x-kubernetes-map-type': 'atomic',
  },
  [`${P}NamedRuleWithOperations`]: {
    type: 'object',
    description: 'Operations, API groups, versions and resources a request must match, optionally limited to names.',
    properties: {
      apiGroups: stringArray("API groups, '*' for all.", atomic),
      apiVersions: stringArray("API versions, '*' for all.", atomic),
      operations: stringArray("CREATE, UPDATE, DELETE, CONNECT or '*'.", atomic),
      resourceNames: stringArray('Object names the rule is limited to; empty means every name.', atomic),
      resources: stringArray("Resources, 'resource/subresource', '*', '*/*' or '*/subresource'.", atomic),
      scope: str('Cluster, Namespaced or "*" (the default).'),
    },
    'x-kubernetes-map-type': 'atomic',
  },
};

/** The shared types' protobuf field numbers; NamedRuleWithOperations embeds RuleWithOperations, which embeds Rule. */
const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}MatchResources`]: {
    tags: { namespaceSelector: 1, objectSelector: 2, resourceRules: 3, excludeResourceRules: 4, matchPolicy: 7 },
    pointers: ['matchPolicy'],
  },
  [`${P}NamedRuleWithOperations`]: { tags: { resourceNames: 1 }, inline: { 2: `${P}RuleWithOperations` } },
};

export const VALIDATING_ADMISSION_POLICY_TYPES: TypeSet = { definitions: DEFINITIONS, fieldNumbers: FIELD_NUMBERS };
