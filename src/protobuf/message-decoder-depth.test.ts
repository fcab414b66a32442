import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_OBJECT_DEPTH } from '../decoding/nesting.js';
import { BUILTIN_DEFINITIONS } from '../kinds/definitions.js';
import { decodeMessage } from './message-decoder.js';
import { encodeMessage } from './message-encoder.js';
import { WireFormatError } from './wire.js';

const PROPS = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';

function nestedSchema(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 1; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('protobuf decoding nests no deeper than MAX_OBJECT_DEPTH', () => {
  it('decodes a recursive message within the bound', () => {
    const bytes = encodeMessage(BUILTIN_DEFINITIONS, nestedSchema(100), PROPS);
    assert.deepEqual(decodeMessage(BUILTIN_DEFINITIONS, bytes, PROPS), nestedSchema(100));
  });

  it('refuses one nested past it, and decodes normally afterwards', () => {
    const bytes = encodeMessage(BUILTIN_DEFINITIONS, nestedSchema(MAX_OBJECT_DEPTH + 1), PROPS);
    assert.throws(() => decodeMessage(BUILTIN_DEFINITIONS, bytes, PROPS), (err: unknown) => err instanceof WireFormatError && err.message === 'exceeded max depth');
    const ok = encodeMessage(BUILTIN_DEFINITIONS, nestedSchema(3), PROPS);
    assert.deepEqual(decodeMessage(BUILTIN_DEFINITIONS, ok, PROPS), nestedSchema(3));
  });
});
