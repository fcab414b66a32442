import type { ActorName, Attributes } from './actors.js';
import type { Kind } from './bodies.js';
import type { WireRequest } from './wire-client.js';

export const CATEGORIES = ['json-body', 'yaml-body', 'media-type', 'oversize', 'meta', 'query', 'patch', 'path', 'delete', 'rbac'] as const;
export type Category = (typeof CATEGORIES)[number];

/** One generated request and what the invariants need to know about it. */
export interface FuzzRequest extends WireRequest {
  readonly index: number;
  readonly category: Category;
  /** Which generator case made it: failures are grouped by it. */
  readonly variant: string;
  readonly actor: ActorName;
  /** RBAC attributes, known when the path was built from plain segments. */
  readonly intent: Attributes | undefined;
  /** An admin request that may change this object in the probe namespace: the harness compares it before and after. */
  readonly probe: { readonly path: string; readonly kind: Kind; readonly name: string } | undefined;
  /** dryRun=All: even a success must leave the probed object as it was. */
  readonly dryRun: boolean;
}
