import type { FieldNumberTable } from '../define/field-numbers.js';

const P = 'io.k8s.api.authorization.v1.';

export const AUTHORIZATION_V1_FIELD_NUMBERS: FieldNumberTable = {
  [`${P}SubjectAccessReview`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}LocalSubjectAccessReview`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}SelfSubjectAccessReview`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}SelfSubjectRulesReview`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}SubjectAccessReviewSpec`]: {
    tags: { resourceAttributes: 1, nonResourceAttributes: 2, user: 3, groups: 4, extra: 5, uid: 6 },
  },
  [`${P}SelfSubjectAccessReviewSpec`]: { tags: { resourceAttributes: 1, nonResourceAttributes: 2 } },
  [`${P}SelfSubjectRulesReviewSpec`]: { tags: { namespace: 1 } },
  [`${P}ResourceAttributes`]: {
    tags: { namespace: 1, verb: 2, group: 3, version: 4, resource: 5, subresource: 6, name: 7, fieldSelector: 8, labelSelector: 9 },
  },
  [`${P}NonResourceAttributes`]: { tags: { path: 1, verb: 2 } },
  [`${P}FieldSelectorAttributes`]: { tags: { rawSelector: 1, requirements: 2 } },
  [`${P}LabelSelectorAttributes`]: { tags: { rawSelector: 1, requirements: 2 } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement': { tags: { key: 1, operator: 2, values: 3 } },
  [`${P}SubjectAccessReviewStatus`]: { tags: { allowed: 1, reason: 2, evaluationError: 3, denied: 4 } },
  [`${P}SubjectRulesReviewStatus`]: { tags: { resourceRules: 1, nonResourceRules: 2, incomplete: 3, evaluationError: 4 } },
  [`${P}ResourceRule`]: { tags: { verbs: 1, apiGroups: 2, resources: 3, resourceNames: 4 } },
  [`${P}NonResourceRule`]: { tags: { verbs: 1, nonResourceURLs: 2 } },
};
