import { ref, stringArray } from '../../openapi/builders/group-builders.js';
import type { Schema } from '../../openapi/schema.js';

/** Schema pieces several authorization-v1 kinds share. */

/**
 * authorization.k8s.io/v1: the access reviews (SubjectAccessReview, LocalSubjectAccessReview,
 * SelfSubjectAccessReview) and SelfSubjectRulesReview. Create-only and never stored, so no List kinds.
 */

export const P = 'io.k8s.api.authorization.v1.';
export const GROUP = 'authorization.k8s.io';
export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

export const ATOMIC = { 'x-kubernetes-list-type': 'atomic' } as const;

export const atomicStrings = (description: string): Schema => stringArray(description, ATOMIC);

export const ACCESS_STATUS = ref(`${P}SubjectAccessReviewStatus`, 'Filled in by the server: whether the request would be allowed.');

export const SUBJECT_SPEC = ref(
  `${P}SubjectAccessReviewSpec`,
  'The request being evaluated; for the local review, resourceAttributes.namespace must be the namespace of the request.',
);
