import { isObject } from '../api/types.js';

/**
 * A reference path into an object, in the small JSONPath subset rules accept: dot-separated field names from the
 * root, each optionally followed by `[*]` to step into every member of a list — `.spec.providerName`,
 * `.spec.providers[*]`, `.spec.volumes[*].source.name`.
 */
export interface FieldPath {
  readonly text: string;
  readonly steps: readonly PathStep[];
}

interface PathStep {
  readonly field: string;
  readonly eachMember: boolean;
}

const STEP = /^([A-Za-z_$][A-Za-z0-9_$-]*)(\[\*\])?$/;

/** Parses a path; throws an Error whose message says what is wrong. */
export function parseFieldPath(text: string): FieldPath {
  if (!text.startsWith('.')) throw new Error('must start with "."');
  const steps = text
    .slice(1)
    .split('.')
    .map((segment) => {
      const match = STEP.exec(segment);
      if (match === null) throw new Error(`"${segment}" is not a field name optionally followed by [*]`);
      return { field: match[1] as string, eachMember: match[2] !== undefined };
    });
  return { text, steps };
}

/** Every value the path reaches; a missing field or a non-list under `[*]` contributes nothing. */
export function valuesAt(obj: unknown, path: FieldPath): unknown[] {
  let current: unknown[] = [obj];
  for (const step of path.steps) {
    const next: unknown[] = [];
    for (const value of current) {
      const child = isObject(value) ? value[step.field] : undefined;
      if (child === undefined || child === null) continue;
      if (!step.eachMember) next.push(child);
      else if (Array.isArray(child)) next.push(...child);
    }
    current = next;
  }
  return current;
}

/** The non-empty strings the path reaches: the names an object refers to through it. */
export function stringsAt(obj: unknown, path: FieldPath): string[] {
  return valuesAt(obj, path).filter((value): value is string => typeof value === 'string' && value !== '');
}
