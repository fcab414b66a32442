import {
  ALL_VERBS,
  type NameFormat,
  type ResourceInfo,
  type SubresourceInfo,
  VERBS_NO_COLLECTION_DELETE,
  type Verb,
} from './resource-info.js';

/**
 * The built-in resources Cascade serves, with the discovery facts Kubernetes v1.32 reports for them
 * (group, version, kind, plural, singular, short names, categories, verbs, scope).
 */

const STATUS: SubresourceInfo = { name: 'status', verbs: ['get', 'patch', 'update'] };
const SCALE: SubresourceInfo = {
  name: 'scale',
  verbs: ['get', 'patch', 'update'],
  group: 'autoscaling',
  version: 'v1',
  kind: 'Scale',
};

interface Spec {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  definition: string;
  shortNames?: string[];
  categories?: string[];
  verbs?: readonly Verb[];
  subresources?: SubresourceInfo[];
  nameFormat?: NameFormat;
  review?: true;
}

function resource(spec: Spec): ResourceInfo {
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
    definition: spec.definition,
    ...(spec.review === true ? { review: true } : {}),
  };
}

const core = (kind: string, plural: string, namespaced: boolean, rest: Partial<Spec> = {}): ResourceInfo =>
  resource({ group: '', version: 'v1', kind, plural, namespaced, definition: `io.k8s.api.core.v1.${kind}`, ...rest });

const apps = (kind: string, plural: string, shortName: string): ResourceInfo =>
  resource({
    group: 'apps',
    version: 'v1',
    kind,
    plural,
    namespaced: true,
    definition: `io.k8s.api.apps.v1.${kind}`,
    shortNames: [shortName],
    categories: ['all'],
    subresources: kind === 'DaemonSet' ? [STATUS] : [SCALE, STATUS],
    // A StatefulSet's name becomes its pods' hostnames, so it must be a DNS label (since v1.27).
    nameFormat: kind === 'StatefulSet' ? 'dns1123-label' : 'dns1123-subdomain',
  });

/** A create-only review kind of authentication.k8s.io or authorization.k8s.io (never stored). */
const review = (group: 'authentication' | 'authorization', kind: string, namespaced = false): ResourceInfo =>
  resource({
    group: `${group}.k8s.io`,
    version: 'v1',
    kind,
    plural: `${kind.toLowerCase()}s`,
    namespaced,
    definition: `io.k8s.api.${group}.v1.${kind}`,
    verbs: ['create'],
    review: true,
  });

const rbac = (kind: string, plural: string, namespaced: boolean): ResourceInfo =>
  resource({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind,
    plural,
    namespaced,
    definition: `io.k8s.api.rbac.v1.${kind}`,
    nameFormat: 'path-segment',
  });

export const BUILTIN_RESOURCES: readonly ResourceInfo[] = [
  core('Namespace', 'namespaces', false, {
    shortNames: ['ns'],
    verbs: VERBS_NO_COLLECTION_DELETE,
    nameFormat: 'dns1123-label',
    subresources: [{ name: 'finalize', verbs: ['update'] }, STATUS],
  }),
  core('ConfigMap', 'configmaps', true, { shortNames: ['cm'] }),
  core('Endpoints', 'endpoints', true, { shortNames: ['ep'] }),
  // Core v1 Event validation skips the name check for compatibility; only the generic path-segment rule applies.
  core('Event', 'events', true, { shortNames: ['ev'], nameFormat: 'path-segment' }),
  core('Node', 'nodes', false, { shortNames: ['no'], subresources: [STATUS] }),
  core('PersistentVolumeClaim', 'persistentvolumeclaims', true, { shortNames: ['pvc'], subresources: [STATUS] }),
  core('PersistentVolume', 'persistentvolumes', false, { shortNames: ['pv'], subresources: [STATUS] }),
  core('Pod', 'pods', true, { shortNames: ['po'], categories: ['all'], subresources: [STATUS] }),
  core('ReplicationController', 'replicationcontrollers', true, {
    shortNames: ['rc'],
    categories: ['all'],
    subresources: [SCALE, STATUS],
  }),
  core('Secret', 'secrets', true),
  core('ServiceAccount', 'serviceaccounts', true, {
    shortNames: ['sa'],
    subresources: [{ name: 'token', verbs: ['create'], group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }],
  }),
  core('Service', 'services', true, {
    shortNames: ['svc'],
    categories: ['all'],
    subresources: [STATUS],
    nameFormat: 'dns1035-label',
  }),
  resource({
    group: 'apiregistration.k8s.io',
    version: 'v1',
    kind: 'APIService',
    plural: 'apiservices',
    namespaced: false,
    definition: 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService',
    categories: ['api-extensions'],
    subresources: [STATUS],
    nameFormat: 'path-segment',
  }),
  apps('DaemonSet', 'daemonsets', 'ds'),
  apps('Deployment', 'deployments', 'deploy'),
  apps('ReplicaSet', 'replicasets', 'rs'),
  apps('StatefulSet', 'statefulsets', 'sts'),
  review('authentication', 'SelfSubjectReview'),
  review('authentication', 'TokenReview'),
  review('authorization', 'LocalSubjectAccessReview', true),
  review('authorization', 'SelfSubjectAccessReview'),
  review('authorization', 'SelfSubjectRulesReview'),
  review('authorization', 'SubjectAccessReview'),
  resource({
    group: 'batch',
    version: 'v1',
    kind: 'Job',
    plural: 'jobs',
    namespaced: true,
    definition: 'io.k8s.api.batch.v1.Job',
    categories: ['all'],
    subresources: [STATUS],
  }),
  resource({
    group: 'coordination.k8s.io',
    version: 'v1',
    kind: 'Lease',
    plural: 'leases',
    namespaced: true,
    definition: 'io.k8s.api.coordination.v1.Lease',
  }),
  resource({
    group: 'discovery.k8s.io',
    version: 'v1',
    kind: 'EndpointSlice',
    plural: 'endpointslices',
    namespaced: true,
    definition: 'io.k8s.api.discovery.v1.EndpointSlice',
  }),
  resource({
    group: 'events.k8s.io',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    namespaced: true,
    definition: 'io.k8s.api.events.v1.Event',
    shortNames: ['ev'],
  }),
  rbac('ClusterRoleBinding', 'clusterrolebindings', false),
  rbac('ClusterRole', 'clusterroles', false),
  rbac('RoleBinding', 'rolebindings', true),
  rbac('Role', 'roles', true),
  resource({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
    definition: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: [STATUS],
  }),
];
