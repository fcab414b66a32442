import type { DeleteOptions, GcPolicy } from '../../api/delete-options.js';
import type { FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { UserInfo } from '../../api/user.js';

/**
 * How the generic store specialises for a kind (rest.Strategy analogue): the registry's genericStrategy turns
 * these options into the store's hooks; every option left out keeps the generic behaviour.
 */
export interface StrategyOptions {
  /** Types with spec semantics start at generation 1 and bump it on desired-state changes (R1.8, R1.9). */
  readonly specGeneration?: boolean;
  /** Status to set on create for types with a status subresource; `keep` keeps what the client sent (nodes). */
  readonly initialStatus?: ((obj: KubeObject) => Record<string, unknown>) | 'keep';
  /** Status fields always served (Go writes their zero values), filled in on create and on status writes. */
  readonly statusZeroValues?: Readonly<Record<string, unknown>>;
  /** Whether a DELETE that removes the object answers with the object rather than a Status (R2.25). */
  readonly returnDeletedObject?: boolean;
  /** What DELETE does to dependents when the client says nothing (R2.8); DeleteDependents when omitted. */
  readonly gcPolicy?: GcPolicy;
  /**
   * Why a DELETE of this name is refused (403) before anything else, or undefined to go ahead (the REST Delete
   * override of system PriorityClasses). DeleteCollection goes round it, as Kubernetes' generic store does.
   */
  readonly deleteRefusal?: (name: string) => string | undefined;
  readonly allowUnconditionalUpdate?: boolean;
  /** API defaulting (pkg/apis/<group>/<version>/defaults.go), on create and on update. */
  readonly defaults?: (obj: KubeObject) => void;
  readonly validate?: (obj: KubeObject) => FieldError[];
  readonly validateUpdate?: (next: KubeObject, old: KubeObject) => FieldError[];
  /** Validation of a write through /status (the status strategy's ValidateUpdate); validateUpdate when omitted. */
  readonly validateStatusUpdate?: (next: KubeObject, old: KubeObject) => FieldError[];
  /** Create-time normalisation; `user` is who creates (CertificateSigningRequests record their requester). */
  readonly prepareForCreate?: (obj: KubeObject, user: UserInfo | undefined) => void;
  /** What a /status write keeps beyond status, after everything else was restored from the stored object. */
  readonly prepareForStatusUpdate?: (next: KubeObject, old: KubeObject) => void;
  /** Writes through other subresources (CertificateSigningRequests' approval): what they keep and how they are checked. */
  readonly subresourceUpdates?: Readonly<Record<string, SubresourceUpdate>>;
  /** Graceful deletion (pods): the grace period a DELETE applies, or undefined for none (R2.17). */
  readonly gracePeriodFor?: (obj: KubeObject, requested: number | undefined) => number | undefined;
  readonly readyToRemove?: (obj: KubeObject) => boolean;
  readonly markDeleting?: (obj: KubeObject) => void;
  /** The metadata finalizers a DELETE leaves, when the kind does not follow the GC rules (namespaces, R5.6). */
  readonly deletionFinalizers?: (
    opts: DeleteOptions,
    finalizers: readonly string[],
    obj: KubeObject,
  ) => { changed: boolean; finalizers: string[] };
  readonly prepareForUpdate?: (next: KubeObject, old: KubeObject) => void;
  /**
   * What a write through /status takes from the stored object, for kinds whose status strategy restores less than
   * metav1.ResetObjectMetaForStatus (the default: everything but status); prepareForStatusUpdate runs after it.
   */
  readonly resetForStatusUpdate?: (next: KubeObject, old: KubeObject) => void;
  readonly warningsOnCreate?: (obj: KubeObject) => string[];
  readonly warningsOnUpdate?: (next: KubeObject, old: KubeObject) => string[];
}

/** A subresource's update strategy (e.g. csrApprovalStrategy): its PrepareForUpdate and ValidateUpdate. */
export interface SubresourceUpdate {
  prepare(next: KubeObject, old: KubeObject): void;
  validate(next: KubeObject, old: KubeObject): FieldError[];
}
