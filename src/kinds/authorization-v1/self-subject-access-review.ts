import type { KindDefinition } from '../define/kind-definition.js';
import { reviewResource } from '../define/resource.js';

/** authorization.k8s.io/v1 SelfSubjectAccessReview: whether the caller may act. */
export const SELF_SUBJECT_ACCESS_REVIEW: KindDefinition = { resource: reviewResource('authorization.k8s.io', 'SelfSubjectAccessReview') };
