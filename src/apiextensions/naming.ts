import type { CrdCondition, CrdNames, CustomResourceDefinition } from './crd-types.js';

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
  const problems: string[] = [];
  if (usedResources.has(names.plural)) problems.push(`"${names.plural}" is already in use`);
  if (names.singular !== undefined && usedResources.has(names.singular)) problems.push(`"${names.singular}" is already in use`);
  for (const s of names.shortNames ?? []) if (usedResources.has(s)) problems.push(`"${s}" is already in use`);
  if (usedKinds.has(names.kind)) problems.push(`"${names.kind}" is already in use`);
  if (names.listKind !== undefined && usedKinds.has(names.listKind)) problems.push(`"${names.listKind}" is already in use`);
  if (problems.length > 0) {
    return { accepted: undefined, condition: { type: 'NamesAccepted', status: 'False', reason: 'NameConflict', message: problems[0] ?? '' } };
  }
  return { accepted: { ...names }, condition: { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' } };
}
