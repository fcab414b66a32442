import type { ResourceInfo, SubresourceInfo, Verb } from '../api/resource-info.js';
import { compareKubeAwareVersions } from '../discovery/kube-version.js';
import type { CrdNames, CrdVersion, CustomResourceDefinition } from '../api/crd-types.js';

/** Verbs of every custom resource, in the order the apiextensions server reports them. */
const CUSTOM_RESOURCE_VERBS: readonly Verb[] = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

/** What the registry needs, beyond discovery facts, to serve one version of a custom resource. */
export interface CustomResourceVersion {
  readonly crdName: string;
  readonly version: CrdVersion;
  readonly storageVersion: string;
  readonly preserveUnknownFields: boolean;
}

/** The OpenAPI definition name Kubernetes gives a custom kind: reversed group, version, kind ("com.example.v1.Widget"). */
export function customDefinitionName(group: string, version: string, kind: string): string {
  return [...group.split('.').reverse(), version, kind].join('.');
}

/**
 * The ResourceInfos a CRD serves, one per served version, named by its accepted names (R8.6 facts: singular defaults
 * to the lower-cased kind, listKind to "<kind>List").
 */
export function customResourceInfos(crd: CustomResourceDefinition, names: CrdNames): { info: ResourceInfo; custom: CustomResourceVersion }[] {
  const spec = crd.spec;
  const storage = spec.versions.find((v) => v.storage)?.name ?? spec.versions[0]?.name ?? '';
  // Served versions, preferred first: Kubernetes orders them by version priority (GA > beta > alpha, then number).
  const served = spec.versions.filter((v) => v.served).sort((a, b) => compareKubeAwareVersions(b.name, a.name));
  return served.map((version) => {
    const subresources: SubresourceInfo[] = [];
    if (version.subresources?.scale !== undefined) {
      subresources.push({ name: 'scale', verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1', kind: 'Scale' });
    }
    if (version.subresources?.status !== undefined) subresources.push({ name: 'status', verbs: ['get', 'patch', 'update'] });
    const info: ResourceInfo = {
      group: spec.group,
      version: version.name,
      kind: names.kind,
      listKind: names.listKind ?? `${names.kind}List`,
      plural: names.plural,
      singular: names.singular ?? names.kind.toLowerCase(),
      namespaced: spec.scope === 'Namespaced',
      verbs: CUSTOM_RESOURCE_VERBS,
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      subresources,
      nameFormat: 'dns1123-subdomain',
      definition: customDefinitionName(spec.group, version.name, names.kind),
      custom: true,
    };
    return {
      info,
      custom: { crdName: crd.metadata.name ?? '', version, storageVersion: storage, preserveUnknownFields: spec.preserveUnknownFields === true },
    };
  });
}
