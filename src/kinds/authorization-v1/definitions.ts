import { definitionRef, type Definitions, type Schema } from '../../openapi/schema.js';
import { arrayOf, bool, kindDefinition, ref, str, stringArray } from '../../openapi/builders/group-builders.js';

/**
 * authorization.k8s.io/v1: the access reviews (SubjectAccessReview, LocalSubjectAccessReview,
 * SelfSubjectAccessReview) and SelfSubjectRulesReview. Create-only and never stored, so no List kinds.
 */

const P = 'io.k8s.api.authorization.v1.';
const GROUP = 'authorization.k8s.io';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

const ATOMIC = { 'x-kubernetes-list-type': 'atomic' } as const;

const atomicStrings = (description: string): Schema => stringArray(description, ATOMIC);

const ACCESS_STATUS = ref(`${P}SubjectAccessReviewStatus`, 'Filled in by the server: whether the request would be allowed.');

const SUBJECT_SPEC = ref(
  `${P}SubjectAccessReviewSpec`,
  'The request being evaluated; for the local review, resourceAttributes.namespace must be the namespace of the request.',
);

export const AUTHORIZATION_V1_DEFINITIONS: Definitions = {
  [`${P}SubjectAccessReview`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'SubjectAccessReview',
    description: 'SubjectAccessReview asks whether a given user or group may perform an action.',
    properties: { spec: SUBJECT_SPEC, status: ACCESS_STATUS },
    required: ['spec'],
  }),
  [`${P}LocalSubjectAccessReview`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'LocalSubjectAccessReview',
    description: 'LocalSubjectAccessReview asks whether a user or group may perform an action in one namespace.',
    properties: { spec: SUBJECT_SPEC, status: ACCESS_STATUS },
    required: ['spec'],
  }),
  [`${P}SelfSubjectAccessReview`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'SelfSubjectAccessReview',
    description: 'SelfSubjectAccessReview asks whether the requesting user may perform an action; an empty namespace means all namespaces.',
    properties: {
      spec: ref(`${P}SelfSubjectAccessReviewSpec`, 'The request being evaluated; it names no user or groups.'),
      status: ACCESS_STATUS,
    },
    required: ['spec'],
  }),
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
  [`${P}SubjectAccessReviewSpec`]: {
    type: 'object',
    description: 'The access request to evaluate. Exactly one of resourceAttributes and nonResourceAttributes must be set.',
    properties: {
      extra: {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'string' } },
        description: 'Extra attributes of the user, as an authenticator would report them.',
      },
      groups: atomicStrings('The groups to evaluate the request for.'),
      nonResourceAttributes: ref(`${P}NonResourceAttributes`, 'A request on a non-resource path.'),
      resourceAttributes: ref(`${P}ResourceAttributes`, 'A request on an API resource.'),
      uid: str('UID of the user to evaluate the request for.'),
      user: str('The user to evaluate the request for; without groups it is taken to belong to no group.'),
    },
  },
  [`${P}SelfSubjectAccessReviewSpec`]: {
    type: 'object',
    description: 'The access request to evaluate. Exactly one of resourceAttributes and nonResourceAttributes must be set.',
    properties: {
      nonResourceAttributes: ref(`${P}NonResourceAttributes`, 'A request on a non-resource path.'),
      resourceAttributes: ref(`${P}ResourceAttributes`, 'A request on an API resource.'),
    },
  },
  [`${P}SelfSubjectRulesReviewSpec`]: {
    type: 'object',
    description: 'What a SelfSubjectRulesReview asks about.',
    properties: { namespace: str('The namespace to evaluate the rules in. Required.') },
  },
  [`${P}ResourceAttributes`]: {
    type: 'object',
    description: 'Authorization attributes of a request on an API resource.',
    properties: {
      fieldSelector: ref(`${P}FieldSelectorAttributes`, 'Limits the access asked about to objects matching a field selector.'),
      group: str('API group of the resource; "*" means all.'),
      labelSelector: ref(`${P}LabelSelectorAttributes`, 'Limits the access asked about to objects matching a label selector.'),
      name: str('Name of the object; empty means all.'),
      namespace: str('Namespace of the request; empty means all namespaces (or a cluster-scoped resource).'),
      resource: str('The resource (plural); "*" means all.'),
      subresource: str('The subresource; empty means none.'),
      verb: str('API verb such as get, list, watch, create, update, delete; "*" means all.'),
      version: str('API version of the resource; "*" means all.'),
    },
  },
  [`${P}NonResourceAttributes`]: {
    type: 'object',
    description: 'Authorization attributes of a request on a non-resource path.',
    properties: {
      path: str('URL path of the request.'),
      verb: str('Lower-case HTTP verb of the request.'),
    },
  },
  [`${P}FieldSelectorAttributes`]: {
    type: 'object',
    description: 'A field selector limiting an access review: either rawSelector or requirements, not both.',
    properties: {
      rawSelector: str('The selector as it would appear in a fieldSelector query parameter.'),
      requirements: arrayOf(definitionRef(`${META}FieldSelectorRequirement`), 'The parsed requirements; all must match.', ATOMIC),
    },
  },
  [`${P}LabelSelectorAttributes`]: {
    type: 'object',
    description: 'A label selector limiting an access review: either rawSelector or requirements, not both.',
    properties: {
      rawSelector: str('The selector as it would appear in a labelSelector query parameter.'),
      requirements: arrayOf(definitionRef(`${META}LabelSelectorRequirement`), 'The parsed requirements; all must match.', ATOMIC),
    },
  },
  // A meta/v1 type that only the access reviews use, so it is defined beside them.
  [`${META}FieldSelectorRequirement`]: {
    type: 'object',
    description: 'A field selector requirement: a key, an operator and the values it applies to.',
    properties: {
      key: str('The field selector key.'),
      operator: str('How the key relates to the values: In, NotIn, Exists or DoesNotExist.'),
      values: atomicStrings('The values; non-empty for In and NotIn, empty for Exists and DoesNotExist.'),
    },
    required: ['key', 'operator'],
  },
  [`${P}SubjectAccessReviewStatus`]: {
    type: 'object',
    description: 'The answer to an access review.',
    properties: {
      allowed: bool('Whether the action would be allowed.'),
      denied: bool('Whether an authorizer explicitly denied the action; never true together with allowed.'),
      evaluationError: str('An error met while evaluating; the answer may still be meaningful.'),
      reason: str('Why the action is allowed or denied.'),
    },
    required: ['allowed'],
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
