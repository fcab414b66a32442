/**
 * Bounds on how deeply a request body may nest.
 *
 * Kubernetes' JSON scanner and YAML parser stop at a depth of 10,000. Go's stacks grow as needed, so everything
 * past its decoders copes with that depth; V8's stack does not: JSON.stringify, structuredClone and the recursive
 * walks of the patch engines, the decoder and the CRD schema code overflow between roughly 800 and 4,000 levels,
 * and the `yaml` package already at about 780. A stack overflow is not always a catchable RangeError either: V8
 * aborts the whole process when it runs out of stack while compiling a regular expression. So every body is also
 * held to a much lower depth, checked before anything recursive sees it, and objects can never grow past it.
 */

/** Kubernetes' limit (encoding/json's maxNestingDepth, go-yaml's max_flow_level and max_indents). */
export const KUBERNETES_MAX_DEPTH = 10_000;

/**
 * Cascade's limit: no object it decodes, patches or stores nests deeper, so that every recursive walk of user
 * data keeps a wide margin below V8's stack. Real objects nest a few dozen levels at most.
 */
export const MAX_OBJECT_DEPTH = 512;

/**
 * How deeply `value` nests (a scalar is 0, `[]` and `{}` are 1), without recursion, stopping as soon as it passes
 * `limit`. Values reached twice (YAML aliases share them) are walked each time; the YAML parser's alias budget keeps
 * that small.
 */
export function nestingDepth(value: unknown, limit: number = MAX_OBJECT_DEPTH): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const node = stack.pop();
    const depth = depths.pop() as number;
    if (depth > deepest) {
      deepest = depth;
      if (deepest > limit) return deepest;
    }
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return deepest;
}
