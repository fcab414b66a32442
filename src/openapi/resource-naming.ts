import type { ResourceInfo } from '../api/resource-info.js';
import {
  capitalize,
  type GroupVersionKind,
  groupIdentifier,
  groupVersionPrefix,
  groupVersionTag,
  type OperationSpec,
  type ParameterSpec,
} from './operation-spec.js';
import { NAMESPACE_PARAM } from './parameters.js';

/** The names one resource's operations are built from, computed once and shared by its path builders. */
export interface ResourceNaming {
  resource: ResourceInfo;
  gvk: GroupVersionKind;
  tag: string;
  /** "CoreV1", "AppsV1": the group-version part of operation ids. */
  id: string;
  /** "Namespaced" for namespaced resources, else empty: the scope part of operation ids. */
  scoped: string;
  /** "/api/v1", "/apis/apps/v1". */
  prefix: string;
  /** "/namespaces/{namespace}" for namespaced resources, else empty. */
  nsPath: string;
  nsParams: ParameterSpec[];
  /** The path of the collection, then of one item. */
  collection: string;
  item: string;
}

export function resourceNaming(resource: ResourceInfo): ResourceNaming {
  const { group, version, kind, plural } = resource;
  const prefix = groupVersionPrefix(group, version);
  const nsPath = resource.namespaced ? '/namespaces/{namespace}' : '';
  const collection = `${prefix}${nsPath}/${plural}`;
  return {
    resource,
    gvk: { group, version, kind },
    tag: groupVersionTag(group, version),
    id: `${groupIdentifier(group)}${capitalize(version)}`,
    scoped: resource.namespaced ? 'Namespaced' : '',
    prefix,
    nsPath,
    nsParams: resource.namespaced ? [NAMESPACE_PARAM] : [],
    collection,
    item: `${collection}/{name}`,
  };
}

/** An operation of the resource: tagged with its group-version and, unless given, its own kind. */
export function resourceOperation(
  naming: ResourceNaming,
  spec: Omit<OperationSpec, 'tag' | 'gvk'>,
  gvk: GroupVersionKind = naming.gvk,
): OperationSpec {
  return { ...spec, tag: naming.tag, gvk };
}
