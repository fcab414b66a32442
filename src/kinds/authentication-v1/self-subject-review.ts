import type { KindDefinition } from '../define/kind-definition.js';
import { reviewResource } from '../define/resource.js';

/** authentication.k8s.io/v1 SelfSubjectReview: who the caller is, as the server authenticated it. */
export const SELF_SUBJECT_REVIEW: KindDefinition = { resource: reviewResource('authentication.k8s.io', 'SelfSubjectReview') };
