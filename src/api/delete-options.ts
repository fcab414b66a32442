/** metav1.DeleteOptions as clients send it and the registry reads it (rules R2.1–R2.15). */

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/** The garbage-collection default of a resource (R2.8): what DELETE does to dependents when the client says nothing. */
export type GcPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  orphanDependents?: boolean;
  propagationPolicy?: PropagationPolicy;
  dryRun?: string[];
}
