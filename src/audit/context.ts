import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The audit event being built for the request in progress, reachable from wherever the facts are learned
 * (authorization, admission plugins, the response writer) without passing it through every handler, as
 * kube-apiserver keeps it in the request context. Absent when no audit log is configured or the level is None.
 */
export interface AuditRecorder {
  /** Adds an annotation; the first value of a key stays (audit.AddAuditAnnotation). */
  annotate(key: string, value: string): void;
  /** The request's object as decoded: its namespace and name complete objectRef; logged at level Request and above. */
  requestObject(object: unknown): void;
  /** A response body; logged at level RequestResponse. */
  responseObject(object: unknown): void;
  /** The Status of a failed request, for responseStatus. */
  responseStatus(status: Record<string, unknown>): void;
}

const current = new AsyncLocalStorage<AuditRecorder>();

export function runWithAudit<T>(recorder: AuditRecorder, fn: () => T): T {
  return current.run(recorder, fn);
}

/** The recorder of the request in progress, if its events are logged. */
export function auditRecorder(): AuditRecorder | undefined {
  return current.getStore();
}

export function addAuditAnnotation(key: string, value: string): void {
  current.getStore()?.annotate(key, value);
}
