/**
 * Priority patterns (apimachinery's PriorityRESTMapper) that break ties between candidates from
 * several group-versions (R7.4, R7.9).
 */

/** A group-version pattern; `*` matches any group or version. */
export interface PriorityPattern {
  readonly group: string;
  readonly version: string;
}

export const ANY = '*';

function matchesPattern(pattern: PriorityPattern, candidate: { group: string; version: string }): boolean {
  return (pattern.group === ANY || pattern.group === candidate.group) && (pattern.version === ANY || pattern.version === candidate.version);
}

/**
 * Narrows candidates pattern by pattern: a pattern matching none is skipped, one matching exactly one
 * candidate picks it, one matching several keeps only those for the next pattern. Returns the pick, or
 * the candidates left when no pattern singled one out.
 */
export function narrowByPriority<T>(
  candidates: readonly T[],
  patterns: readonly PriorityPattern[],
  groupVersionOf: (candidate: T) => { group: string; version: string },
): { picked: T } | { remaining: readonly T[] } {
  let remaining = candidates;
  for (const pattern of patterns) {
    const matching = remaining.filter((candidate) => matchesPattern(pattern, groupVersionOf(candidate)));
    if (matching.length === 1 && matching[0] !== undefined) return { picked: matching[0] };
    if (matching.length > 1) remaining = matching;
  }
  return { remaining };
}

/**
 * client-go's discovery mapper priorities: core v1 first; then, group by group in discovery order, the
 * group's preferred version followed by its other versions; then any version of each group in order.
 */
export function discoveryPriorities(groups: readonly { group: string; versions: readonly string[] }[]): PriorityPattern[] {
  const patterns: PriorityPattern[] = [{ group: '', version: 'v1' }];
  for (const { group, versions } of groups) {
    for (const version of versions) patterns.push({ group, version });
  }
  for (const { group } of groups) patterns.push({ group, version: ANY });
  return patterns;
}
