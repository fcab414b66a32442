import type { KindDefinition } from '../define/kind-definition.js';
import { reviewResource } from '../define/resource.js';

/** authentication.k8s.io/v1 TokenReview: whether a bearer token authenticates, and as whom. */
export const TOKEN_REVIEW: KindDefinition = { resource: reviewResource('authentication.k8s.io', 'TokenReview') };
