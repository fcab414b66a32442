/** Resource descriptions for the REST mapper tests. */

import { ALL_VERBS, type ResourceInfo } from '../../api/resource-info.js';

export interface FixtureOptions {
  singular?: string;
  namespaced?: boolean;
  shortNames?: string[];
  categories?: string[];
}

export function served(group: string, version: string, kind: string, plural: string, options: FixtureOptions = {}): ResourceInfo {
  return {
    group,
    version,
    kind,
    listKind: `${kind}List`,
    plural,
    singular: options.singular ?? kind.toLowerCase(),
    namespaced: options.namespaced ?? true,
    verbs: ALL_VERBS,
    shortNames: options.shortNames ?? [],
    categories: options.categories ?? [],
    subresources: [],
    nameFormat: 'dns1123-subdomain',
    definition: `${group}.${version}.${kind}`,
    custom: group.includes('.') && !group.endsWith('.k8s.io'),
  };
}
