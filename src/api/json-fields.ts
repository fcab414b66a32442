import { isObject, type KubeObject } from './types.js';

/**
 * Lenient readers of decoded JSON fields: an absent or mistyped field reads as Go's zero value, so validation and
 * printing never throw on what a client sent. Callers read the field themselves (`text(spec.hostname)`) rather than
 * passing a key: a shared `holder[key]` read goes megamorphic across the many object shapes and cost a tenth of pod
 * validation's time.
 */

export type JsonObject = Record<string, unknown>;

/** A string field, or "". */
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** An object field, or undefined. */
export const asObject = (value: unknown): JsonObject | undefined => (isObject(value) ? value : undefined);

/** An integral number (JSON numbers decode to doubles). */
export const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/** An object's spec, or an empty one. */
export const specOf = (obj: KubeObject | undefined): JsonObject => (obj !== undefined && isObject(obj.spec) ? obj.spec : {});
