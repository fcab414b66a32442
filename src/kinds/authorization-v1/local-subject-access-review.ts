import type { KindDefinition } from '../define/kind-definition.js';
import { reviewResource } from '../define/resource.js';

/** authorization.k8s.io/v1 LocalSubjectAccessReview: whether a user may act within the request's namespace. */
export const LOCAL_SUBJECT_ACCESS_REVIEW: KindDefinition = { resource: reviewResource('authorization.k8s.io', 'LocalSubjectAccessReview', true) };
