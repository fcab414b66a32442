import type { Definitions } from '../openapi/schema.js';

const INDEXES = new WeakMap<Definitions, ReadonlyMap<string, string>>();

const key = (apiVersion: string, kind: string): string => `${apiVersion}\u0000${kind}`;

/** The definition whose `x-kubernetes-group-version-kind` names this apiVersion and kind, if any. */
export function definitionForKind(definitions: Definitions, apiVersion: string, kind: string): string | undefined {
  let index = INDEXES.get(definitions);
  if (index === undefined) {
    const built = new Map<string, string>();
    for (const [name, schema] of Object.entries(definitions)) {
      for (const gvk of schema['x-kubernetes-group-version-kind'] ?? []) {
        built.set(key(gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`, gvk.kind), name);
      }
    }
    INDEXES.set(definitions, built);
    index = built;
  }
  return index.get(key(apiVersion, kind));
}
