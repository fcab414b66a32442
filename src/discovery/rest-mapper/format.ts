/**
 * String forms Kubernetes prints for schema types (runtime/schema String methods and Go's %q/%v verbs),
 * so that mapper error messages read exactly like Kubernetes'.
 */

import type { GroupResource, GroupVersionKind, GroupVersionResource } from './types.js';

/** schema.GroupVersionResource.String(): "apps/v1, Resource=deployments", "/, Resource=pods". */
export function formatGroupVersionResource(gvr: GroupVersionResource): string {
  return `${gvr.group}/${gvr.version}, Resource=${gvr.resource}`;
}

/** schema.GroupVersionKind.String(): "apps/v1, Kind=Deployment". */
export function formatGroupVersionKind(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}, Kind=${gvk.kind}`;
}

/** schema.GroupVersion.String(): the bare version for the core group. */
export function formatGroupVersion(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** schema.GroupResource.String(): "deployments.apps", or the bare resource for the core group. */
export function formatGroupResource(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

/** Go's %v of a slice: "[a b c]". */
export function formatGoList(items: readonly string[]): string {
  return `[${items.join(' ')}]`;
}
