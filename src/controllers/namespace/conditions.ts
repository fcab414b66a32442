/**
 * The five namespace deletion conditions (R5.20), recomputed on every pass. Every type is always present; a
 * condition's lastTransitionTime moves only when its status flips.
 */
export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
  lastTransitionTime: string;
}

export interface DeletionPassResult {
  /** Discovery errors per group-version ("<gv>: <err>"). */
  readonly discoveryErrors: readonly string[];
  readonly groupVersionErrors: readonly string[];
  /** Errors deleting or verifying content, one per resource. */
  readonly contentErrors: readonly string[];
  /** "<resource>.<group>" → remaining instances. */
  readonly remaining: ReadonlyMap<string, number>;
  /** finalizer → number of remaining instances carrying it. */
  readonly finalizers: ReadonlyMap<string, number>;
}

const sortedEntries = (m: ReadonlyMap<string, number>): [string, number][] =>
  [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

function discoveryMessage(errors: readonly string[]): string {
  return `Discovery failed for some groups, ${errors.length} failing: unable to retrieve the complete list of server APIs: ${[...errors].sort().join(', ')}`;
}

export function computeConditions(result: DeletionPassResult): Omit<NamespaceCondition, 'lastTransitionTime'>[] {
  const remaining = sortedEntries(result.remaining);
  const finalizers = sortedEntries(result.finalizers);
  return [
    result.discoveryErrors.length > 0
      ? {
          type: 'NamespaceDeletionDiscoveryFailure',
          status: 'True',
          reason: 'DiscoveryFailed',
          message: discoveryMessage(result.discoveryErrors),
        }
      : {
          type: 'NamespaceDeletionDiscoveryFailure',
          status: 'False',
          reason: 'ResourcesDiscovered',
          message: 'All resources successfully discovered',
        },
    result.groupVersionErrors.length > 0
      ? {
          type: 'NamespaceDeletionGroupVersionParsingFailure',
          status: 'True',
          reason: 'GroupVersionParsingFailed',
          message: result.groupVersionErrors.join(', '),
        }
      : {
          type: 'NamespaceDeletionGroupVersionParsingFailure',
          status: 'False',
          reason: 'ParsedGroupVersions',
          message: 'All legacy kube types successfully parsed',
        },
    result.contentErrors.length > 0
      ? {
          type: 'NamespaceDeletionContentFailure',
          status: 'True',
          reason: 'ContentDeletionFailed',
          message: `Failed to delete all resource types, ${result.contentErrors.length} remaining: ${[...result.contentErrors].sort().join(', ')}`,
        }
      : {
          type: 'NamespaceDeletionContentFailure',
          status: 'False',
          reason: 'ContentDeleted',
          message: 'All content successfully deleted, may be waiting on finalization',
        },
    remaining.length > 0
      ? {
          type: 'NamespaceContentRemaining',
          status: 'True',
          reason: 'SomeResourcesRemain',
          message: `Some resources are remaining: ${remaining.map(([r, n]) => `${r} has ${n} resource instances`).join(', ')}`,
        }
      : { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
    finalizers.length > 0
      ? {
          type: 'NamespaceFinalizersRemaining',
          status: 'True',
          reason: 'SomeFinalizersRemain',
          message: `Some content in the namespace has finalizers remaining: ${finalizers.map(([f, n]) => `${f} in ${n} resource instances`).join(', ')}`,
        }
      : {
          type: 'NamespaceFinalizersRemaining',
          status: 'False',
          reason: 'ContentHasNoFinalizers',
          message: 'All content-preserving finalizers finished',
        },
  ];
}

/** Merges freshly computed conditions into the stored ones; returns undefined when nothing meaningful changed. */
export function mergeConditions(
  stored: readonly NamespaceCondition[],
  computed: ReturnType<typeof computeConditions>,
  now: string,
): NamespaceCondition[] | undefined {
  let changed = false;
  const merged = computed.map((c) => {
    const previous = stored.find((s) => s.type === c.type);
    if (previous !== undefined && previous.status === c.status && previous.reason === c.reason && previous.message === c.message)
      return previous;
    changed = true;
    const lastTransitionTime = previous !== undefined && previous.status === c.status ? previous.lastTransitionTime : now;
    return { ...c, lastTransitionTime };
  });
  const others = stored.filter((s) => !computed.some((c) => c.type === s.type));
  return changed ? [...others, ...merged] : undefined;
}
