import type { ComponentHome } from './finalizer-owners.js';
import type { ObjectRef } from './object-ref.js';
import type { ReferenceProblem } from './owner-references.js';
import type { ListFailure } from './snapshot.js';

/**
 * The `cascade explain -o json` document (version 1). Fields are only ever added; a consumer may rely on every
 * field listed here being present unless marked optional.
 */
export interface CascadeExplanation {
  readonly kind: 'CascadeExplanation';
  readonly version: 1;
  readonly target: ObjectExplanation;
  /** APIServices whose Available condition is False: their resources cannot be listed or cleaned up (D8). */
  readonly unavailableApiServices: readonly UnavailableApiService[];
  /** Resources that could not be listed: the explanation may miss dependents or content of these types. */
  readonly incomplete: readonly ListFailure[];
}

export interface FinalizerExplanation {
  readonly name: string;
  /** The component expected to remove the finalizer; null when nothing known handles it. */
  readonly component: string | null;
  readonly home: ComponentHome | null;
  /** Whether a Cascade server runs that component (false for unknown finalizers). */
  readonly inCascade: boolean;
  /** One sentence about this finalizer on this object right now. */
  readonly detail: string;
}

export interface BlockingDependent {
  /** Whether the blocking reference is also the controller reference. */
  readonly controller: boolean;
  readonly explanation: ObjectExplanation;
}

/** Why one object is still there. Recursive through blocking dependents and namespace content. */
export interface ObjectExplanation {
  readonly object: ObjectRef;
  readonly terminating: boolean;
  readonly deletionTimestamp?: string;
  /** metadata.finalizers in order, each with its remover. */
  readonly finalizers: readonly FinalizerExplanation[];
  /** With foregroundDeletion: the dependents whose blockOwnerDeletion reference keeps this object (R4.31). */
  readonly blockingDependents: readonly BlockingDependent[];
  /** With orphan: the dependents that still reference this object (R4.34). */
  readonly orphaning: readonly ObjectRef[];
  /** For an object not yet being deleted that something waits on: why the garbage collector has not deleted it. */
  readonly notDeletedBecause?: string;
  /** A pod in its graceful termination period (no finalizers needed to keep it). */
  readonly gracePeriod?: { readonly seconds: number; readonly until: string };
  readonly ownerReferenceProblems: readonly ReferenceProblem[];
  /** Present for namespaces. */
  readonly namespace?: NamespaceExplanation;
  /** Set when this object was already explained higher up the chain (an ownership cycle). */
  readonly seenAbove?: true;
}

export interface NamespaceCondition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

export interface NamespaceExplanation {
  readonly phase: string;
  /** spec.finalizers, removed through /finalize (R5.19). */
  readonly specFinalizers: readonly FinalizerExplanation[];
  /** status.conditions whose status is True: the namespace controller's own account of what blocks it (R5.20). */
  readonly problems: readonly NamespaceCondition[];
  readonly remaining: readonly RemainingResource[];
}

export interface RemainingResource {
  /** Qualified resource, e.g. "widgets.example.com". */
  readonly resource: string;
  readonly count: number;
  /** finalizer → instances carrying it. */
  readonly finalizers: Readonly<Record<string, number>>;
  readonly objects: readonly ObjectExplanation[];
}

export interface UnavailableApiService {
  readonly name: string;
  readonly reason: string;
  readonly message: string;
}
