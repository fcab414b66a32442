import { GRPC_PREFIX_BYTES, type GrpcChannel } from './grpc-channel.js';
import {
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  decodeDeleteRangeResponse,
  decodeHeaderOnlyResponse,
  decodeRangeResponse,
  decodeTxnResponse,
  encodeCompactionRequest,
  encodeDeleteRangeRequest,
  encodeRangeRequest,
  encodeTxnRequest,
  type RangeRequest,
  type RangeResponse,
  type TxnRequest,
  type TxnResponse,
} from './kv-messages.js';

/** The calls of etcd's KV service the backend makes. */
export interface EtcdKv {
  /** `timeoutMs` overrides the channel's call deadline. */
  range(request: RangeRequest, timeoutMs?: number): Promise<RangeResponse>;
  txn(request: TxnRequest): Promise<TxnResponse>;
  deleteRange(request: DeleteRangeRequest): Promise<DeleteRangeResponse>;
  /** Resolves with etcd's revision after the compaction. */
  compact(revision: number): Promise<number>;
}

/** etcd's KV service over a GrpcChannel, which stays the caller's to close. Reads are sent again after a connection failure; writes are not. */
export class EtcdKvClient implements EtcdKv {
  readonly #channel: GrpcChannel;

  constructor(channel: GrpcChannel) {
    this.#channel = channel;
  }

  async range(request: RangeRequest, timeoutMs?: number): Promise<RangeResponse> {
    return decodeRangeResponse(
      await this.#channel.unary('/etcdserverpb.KV/Range', encodeRangeRequest(request, GRPC_PREFIX_BYTES), true, timeoutMs),
    );
  }

  async txn(request: TxnRequest): Promise<TxnResponse> {
    return decodeTxnResponse(await this.#channel.unary('/etcdserverpb.KV/Txn', encodeTxnRequest(request, GRPC_PREFIX_BYTES)));
  }

  async deleteRange(request: DeleteRangeRequest): Promise<DeleteRangeResponse> {
    return decodeDeleteRangeResponse(
      await this.#channel.unary('/etcdserverpb.KV/DeleteRange', encodeDeleteRangeRequest(request, GRPC_PREFIX_BYTES)),
    );
  }

  async compact(revision: number): Promise<number> {
    // Compacting twice is harmless: the second finds the revision compacted, which callers take as done.
    return decodeHeaderOnlyResponse(
      await this.#channel.unary('/etcdserverpb.KV/Compact', encodeCompactionRequest(revision, GRPC_PREFIX_BYTES), true),
    );
  }
}
