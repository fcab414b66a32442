import type { KeyValue, WatchEvent } from '../backend.js';

/** The columns of a log row that describe a key's state after the write. */
export interface StateRow {
  readonly id: number;
  readonly name: string;
  readonly created: number;
  readonly deleted: number;
  readonly create_revision: number;
  readonly value: Buffer;
}

/** A full log row, as a watch replays it. `old_value` is set on every update row (a CHECK constraint). */
export interface LogRow extends StateRow {
  readonly prev_revision: number;
  readonly old_value: Buffer | null;
}

export const STATE_COLUMNS = 'id, name, created, deleted, create_revision, value';
export const LOG_COLUMNS = `${STATE_COLUMNS}, prev_revision, old_value`;

export function createRevisionOf(row: StateRow): number {
  return row.created === 1 ? row.id : row.create_revision;
}

/** The key-value a row leaves behind; for a delete row, the deleted value at the deletion's revision. */
export function keyValueOf(row: StateRow): KeyValue {
  return { key: row.name, value: row.value, createRevision: createRevisionOf(row), modRevision: row.id };
}

/** The watch event a row records; prevKv is rebuilt from the row alone, so it survives compaction. */
export function eventOf(row: LogRow): WatchEvent {
  const kv = keyValueOf(row);
  if (row.created === 1) return { type: 'put', kv, revision: row.id };
  const prevKv: KeyValue = {
    key: row.name,
    value: row.deleted === 1 ? row.value : (row.old_value as Buffer),
    createRevision: kv.createRevision,
    modRevision: row.prev_revision,
  };
  return { type: row.deleted === 1 ? 'delete' : 'put', kv, prevKv, revision: row.id };
}
