/** Finalizer names with meaning to the API server and its controllers. */
export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';
export const FINALIZER_KUBERNETES = 'kubernetes';
