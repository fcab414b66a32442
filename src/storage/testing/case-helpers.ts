import assert from 'node:assert/strict';
import type { KeyValue } from '../backend.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

export function text(kv: KeyValue | undefined): string | undefined {
  return kv === undefined ? undefined : decoder.decode(kv.value);
}

export function keysOf(kvs: readonly KeyValue[]): string[] {
  return kvs.map((kv) => kv.key);
}

/** Awaits the promise, asserts it rejected with an instance of errorClass and returns that error. */
export async function rejectionOf<E extends Error>(
  promise: Promise<unknown>,
  errorClass: abstract new (...args: never[]) => E,
): Promise<E> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof errorClass, `expected ${errorClass.name}, got ${String(error)}`);
    return error;
  }
  assert.fail(`expected ${errorClass.name}, but the promise resolved`);
}

export interface KvSummary {
  readonly key: string;
  readonly value: string;
  readonly createRevision: number;
  readonly modRevision: number;
}

/**
 * A plain, comparable view of a KeyValue. Comparing summaries instead of the objects lets backends return any
 * Uint8Array subclass (such as Buffer) and extra fields.
 */
export function summary(kv: KeyValue | undefined): KvSummary | undefined {
  if (kv === undefined) return undefined;
  return { key: kv.key, value: decoder.decode(kv.value), createRevision: kv.createRevision, modRevision: kv.modRevision };
}

export function summaries(kvs: readonly KeyValue[]): (KvSummary | undefined)[] {
  return kvs.map(summary);
}
