import type { KindDefinition } from '../define/kind-definition.js';
import { reviewResource } from '../define/resource.js';

/** authorization.k8s.io/v1 SubjectAccessReview: whether a user may act. */
export const SUBJECT_ACCESS_REVIEW: KindDefinition = { resource: reviewResource('authorization.k8s.io', 'SubjectAccessReview') };
