import type { KeyValue } from './backend.js';

export class KeyExistsError extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`key already exists: ${key}`);
    this.name = 'KeyExistsError';
    this.key = key;
  }
}

export class KeyNotFoundError extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`key not found: ${key}`);
    this.name = 'KeyNotFoundError';
    this.key = key;
  }
}

/** A compare-and-swap lost: `current` is the value that won. */
export class RevisionConflictError extends Error {
  readonly key: string;
  readonly current: KeyValue;
  constructor(key: string, current: KeyValue) {
    super(`revision conflict on ${key}: current modRevision is ${current.modRevision}`);
    this.name = 'RevisionConflictError';
    this.key = key;
    this.current = current;
  }
}

export class CompactedError extends Error {
  readonly requestedRevision: number;
  readonly compactedRevision: number;
  constructor(requestedRevision: number, compactedRevision: number) {
    super(`revision ${requestedRevision} has been compacted (oldest available is ${compactedRevision})`);
    this.name = 'CompactedError';
    this.requestedRevision = requestedRevision;
    this.compactedRevision = compactedRevision;
  }
}

export class FutureRevisionError extends Error {
  readonly requestedRevision: number;
  readonly currentRevision: number;
  constructor(requestedRevision: number, currentRevision: number) {
    super(`revision ${requestedRevision} is in the future (current is ${currentRevision})`);
    this.name = 'FutureRevisionError';
    this.requestedRevision = requestedRevision;
    this.currentRevision = currentRevision;
  }
}

/**
 * The store failed a call: it could not be reached, did not answer within the deadline, or the call's outcome is
 * unknown (a write that may have been applied is never sent again). kube-apiserver passes such errors through
 * as they are: a 500 Status whose message is the error's, with no reason.
 */
export class StorageUnavailableError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'StorageUnavailableError';
  }
}

/** An answer the storage contract expects (the key exists, a conflict, a compacted revision), not a failure of the store. */
export function isContractAnswer(error: unknown): boolean {
  return (
    error instanceof KeyExistsError ||
    error instanceof KeyNotFoundError ||
    error instanceof RevisionConflictError ||
    error instanceof CompactedError ||
    error instanceof FutureRevisionError ||
    error instanceof RangeError
  );
}
