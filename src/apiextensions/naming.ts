import type { CrdCondition, CrdNames, CustomResourceDefinition } from '../api/crd-types.js';

export interface NamingResult {
  /** The accepted names; undefined when a name is held by another CRD of the same group. */
  readonly accepted: CrdNames | undefined;
  readonly condition: Omit<CrdCondition, 'lastTransitionTime'>;
}

/** Names another CRD holds: its group and the names it was accepted with. */
export interface NameHolder {
  readonly group: string;
  readonly names: CrdNames;
}

/**
 * The naming controller's decision: within one group, plural, singular and short names must be unique across
 * resources, and kind and listKind across kinds; names already accepted by another CRD win (the earlier one).
 */
export function acceptNames(crd: CustomResourceDefinition, holders: readonly NameHolder[]): NamingResult {
  const names = crd.spec.names;
  const usedResources = new Set<string>();
  const usedKinds = new Set<string>();
  for (const holder of holders) {
    if (holder.group !== crd.spec.group) continue;
    const n = holder.names;
    for (const r of [n.plural, n.singular, ...(n.shortNames ?? [])]) if (r) usedResources.add(r);
    for (const k of [n.kind, n.listKind]) if (k) usedKinds.add(k);
  }
  // The naming controller checks in this order and reports the first clash by the field that clashed.
  const checks: [string, string | undefined, Set<string>][] = [
    ['PluralConflict', names.plural, usedResources],
    ['SingularConflict', names.singular, usedResources],
    ...(names.shortNames ?? []).map((s): [string, string, Set<string>] => ['ShortNamesConflict', s, usedResources]),
    ['KindConflict', names.kind, usedKinds],
    ['ListKindConflict', names.listKind, usedKinds],
  ];
  for (const [reason, name, used] of checks) {
    if (name !== undefined && used.has(name)) {
      return { accepted: undefined, condition: { type: 'NamesAccepted', status: 'False', reason, message: `"${name}" is already in use` } };
    }
  }
  return { accepted: { ...names }, condition: { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' } };
}
