import { decodeHeaderRevision, decodeKeyValue, type EtcdKeyValue } from './kv-messages.js';
import { delimitedFieldSize, ProtoReader, ProtoWriter, varintFieldSize } from './protobuf-wire.js';

/** etcd's Watch service messages (etcdserverpb.WatchRequest/WatchResponse, mvccpb.Event) as the backend uses them. */

export interface WatchCreateRequest {
  readonly key: Uint8Array;
  readonly rangeEnd: Uint8Array;
  readonly startRevision: number;
  readonly prevKv: boolean;
}

export interface EtcdEvent {
  readonly type: 'put' | 'delete';
  readonly kv: EtcdKeyValue;
  readonly prevKv: EtcdKeyValue | undefined;
}

export interface WatchResponse {
  readonly revision: number;
  readonly created: boolean;
  readonly canceled: boolean;
  readonly compactRevision: number;
  readonly cancelReason: string;
  readonly events: EtcdEvent[];
}

/** A WatchRequest holding a create_request, after `offset` free bytes for the caller's framing. */
export function encodeWatchCreateRequest(request: WatchCreateRequest, offset: number): Buffer {
  const create =
    delimitedFieldSize(1, request.key.byteLength) +
    delimitedFieldSize(2, request.rangeEnd.byteLength) +
    (request.startRevision ? varintFieldSize(3, request.startRevision) : 0) +
    (request.prevKv ? varintFieldSize(6, 1) : 0);
  const writer = new ProtoWriter(delimitedFieldSize(1, create), offset);
  writer.delimited(1, create);
  writer.bytesField(1, request.key);
  writer.bytesField(2, request.rangeEnd);
  if (request.startRevision) writer.varintField(3, request.startRevision);
  if (request.prevKv) writer.varintField(6, 1);
  return writer.buffer;
}

export function decodeWatchResponse(message: Buffer): WatchResponse {
  const reader = new ProtoReader(message);
  let revision = 0;
  let created = false;
  let canceled = false;
  let compactRevision = 0;
  let cancelReason = '';
  const events: EtcdEvent[] = [];
  for (let field = reader.next(); field !== 0; field = reader.next()) {
    switch (field) {
      case 1:
        revision = decodeHeaderRevision(reader.message());
        break;
      case 3:
        created = reader.bool();
        break;
      case 4:
        canceled = reader.bool();
        break;
      case 5:
        compactRevision = reader.varint();
        break;
      case 6:
        cancelReason = reader.bytes().toString('utf8');
        break;
      case 11:
        events.push(decodeEvent(reader.message()));
        break;
      default:
        reader.skip();
    }
  }
  return { revision, created, canceled, compactRevision, cancelReason, events };
}

function decodeEvent(reader: ProtoReader): EtcdEvent {
  let type: EtcdEvent['type'] = 'put';
  let kv: EtcdKeyValue | undefined;
  let prevKv: EtcdKeyValue | undefined;
  for (let field = reader.next(); field !== 0; field = reader.next()) {
    if (field === 1) type = reader.varint() === 1 ? 'delete' : 'put';
    else if (field === 2) kv = decodeKeyValue(reader.message());
    else if (field === 3) prevKv = decodeKeyValue(reader.message());
    else reader.skip();
  }
  if (kv === undefined) throw new Error('etcd sent a watch event without its key-value');
  return { type, kv, prevKv };
}
