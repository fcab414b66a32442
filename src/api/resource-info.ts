/** Static description of a served resource: what discovery reports and how the registry stores it. */

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
/** Resources without deletecollection (e.g. namespaces). */
export const VERBS_NO_COLLECTION_DELETE: readonly Verb[] = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

export interface SubresourceInfo {
  /** "status", "scale", "finalize". */
  readonly name: string;
  readonly verbs: readonly Verb[];
  /** Response kind when it differs from the parent's (scale → autoscaling/v1 Scale). */
  readonly group?: string;
  readonly version?: string;
  readonly kind?: string;
}

export type NameFormat = 'dns1123-subdomain' | 'dns1123-label' | 'dns1035-label' | 'path-segment';

export interface ResourceInfo {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly listKind: string;
  /** Plural, lower case: the URL segment. */
  readonly plural: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly verbs: readonly Verb[];
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly subresources: readonly SubresourceInfo[];
  readonly nameFormat: NameFormat;
  /** OpenAPI definition name of the kind, e.g. "io.k8s.api.core.v1.ConfigMap". */
  readonly definition: string;
  /** True for custom resources (CRDs): they follow the apiextensions rules instead of core validation. */
  readonly custom?: boolean;
  /**
   * Create-only "review" resources (SubjectAccessReview, TokenReview…): a create is a question answered in the
   * response and nothing is ever stored, so they have no storage version hash and are routed to the review handler.
   */
  readonly review?: true;
  /**
   * Resources served by their own handler and never stored: componentstatuses (computed on each read) and the
   * legacy bindings (a create binds the pod it names). Like reviews, they have no storage version hash.
   */
  readonly unstored?: true;
}

/** "deployments.apps", "pods": the qualified resource used in error messages (R9 conventions). */
export function qualifiedResource(info: Pick<ResourceInfo, 'plural' | 'group'>): string {
  return info.group === '' ? info.plural : `${info.plural}.${info.group}`;
}

/** "Deployment.apps", "Pod": the qualified kind used in Invalid messages. */
export function qualifiedKind(info: Pick<ResourceInfo, 'kind' | 'group'>): string {
  return info.group === '' ? info.kind : `${info.kind}.${info.group}`;
}
