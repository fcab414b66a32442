import { ALL_VERBS, type ResourceInfo, type SubresourceInfo, type Verb } from '../api/resource-info.js';
import type { APIResourceList } from '../discovery/types.js';

function verbsOf(verbs: readonly string[]): Verb[] {
  return verbs.filter((v): v is Verb => (ALL_VERBS as readonly string[]).includes(v));
}

/**
 * The resources an aggregated API server lists, as the in-process controllers address them. Discovery carries no
 * name rules or OpenAPI definition names: the DNS subdomain rule and an empty definition stand in for them. They
 * count as custom resources: an aggregated server need not accept strategic merge patches, so controllers patch
 * them with JSON merge patches as they do custom resources.
 */
export function resourceInfosOf(group: string, version: string, list: APIResourceList): ResourceInfo[] {
  const subresources = list.resources.filter((r) => r.name.includes('/'));
  return list.resources
    .filter((r) => !r.name.includes('/'))
    .map((r) => ({
      group,
      version,
      kind: r.kind,
      listKind: `${r.kind}List`,
      plural: r.name,
      singular: r.singularName !== '' ? r.singularName : r.kind.toLowerCase(),
      namespaced: r.namespaced,
      verbs: verbsOf(r.verbs),
      shortNames: r.shortNames ?? [],
      categories: r.categories ?? [],
      subresources: subresources
        .filter((s) => s.name.startsWith(`${r.name}/`))
        .map((s): SubresourceInfo => {
          const name = s.name.slice(r.name.length + 1);
          const otherKind = s.kind !== '' && s.kind !== r.kind;
          return otherKind
            ? { name, verbs: verbsOf(s.verbs), group: s.group ?? group, version: s.version ?? version, kind: s.kind }
            : { name, verbs: verbsOf(s.verbs) };
        }),
      nameFormat: 'dns1123-subdomain',
      definition: '',
      custom: true,
    }));
}
