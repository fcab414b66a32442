/**
 * Why a controller deletes an object, handed along with its DELETE so the archive can say why the object went
 * (issue 28). Only in-process callers can give one: it is not part of DeleteOptions, so no HTTP client can forge it.
 */
export type DeletionCause =
  /**
   * The garbage collector found every owner gone or being deleted: the dependent's owner references (the very
   * array it read, not a copy: a cascade hands one per dependent).
   */
  | { readonly reason: 'Cascade'; readonly owners: readonly { readonly uid: string; readonly controller?: boolean }[] }
  /** The namespace controller empties a terminating namespace. */
  | { readonly reason: 'NamespaceTerminating'; readonly namespace: string }
  /** The CustomResourceDefinition controller removes the instances of a deleted CRD (its name). */
  | { readonly reason: 'CRDRemoval'; readonly crd: string };

/** Every reason an archive entry can give: the causes above, a client's direct DELETE, or its last finalizer dropped. */
export type DeletionReason = DeletionCause['reason'] | 'Delete' | 'Finalized';
