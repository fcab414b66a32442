import { arrayOf, bool, kindDefinition, ref, str } from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { reviewResource } from '../define/resource.js';
import { ATOMIC, atomicStrings, GROUP, P } from './schema-parts.js';

const DEFINITIONS: Definitions = {
  [`${P}SelfSubjectRulesReview`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'SelfSubjectRulesReview',
    description:
      'SelfSubjectRulesReview lists what the requesting user may do in a namespace. The list may be incomplete; it is meant for UIs, not for authorization decisions.',
    properties: {
      spec: ref(`${P}SelfSubjectRulesReviewSpec`, 'The namespace to list the rules of.'),
      status: ref(`${P}SubjectRulesReviewStatus`, 'Filled in by the server: the actions the user may perform.'),
    },
    required: ['spec'],
  }),
  [`${P}SelfSubjectRulesReviewSpec`]: {
    type: 'object',
    description: 'What a SelfSubjectRulesReview asks about.',
    properties: { namespace: str('The namespace to evaluate the rules in. Required.') },
  },
  [`${P}SubjectRulesReviewStatus`]: {
    type: 'object',
    description: 'The rules a subject has in a namespace; additive, so every listed rule is granted even if the list is incomplete.',
    properties: {
      evaluationError: str('An error met while evaluating the rules.'),
      incomplete: bool('Whether the list may miss rules, e.g. because an authorizer cannot list them.'),
      nonResourceRules: arrayOf(definitionRef(`${P}NonResourceRule`), 'Actions allowed on non-resource paths.', ATOMIC),
      resourceRules: arrayOf(definitionRef(`${P}ResourceRule`), 'Actions allowed on resources.', ATOMIC),
    },
    required: ['resourceRules', 'nonResourceRules', 'incomplete'],
  },
  [`${P}ResourceRule`]: {
    type: 'object',
    description: 'Actions a subject may perform on resources.',
    properties: {
      apiGroups: atomicStrings('API groups of the resources; "*" means all.'),
      resourceNames: atomicStrings('Names the rule is limited to; empty means all.'),
      resources: atomicStrings('Resources the rule applies to; "*" means all, "*/foo" the subresource foo of all.'),
      verbs: atomicStrings('API verbs; "*" means all.'),
    },
    required: ['verbs'],
  },
  [`${P}NonResourceRule`]: {
    type: 'object',
    description: 'Actions a subject may perform on non-resource paths.',
    properties: {
      nonResourceURLs: atomicStrings('Paths the rule applies to; a trailing "*" matches any suffix.'),
      verbs: atomicStrings('Lower-case HTTP verbs; "*" means all.'),
    },
    required: ['verbs'],
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}SelfSubjectRulesReview`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}SelfSubjectRulesReviewSpec`]: { tags: { namespace: 1 } },
  [`${P}SubjectRulesReviewStatus`]: { tags: { resourceRules: 1, nonResourceRules: 2, incomplete: 3, evaluationError: 4 } },
  [`${P}ResourceRule`]: { tags: { verbs: 1, apiGroups: 2, resources: 3, resourceNames: 4 } },
  [`${P}NonResourceRule`]: { tags: { verbs: 1, nonResourceURLs: 2 } },
};

/** authorization.k8s.io/v1 SelfSubjectRulesReview: the caller's rules in a namespace. */
export const SELF_SUBJECT_RULES_REVIEW: KindDefinition = {
  resource: reviewResource('authorization.k8s.io', 'SelfSubjectRulesReview'),
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
