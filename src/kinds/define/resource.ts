import { ALL_VERBS, type NameFormat, type ResourceInfo, type SubresourceInfo, type Verb } from '../../api/resource-info.js';

/** The status subresource as every built-in kind with one serves it. */
export const STATUS: SubresourceInfo = { name: 'status', verbs: ['get', 'patch', 'update'] };
/** The scale subresource, answered with an autoscaling/v1 Scale. */
export const SCALE: SubresourceInfo = {
  name: 'scale',
  verbs: ['get', 'patch', 'update'],
  group: 'autoscaling',
  version: 'v1',
  kind: 'Scale',
};

/** The discovery facts of a kind as Kubernetes v1.32 reports them; what is left out takes the common value. */
export interface ResourceSpec {
  /** API group, '' for core. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Lower-case plural: the URL segment. */
  readonly plural: string;
  readonly namespaced: boolean;
  /** The OpenAPI definition name; defaults to k8s.io/api's `io.k8s.api.<first label of the group>.<version>.<Kind>`. */
  readonly definition?: string;
  readonly shortNames?: string[];
  readonly categories?: string[];
  /** All eight verbs unless the kind serves fewer. */
  readonly verbs?: readonly Verb[];
  readonly subresources?: SubresourceInfo[];
  /** The name validation of the kind's strategy; DNS-1123 subdomain unless it says otherwise. */
  readonly nameFormat?: NameFormat;
  /** Create-only review kinds (TokenReview, SubjectAccessReview…): answered, never stored. */
  readonly review?: true;
  /** Served by its own handler and never stored (componentstatuses, bindings): no storage version hash. */
  readonly unstored?: true;
}

/** The ResourceInfo of a built-in kind: listKind, singular and the defaults derived from its spec. */
export function resourceInfo(spec: ResourceSpec): ResourceInfo {
  const apiPackage = spec.group === '' ? 'core' : (spec.group.split('.')[0] as string);
  return {
    group: spec.group,
    version: spec.version,
    kind: spec.kind,
    listKind: `${spec.kind}List`,
    plural: spec.plural,
    singular: spec.kind.toLowerCase(),
    namespaced: spec.namespaced,
    verbs: spec.verbs ?? ALL_VERBS,
    shortNames: spec.shortNames ?? [],
    categories: spec.categories ?? [],
    subresources: spec.subresources ?? [],
    nameFormat: spec.nameFormat ?? 'dns1123-subdomain',
    definition: spec.definition ?? `io.k8s.api.${apiPackage}.${spec.version}.${spec.kind}`,
    ...(spec.review === true ? { review: true } : {}),
    ...(spec.unstored === true ? { unstored: true } : {}),
  };
}

/** A create-only review kind of authentication.k8s.io or authorization.k8s.io (never stored). */
export function reviewResource(group: 'authentication.k8s.io' | 'authorization.k8s.io', kind: string, namespaced = false): ResourceInfo {
  return resourceInfo({ group, version: 'v1', kind, plural: `${kind.toLowerCase()}s`, namespaced, verbs: ['create'], review: true });
}
