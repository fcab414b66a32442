import type { KeyValue } from './backend.js';

export class KeyExistsError extends Error {
  constructor(readonly key: string) {
    super(`key already exists: ${key}`);
    this.name = 'KeyExistsError';
  }
}

export class KeyNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`key not found: ${key}`);
    this.name = 'KeyNotFoundError';
  }
}

/** A compare-and-swap lost: `current` is the value that won. */
export class RevisionConflictError extends Error {
  constructor(
    readonly key: string,
    readonly current: KeyValue,
  ) {
    super(`revision conflict on ${key}: current modRevision is ${current.modRevision}`);
    this.name = 'RevisionConflictError';
  }
}

export class CompactedError extends Error {
  constructor(
    readonly requestedRevision: number,
    readonly compactedRevision: number,
  ) {
    super(`revision ${requestedRevision} has been compacted (oldest available is ${compactedRevision})`);
    this.name = 'CompactedError';
  }
}

export class FutureRevisionError extends Error {
  constructor(
    readonly requestedRevision: number,
    readonly currentRevision: number,
  ) {
    super(`revision ${requestedRevision} is in the future (current is ${currentRevision})`);
    this.name = 'FutureRevisionError';
  }
}
