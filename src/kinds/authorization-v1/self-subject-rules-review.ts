import type { KindDefinition } from '../define/kind-definition.js';
import { reviewResource } from '../define/resource.js';

/** authorization.k8s.io/v1 SelfSubjectRulesReview: the caller's rules in a namespace. */
export const SELF_SUBJECT_RULES_REVIEW: KindDefinition = { resource: reviewResource('authorization.k8s.io', 'SelfSubjectRulesReview') };
