/**
 * Which dependents may be using each provider, as the dependent informer last reported them: provider key →
 * dependent keys. The informer's own indices answer lookups with a copy of the whole set, which makes "is anyone
 * still using it?" cost O(users) on every reconsideration; this answers it in O(1).
 */
export class UsageIndex {
  private readonly users = new Map<string, Set<string>>();

  /** Replaces what `dependent` uses (an empty list when it was deleted). */
  set(dependent: string, before: readonly string[], after: readonly string[]): void {
    for (const provider of before) {
      const set = this.users.get(provider);
      set?.delete(dependent);
      if (set?.size === 0) this.users.delete(provider);
    }
    for (const provider of after) {
      let set = this.users.get(provider);
      if (set === undefined) {
        set = new Set();
        this.users.set(provider, set);
      }
      set.add(dependent);
    }
  }

  inUse(provider: string): boolean {
    return this.users.has(provider);
  }
}
