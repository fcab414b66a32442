/** metav1.DeleteOptions as clients send it and the registry reads it (rules R2.1–R2.15). */

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  orphanDependents?: boolean;
  propagationPolicy?: PropagationPolicy;
  dryRun?: string[];
}
