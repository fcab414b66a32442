import type { FieldError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import type { UserInfo } from '../api/user.js';
import type { SubresourceUpdate } from '../kinds/define/strategy-options.js';
import type { Printer } from '../tables/printer.js';
import type { DeleteOptions } from '../api/delete-options.js';
import type { GcPolicy } from '../api/delete-options.js';

/**
 * Per-type hooks of the generic store, mirroring rest.RESTCreateStrategy / RESTUpdateStrategy /
 * RESTDeleteStrategy. Every hook may mutate the object it is given; none does I/O.
 */
export interface Strategy {
  /** Fills defaulted fields (API defaulting), on create and on update. */
  applyDefaults(obj: KubeObject): void;
  /** Normalises a new object before validation: resets status, sets generation. */
  prepareForCreate(obj: KubeObject, user?: UserInfo): void;
  /** Carries server-owned state from the stored object and bumps generation when the desired state changed. */
  prepareForUpdate(next: KubeObject, old: KubeObject): void;
  /** For the /status subresource: keeps everything but status (and what the type lets status writers change). */
  prepareForStatusUpdate(next: KubeObject, old: KubeObject): void;
  /** Subresources other than status and finalize that write (CertificateSigningRequests' approval). */
  readonly subresourceUpdates?: Readonly<Record<string, SubresourceUpdate>>;
  /** For the namespaces' /finalize subresource: keeps everything but spec.finalizers. */
  prepareForFinalizeUpdate(next: KubeObject, old: KubeObject): void;
  validate(obj: KubeObject): FieldError[];
  /** Warnings for a valid new object (rest.RESTCreateStrategy.WarningsOnCreate). */
  warningsOnCreate?(obj: KubeObject): string[];
  warningsOnUpdate?(next: KubeObject, old: KubeObject): string[];
  validateUpdate(next: KubeObject, old: KubeObject): FieldError[];
  /** Validation of a write through /status, after prepareForStatusUpdate kept everything else. */
  validateStatusUpdate(next: KubeObject, old: KubeObject): FieldError[];
  /** Whether PUT without metadata.resourceVersion is accepted as last-write-wins (R1.7). */
  readonly allowUnconditionalUpdate: boolean;
  /** Whether a DELETE that removes the object answers with the object (true) or a Success Status (R2.25). */
  readonly returnDeletedObject: boolean;
  readonly gcPolicy: GcPolicy;
  /** Why a single DELETE of this name is refused (Forbidden), or undefined; deletecollection does not ask. */
  deleteRefusal?(name: string): string | undefined;
  /** The metadata finalizers a DELETE leaves (R2.13–R2.15; namespaces differ, R5.6). */
  deletionFinalizers(opts: DeleteOptions, finalizers: readonly string[], obj: KubeObject): { changed: boolean; finalizers: string[] };
  /**
   * An annotation the DELETE path sets (a string) or removes (null) on the object it keeps, given the finalizers it
   * keeps it with (--propagate-grace-period, src/registry/grace-propagation.ts); undefined: none changes.
   */
  deletionAnnotation?(
    opts: DeleteOptions,
    obj: KubeObject,
    finalizers: readonly string[],
  ): { readonly name: string; readonly value: string | null } | undefined;
  /** Graceful deletion (pods): the grace period to use, or undefined for non-graceful types (R2.17). */
  gracePeriodFor(obj: KubeObject, requested: number | undefined): number | undefined;
  /** Adjusts an object the DELETE path is about to keep as terminating (namespaces enter phase Terminating). */
  markDeleting(obj: KubeObject): void;
  /**
   * Drops fields the type's schema does not know and returns their paths, for fieldValidation=Strict|Warn.
   * Built-in types are checked by the typed decoder instead; custom resources prune by their CRD schema.
   */
  pruneUnknownFields?(obj: KubeObject): string[];
  /** Where the /scale subresource reads and writes replicas (custom resources name their own paths). */
  readonly scale?: { readonly specReplicasPath: string; readonly statusReplicasPath: string; readonly labelSelectorPath?: string };
  /** Table columns for types the built-in printers do not know (custom resources' additionalPrinterColumns). */
  readonly printer?: Printer;
  /** Extra condition before a deleting object with no finalizers may be removed (namespaces, R2.38). */
  readyToRemove(obj: KubeObject): boolean;
}

export type StrategyFactory = (info: ResourceInfo) => Strategy;
