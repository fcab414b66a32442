/**
 * kubectl's reading of a resource-type argument (runtime/schema ParseResourceArg and ParseKindArg):
 * `a.b.c` may mean resource `a` in version `b` of group `c`, or resource `a` of group `b.c`; the caller
 * tries the first reading and falls back to the second.
 */

import type { GroupKind, GroupResource, GroupVersionKind, GroupVersionResource } from './types.js';

export interface ParsedResourceArgument {
  /** The `resource.version.group` reading; present only when the argument has at least two dots. */
  readonly fullySpecified?: GroupVersionResource;
  /** The `resource.group` reading: everything after the first dot is the group. */
  readonly groupResource: GroupResource;
}

export interface ParsedKindArgument {
  readonly fullySpecified?: GroupVersionKind;
  readonly groupKind: GroupKind;
}

/** Splits at the first dot: "deployments.apps" → ["deployments", "apps"], "pods" → ["pods", ""]. */
function splitFirstDot(arg: string): [string, string] {
  const dot = arg.indexOf('.');
  return dot < 0 ? [arg, ''] : [arg.slice(0, dot), arg.slice(dot + 1)];
}

/** Splits into name, version and group when the argument has at least two dots. */
function splitVersioned(arg: string): [string, string, string] | undefined {
  const [name, rest] = splitFirstDot(arg);
  if (!rest.includes('.')) return undefined;
  const [version, group] = splitFirstDot(rest);
  return [name, version, group];
}

export function parseResourceArgument(arg: string): ParsedResourceArgument {
  const [resource, group] = splitFirstDot(arg);
  const versioned = splitVersioned(arg);
  const groupResource = { group, resource };
  if (versioned === undefined) return { groupResource };
  const [name, version, versionedGroup] = versioned;
  return { fullySpecified: { group: versionedGroup, version, resource: name }, groupResource };
}

export function parseKindArgument(arg: string): ParsedKindArgument {
  const [kind, group] = splitFirstDot(arg);
  const versioned = splitVersioned(arg);
  const groupKind = { group, kind };
  if (versioned === undefined) return { groupKind };
  const [name, version, versionedGroup] = versioned;
  return { fullySpecified: { group: versionedGroup, version, kind: name }, groupKind };
}
