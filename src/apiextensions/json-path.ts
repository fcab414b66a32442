/**
 * The JSONPath subset CRDs use in additionalPrinterColumns and scale paths: `.a.b`, `.a[0]`, `.a[*].b`,
 * `.a['x.y']` and filters `.a[?(@.type=="Ready")].status`. Returns every match, in document order.
 */
type Step = { kind: 'field'; name: string } | { kind: 'index'; index: number } | { kind: 'all' } | { kind: 'filter'; field: string[]; value: string };

export class JsonPathError extends Error {
  constructor(path: string, detail: string) {
    super(`invalid JSONPath ${JSON.stringify(path)}: ${detail}`);
    this.name = 'JsonPathError';
  }
}

export function parseJsonPath(path: string): Step[] {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1);
  if (p.startsWith('$')) p = p.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < p.length) {
    const c = p[i];
    if (c === '.') {
      i++;
      const start = i;
      while (i < p.length && p[i] !== '.' && p[i] !== '[') i++;
      if (i > start) steps.push({ kind: 'field', name: p.slice(start, i) });
    } else if (c === '[') {
      const end = p.indexOf(']', i);
      if (end < 0) throw new JsonPathError(path, 'unclosed [');
      const inner = p.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') steps.push({ kind: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else {
        const filter = /^\?\(@((?:\.[^.=!]+)+)\s*==\s*(?:"([^"]*)"|'([^']*)'|([^)\s]+))\)$/.exec(inner);
        if (filter === null) throw new JsonPathError(path, `unsupported expression [${inner}]`);
        steps.push({ kind: 'filter', field: (filter[1] ?? '').slice(1).split('.'), value: filter[2] ?? filter[3] ?? filter[4] ?? '' });
      }
    } else {
      throw new JsonPathError(path, `unexpected ${JSON.stringify(c)}`);
    }
  }
  return steps;
}

function child(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}

export function evaluateJsonPath(steps: readonly Step[], root: unknown): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of current) {
      switch (step.kind) {
        case 'field': {
          const v = child(value, step.name);
          if (v !== undefined) next.push(v);
          break;
        }
        case 'index':
          if (Array.isArray(value)) {
            const v = value[step.index < 0 ? value.length + step.index : step.index];
            if (v !== undefined) next.push(v);
          }
          break;
        case 'all':
          if (Array.isArray(value)) next.push(...value);
          else if (value !== null && typeof value === 'object') next.push(...Object.values(value));
          break;
        case 'filter':
          if (Array.isArray(value)) {
            for (const item of value) {
              let v: unknown = item;
              for (const f of step.field) v = child(v, f);
              if (v !== undefined && String(v) === step.value) next.push(item);
            }
          }
          break;
      }
    }
    current = next;
  }
  return current;
}
