export type {
  Backend,
  GetResult,
  KeyValue,
  ListOptions,
  ListResult,
  WatchEvent,
  WatchEventType,
  Watcher,
} from './backend.js';
export {
  CompactedError,
  FutureRevisionError,
  KeyExistsError,
  KeyNotFoundError,
  RevisionConflictError,
} from './errors.js';
export { createMemoryBackend, DEFAULT_HISTORY_LIMIT, type MemoryBackendOptions } from './memory/backend.js';
