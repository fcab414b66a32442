import { isObject, type KubeObject } from '../../api/types.js';

/**
 * A kind's field selectors, as kube-apiserver v1.32 serves them. Two tables matter:
 * - the field label conversion registered for the kind (pkg/apis/<group>/<version>/conversion.go) decides which
 *   labels a request may use and the error text for the rest; kinds without one get apimachinery's default, which
 *   only knows metadata.name and metadata.namespace (so e.g. `status.replicas` on ReplicaSets is rejected even
 *   though the storage exposes it);
 * - the strategy's GetAttrs (pkg/registry/<group>/<kind>/strategy.go) decides the values objects are matched on.
 */
export interface FieldSelectors {
  /** The kind's own conversion; omitted: apimachinery's default. */
  readonly conversion?: FieldLabelConversion;
  /** Values beyond metadata.name and metadata.namespace (which every kind has). */
  readonly attrs?: (obj: KubeObject) => Record<string, string>;
}

export interface FieldLabelConversion {
  readonly labels: ReadonlySet<string>;
  /** Labels rewritten before matching (legacy spellings). */
  readonly renames?: Readonly<Record<string, string>>;
  readonly error: (label: string) => string;
}

/** The error text of most core/v1 conversions. */
export const notSupported = (label: string): string => `field label not supported: ${label}`;

/** The value at `path`, or undefined when a step is not an object. */
export const fieldAt = (value: unknown, ...path: string[]): unknown => {
  let current = value;
  for (const key of path) current = isObject(current) ? current[key] : undefined;
  return current;
};

/** Field values are Go's string forms of the field: "" for an absent string, "0" and "false" for absent numbers and flags. */
export const textAttr = (value: unknown): string => (typeof value === 'string' ? value : '');
export const integerAttr = (value: unknown): string => (typeof value === 'number' ? String(Math.trunc(value)) : '0');
export const flagAttr = (value: unknown): string => (value === true ? 'true' : 'false');
