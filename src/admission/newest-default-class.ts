import type { KubeObject } from '../api/types.js';
import { byCodeUnit } from '../util/by-code-unit.js';

/**
 * The class DefaultIngressClass and DefaultStorageClass both pick: among the classes marked as default, the newest,
 * ties going to the first name.
 */
export function newestDefaultClass(classes: readonly KubeObject[], isDefault: (c: KubeObject) => boolean): string | undefined {
  const candidates = classes
    .filter(isDefault)
    .map((c) => ({ name: c.metadata.name ?? '', created: Date.parse(c.metadata.creationTimestamp ?? '') || 0 }));
  candidates.sort((a, b) => b.created - a.created || byCodeUnit(a.name, b.name));
  return candidates[0]?.name;
}
