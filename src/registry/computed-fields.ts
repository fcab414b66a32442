import type { KubeObject } from '../api/types.js';

/**
 * A field-selector label whose values are computed from an object rather than read from one scalar field. It may
 * have several values (one per member of a list): `label=v` matches an object when any value equals v, and
 * `label!=v` when none does. This is the "computed field" of the in-use protection design: it lets a LIST ask for
 * exactly the objects that reference one name, even when the reference sits in a list.
 */
export type ComputedField = (obj: KubeObject) => readonly string[];

const NONE: ReadonlyMap<string, ComputedField> = new Map();

/**
 * The computed field-selector labels of every resource, by group and plural resource (all versions of a resource
 * share them, as they share storage). Whoever defines a label owns it and removes it when it no longer applies.
 */
export class ComputedFields {
  private readonly byResource = new Map<string, Map<string, ComputedField>>();

  define(group: string, resource: string, label: string, field: ComputedField): void {
    const key = `${group}/${resource}`;
    let labels = this.byResource.get(key);
    if (labels === undefined) {
      labels = new Map();
      this.byResource.set(key, labels);
    }
    labels.set(label, field);
  }

  remove(group: string, resource: string, label: string): void {
    const key = `${group}/${resource}`;
    const labels = this.byResource.get(key);
    labels?.delete(label);
    if (labels?.size === 0) this.byResource.delete(key);
  }

  /** The labels defined for a resource right now (an empty map when there are none). */
  of(group: string, resource: string): ReadonlyMap<string, ComputedField> {
    return this.byResource.get(`${group}/${resource}`) ?? NONE;
  }
}
