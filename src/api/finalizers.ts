/** Finalizer names with meaning to the API server and its controllers. */
export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';
export const FINALIZER_KUBERNETES = 'kubernetes';
/** The finalizer names without a domain prefix that Kubernetes accepts (ValidateFinalizerName's standard set). */
export const STANDARD_FINALIZERS: readonly string[] = [FINALIZER_KUBERNETES, FINALIZER_ORPHAN, FINALIZER_FOREGROUND];
