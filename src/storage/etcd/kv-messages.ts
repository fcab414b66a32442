import { delimitedFieldSize, ProtoReader, ProtoWriter, varintFieldSize } from './protobuf-wire.js';

/**
 * etcd's KV service messages (etcdserverpb, mvccpb.KeyValue) in the subset the backend sends and reads, with
 * revisions and counts as numbers. Field numbers are those of etcd's rpc.proto and kv.proto.
 */

export interface EtcdKeyValue {
  readonly key: Buffer;
  readonly value: Buffer;
  readonly createRevision: number;
  readonly modRevision: number;
  readonly version: number;
}

export interface RangeRequest {
  readonly key: Uint8Array;
  readonly rangeEnd?: Uint8Array;
  readonly limit?: number;
  /** 0 or absent: the latest revision. */
  readonly revision?: number;
  readonly countOnly?: boolean;
}

export interface PutRequest {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
  readonly prevKv?: boolean;
}

export interface DeleteRangeRequest {
  readonly key: Uint8Array;
  readonly rangeEnd?: Uint8Array;
  readonly prevKv?: boolean;
}

/** A guard of a transaction: the key's create revision, mod revision or version equals the given number. */
export interface Compare {
  readonly key: Uint8Array;
  readonly target: 'version' | 'create' | 'mod';
  readonly equals: number;
}

export type RequestOp = { readonly range: RangeRequest } | { readonly put: PutRequest } | { readonly deleteRange: DeleteRangeRequest };

export interface TxnRequest {
  readonly compare?: readonly Compare[];
  readonly success?: readonly RequestOp[];
  readonly failure?: readonly RequestOp[];
}

export interface RangeResponse {
  /** The store revision the answer was read at (the response header's). */
  readonly revision: number;
  readonly kvs: EtcdKeyValue[];
  readonly more: boolean;
  /** Every key in the range, those beyond the limit included. */
  readonly count: number;
}

export interface PutResponse {
  readonly revision: number;
  readonly prevKv: EtcdKeyValue | undefined;
}

export interface DeleteRangeResponse {
  readonly revision: number;
  readonly deleted: number;
  readonly prevKvs: EtcdKeyValue[];
}

/** One operation's answer; only the field of the operation's kind is set. */
export interface ResponseOp {
  range?: RangeResponse;
  put?: PutResponse;
  deleteRange?: DeleteRangeResponse;
}

export interface TxnResponse {
  readonly revision: number;
  readonly succeeded: boolean;
  readonly responses: ResponseOp[];
}

const COMPARE_TARGET = { version: 0, create: 1, mod: 2 } as const;
/** Compare.target_union's field for each target. */
const COMPARE_FIELD = { version: 4, create: 5, mod: 6 } as const;

function rangeSize(request: RangeRequest): number {
  let size = delimitedFieldSize(1, request.key.byteLength);
  if (request.rangeEnd !== undefined) size += delimitedFieldSize(2, request.rangeEnd.byteLength);
  if (request.limit) size += varintFieldSize(3, request.limit);
  if (request.revision) size += varintFieldSize(4, request.revision);
  if (request.countOnly) size += varintFieldSize(9, 1);
  return size;
}

function writeRange(writer: ProtoWriter, request: RangeRequest): void {
  writer.bytesField(1, request.key);
  if (request.rangeEnd !== undefined) writer.bytesField(2, request.rangeEnd);
  if (request.limit) writer.varintField(3, request.limit);
  if (request.revision) writer.varintField(4, request.revision);
  if (request.countOnly) writer.varintField(9, 1);
}

function putSize(request: PutRequest): number {
  let size = delimitedFieldSize(1, request.key.byteLength) + delimitedFieldSize(2, request.value.byteLength);
  if (request.prevKv) size += varintFieldSize(4, 1);
  return size;
}

function writePut(writer: ProtoWriter, request: PutRequest): void {
  writer.bytesField(1, request.key);
  writer.bytesField(2, request.value);
  if (request.prevKv) writer.varintField(4, 1);
}

function deleteRangeSize(request: DeleteRangeRequest): number {
  let size = delimitedFieldSize(1, request.key.byteLength);
  if (request.rangeEnd !== undefined) size += delimitedFieldSize(2, request.rangeEnd.byteLength);
  if (request.prevKv) size += varintFieldSize(3, 1);
  return size;
}

function writeDeleteRange(writer: ProtoWriter, request: DeleteRangeRequest): void {
  writer.bytesField(1, request.key);
  if (request.rangeEnd !== undefined) writer.bytesField(2, request.rangeEnd);
  if (request.prevKv) writer.varintField(3, 1);
}

function compareSize(compare: Compare): number {
  // result Equal is 0, the default, and so not written. The target value always is: it selects the oneof.
  return (
    (compare.target === 'version' ? 0 : varintFieldSize(2, COMPARE_TARGET[compare.target])) +
    delimitedFieldSize(3, compare.key.byteLength) +
    varintFieldSize(COMPARE_FIELD[compare.target], compare.equals)
  );
}

function writeCompare(writer: ProtoWriter, compare: Compare): void {
  if (compare.target !== 'version') writer.varintField(2, COMPARE_TARGET[compare.target]);
  writer.bytesField(3, compare.key);
  writer.varintField(COMPARE_FIELD[compare.target], compare.equals);
}

/** RequestOp's field for the operation and the size of the operation's own message. */
function opParts(op: RequestOp): [number, number] {
  if ('put' in op) return [2, putSize(op.put)];
  if ('range' in op) return [1, rangeSize(op.range)];
  return [3, deleteRangeSize(op.deleteRange)];
}

function writeOp(writer: ProtoWriter, op: RequestOp): void {
  if ('put' in op) writePut(writer, op.put);
  else if ('range' in op) writeRange(writer, op.range);
  else writeDeleteRange(writer, op.deleteRange);
}

function opsSize(field: number, ops: readonly RequestOp[]): number {
  let size = 0;
  for (const op of ops) {
    const [opField, inner] = opParts(op);
    size += delimitedFieldSize(field, delimitedFieldSize(opField, inner));
  }
  return size;
}

function writeOps(writer: ProtoWriter, field: number, ops: readonly RequestOp[]): void {
  for (const op of ops) {
    const [opField, inner] = opParts(op);
    writer.delimited(field, delimitedFieldSize(opField, inner));
    writer.delimited(opField, inner);
    writeOp(writer, op);
  }
}

/**
 * Each encoder leaves `offset` bytes free at the start of its buffer for the caller's framing, so that the
 * message is not copied again to be sent.
 */
export function encodeRangeRequest(request: RangeRequest, offset: number): Buffer {
  const writer = new ProtoWriter(rangeSize(request), offset);
  writeRange(writer, request);
  return writer.buffer;
}

export function encodeDeleteRangeRequest(request: DeleteRangeRequest, offset: number): Buffer {
  const writer = new ProtoWriter(deleteRangeSize(request), offset);
  writeDeleteRange(writer, request);
  return writer.buffer;
}

export function encodeTxnRequest(request: TxnRequest, offset: number): Buffer {
  const compare = request.compare ?? [];
  const success = request.success ?? [];
  const failure = request.failure ?? [];
  let size = opsSize(2, success) + opsSize(3, failure);
  for (const c of compare) size += delimitedFieldSize(1, compareSize(c));
  const writer = new ProtoWriter(size, offset);
  for (const c of compare) {
    writer.delimited(1, compareSize(c));
    writeCompare(writer, c);
  }
  writeOps(writer, 2, success);
  writeOps(writer, 3, failure);
  return writer.buffer;
}

export function encodeCompactionRequest(revision: number, offset: number): Buffer {
  const writer = new ProtoWriter(varintFieldSize(1, revision), offset);
  writer.varintField(1, revision);
  return writer.buffer;
}

/** A ResponseHeader's revision, the store revision the answer was given at. */
export function decodeHeaderRevision(reader: ProtoReader): number {
  let revision = 0;
  for (let field = reader.next(); field !== 0; field = reader.next()) {
    if (field === 3) revision = reader.varint();
    else reader.skip();
  }
  return revision;
}

const EMPTY: Buffer = Buffer.alloc(0);

export function decodeKeyValue(reader: ProtoReader): EtcdKeyValue {
  let key = EMPTY;
  let value = EMPTY;
  let createRevision = 0;
  let modRevision = 0;
  let version = 0;
  for (let field = reader.next(); field !== 0; field = reader.next()) {
    switch (field) {
      case 1:
        key = reader.bytes();
        break;
      case 2:
        createRevision = reader.varint();
        break;
      case 3:
        modRevision = reader.varint();
        break;
      case 4:
        version = reader.varint();
        break;
      case 5:
        value = reader.bytes();
        break;
      default:
        reader.skip();
    }
  }
  return { key, value, createRevision, modRevision, version };
}

function decodeRange(reader: ProtoReader): RangeResponse {
  let revision = 0;
  const kvs: EtcdKeyValue[] = [];
  let more = false;
  let count = 0;
  for (let field = reader.next(); field !== 0; field = reader.next()) {
    if (field === 1) revision = decodeHeaderRevision(reader.message());
    else if (field === 2) kvs.push(decodeKeyValue(reader.message()));
    else if (field === 3) more = reader.bool();
    else if (field === 4) count = reader.varint();
    else reader.skip();
  }
  return { revision, kvs, more, count };
}

function decodePut(reader: ProtoReader): PutResponse {
  let revision = 0;
  let prevKv: EtcdKeyValue | undefined;
  for (let field = reader.next(); field !== 0; field = reader.next()) {
    if (field === 1) revision = decodeHeaderRevision(reader.message());
    else if (field === 2) prevKv = decodeKeyValue(reader.message());
    else reader.skip();
  }
  return { revision, prevKv };
}

function decodeDeleteRange(reader: ProtoReader): DeleteRangeResponse {
  let revision = 0;
  let deleted = 0;
  const prevKvs: EtcdKeyValue[] = [];
  for (let field = reader.next(); field !== 0; field = reader.next()) {
    if (field === 1) revision = decodeHeaderRevision(reader.message());
    else if (field === 2) deleted = reader.varint();
    else if (field === 3) prevKvs.push(decodeKeyValue(reader.message()));
    else reader.skip();
  }
  return { revision, deleted, prevKvs };
}

function decodeResponseOp(reader: ProtoReader): ResponseOp {
  const op: ResponseOp = {};
  for (let field = reader.next(); field !== 0; field = reader.next()) {
    if (field === 1) op.range = decodeRange(reader.message());
    else if (field === 2) op.put = decodePut(reader.message());
    else if (field === 3) op.deleteRange = decodeDeleteRange(reader.message());
    else reader.skip();
  }
  return op;
}

export function decodeRangeResponse(message: Buffer): RangeResponse {
  return decodeRange(new ProtoReader(message));
}

export function decodeDeleteRangeResponse(message: Buffer): DeleteRangeResponse {
  return decodeDeleteRange(new ProtoReader(message));
}

export function decodeTxnResponse(message: Buffer): TxnResponse {
  const reader = new ProtoReader(message);
  let revision = 0;
  let succeeded = false;
  const responses: ResponseOp[] = [];
  for (let field = reader.next(); field !== 0; field = reader.next()) {
    if (field === 1) revision = decodeHeaderRevision(reader.message());
    else if (field === 2) succeeded = reader.bool();
    else if (field === 3) responses.push(decodeResponseOp(reader.message()));
    else reader.skip();
  }
  return { revision, succeeded, responses };
}

/** The revision of a response that carries only a header (CompactionResponse). */
export function decodeHeaderOnlyResponse(message: Buffer): number {
  const reader = new ProtoReader(message);
  let revision = 0;
  for (let field = reader.next(); field !== 0; field = reader.next()) {
    if (field === 1) revision = decodeHeaderRevision(reader.message());
    else reader.skip();
  }
  return revision;
}
